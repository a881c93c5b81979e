package support

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/ui"
)

// handleKey routes a key: the open form, panel or view takes it first,
// then the view's own bindings (the look-ups, or a customer's case).
func (s *Screen) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if s.form != nil {
		return s.formKey(msg)
	}
	if s.queue != nil {
		return s.queueKey(msg)
	}
	if s.approval != nil && s.approval.panelOpen() {
		return s.approvalKey(msg)
	}
	switch {
	case s.runbooks != nil:
		return s.runbookKey(msg)
	case s.panel != nil:
		return s.panelKey(msg)
	case s.timeline != nil:
		return s.timelineKey(msg)
	}
	if s.audit != nil {
		if !s.audit.CapturesKeys() {
			switch {
			case key.Matches(msg, s.keys.Keep):
				return s.keepOnConsole()
			case key.Matches(msg, s.keys.Export):
				return s.export(false)
			case key.Matches(msg, s.keys.ExportFull):
				return s.export(true)
			case key.Matches(msg, s.keys.Copy):
				return s.copyMarkdown()
			}
		}
		var cmd tea.Cmd
		s.audit, cmd = s.audit.update(msg)
		return cmd
	}
	if s.view == viewLookups {
		return s.lookupsKey(msg)
	}
	return s.caseKey(msg)
}

func (s *Screen) lookupsKey(msg tea.KeyPressMsg) tea.Cmd {
	if cmd, ok := s.lookups.FilterKey(msg); ok {
		return cmd
	}
	switch {
	case key.Matches(msg, s.keys.User):
		s.formFor = formLookup
		return s.openForm(lookupForm(s.Deps.Styles, caseUser, s.us))
	case key.Matches(msg, s.keys.Onboarding):
		s.formFor = formLookup
		return s.openForm(lookupForm(s.Deps.Styles, caseOnboarding, s.us))
	case key.Matches(msg, s.keys.Desk) && s.opts.CasesDir != "":
		return s.openQueue()
	case key.Matches(msg, s.keys.Region):
		s.setRegion(!s.us)
		return notify("look-ups now go to the " + regionName(s.us) + " region")
	case key.Matches(msg, s.keys.Note) && s.caseFile != nil:
		return s.openNoteForm()
	case key.Matches(msg, s.keys.Panel) && s.caseFile != nil:
		return s.openPanel()
	case key.Matches(msg, s.keys.Open):
		return s.openSelectedLookup()
	case key.Matches(msg, s.keys.Back):
		return func() tea.Msg { return ui.CloseSupportMsg{} }
	}
	var cmd tea.Cmd
	s.lookups, cmd = s.lookups.Update(msg)
	return cmd
}

func (s *Screen) caseKey(msg tea.KeyPressMsg) tea.Cmd {
	if cmd, ok := s.sets.FilterKey(msg); ok {
		return cmd
	}
	k := s.activeKeys() // disabled bindings match nothing
	switch {
	case key.Matches(msg, k.Back):
		return s.closeCase()
	case key.Matches(msg, k.User), key.Matches(msg, k.Onboarding):
		// The next customer, from the case: the ticket's case goes on.
		kind := caseUser
		if key.Matches(msg, k.Onboarding) {
			kind = caseOnboarding
		}
		s.formFor = formLookup
		return s.openForm(lookupForm(s.Deps.Styles, kind, s.us))
	case key.Matches(msg, k.Audit):
		s.audit = newAuditView(s.Deps, s.Requests, s.readClient(), s.kase.id)
		s.audit.SetSize(s.Width, s.Height)
		return s.audit.start()
	case key.Matches(msg, k.Revoke):
		return s.startRevoke()
	case key.Matches(msg, k.Link):
		return s.startLink()
	case key.Matches(msg, k.Approve):
		return s.startApproval()
	case key.Matches(msg, k.Region):
		// The same id in the other region: one key after a 404.
		return s.lookUp(s.kase.kind, s.kase.id, !s.us, s.ticket)
	case key.Matches(msg, k.Ticket):
		s.formFor = formTicket
		return s.openForm(ticketForm(s.Deps.Styles, s.ticket))
	case key.Matches(msg, k.Export):
		return s.export(false)
	case key.Matches(msg, k.ExportFull):
		return s.export(true)
	case key.Matches(msg, k.Copy):
		return s.copyMarkdown()
	case key.Matches(msg, k.Keep):
		return s.keepOnConsole()
	case key.Matches(msg, k.Note):
		return s.openNoteForm()
	case key.Matches(msg, k.Panel):
		return s.openPanel()
	case key.Matches(msg, k.Runbook):
		return s.openRunbooks()
	case key.Matches(msg, k.Timeline):
		return s.openTimeline()
	case key.Matches(msg, k.Follow):
		return s.follow()
	}
	var cmd tea.Cmd
	s.sets, cmd = s.sets.Update(msg)
	return cmd
}
