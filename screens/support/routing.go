package support

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/ui"
)

// handleKey routes a key to the view's own bindings (the look-ups, or a
// customer's case); an open form, panel or view is a layer over the
// console and has the keys before it.
func (s *Screen) handleKey(msg tea.KeyPressMsg) tea.Cmd {
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
		return s.openForm(formLookup, lookupForm(s.Deps.Styles, caseUser, s.us))
	case key.Matches(msg, s.keys.Onboarding):
		return s.openForm(formLookup, lookupForm(s.Deps.Styles, caseOnboarding, s.us))
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
		return s.openForm(formLookup, lookupForm(s.Deps.Styles, kind, s.us))
	case key.Matches(msg, k.Audit):
		return s.openAudit(s.readClient())
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
		return s.openForm(formTicket, ticketForm(s.Deps.Styles, s.ticket))
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
	case key.Matches(msg, k.Detail):
		return s.openDetail()
	}
	var cmd tea.Cmd
	s.sets, cmd = s.sets.Update(msg)
	return cmd
}
