package support

import (
	"cardterm/ui/keymap"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"cardterm/screens/screenkit"
	"cardterm/ui"
)

// keyMap is the console's bindings; mutating ones are disabled in
// read-only mode, so the help never offers them.
type keyMap struct {
	User, Onboarding, Open, Back, Region, Ticket key.Binding
	// Desk shows the desk's queue (on the look-ups).
	Desk                                          key.Binding
	Audit, Revoke, Link, Export, ExportFull, Copy key.Binding
	Approve                                       key.Binding
	// The case file's keys (casework.go, evidence.go, panel.go,
	// runbooks.go, timeline.go).
	Keep, Note, Panel, Runbook, Timeline, Follow key.Binding
	// Detail opens the selected consent (detail.go).
	Detail key.Binding
}

func newKeys(readOnly bool) keyMap {
	k := keyMap{
		User:       keymap.Bind("support.user"),
		Desk:       keymap.Bind("support.desk"),
		Onboarding: keymap.Bind("support.onboarding"),
		Open:       keymap.Bind("support.open"),
		Back:       keymap.Bind("support.back"),
		Region:     keymap.Bind("support.region"),
		Ticket:     keymap.Bind("support.ticket"),
		Audit:      keymap.Bind("support.audit"),
		Revoke:     keymap.Bind("support.revoke"),
		Link:       keymap.Bind("support.link"),
		Export:     keymap.Bind("support.export"),
		ExportFull: keymap.Bind("support.export-full"),
		Copy:       keymap.Bind("support.copy"),
		Approve:    keymap.Bind("support.approve"),
		Keep:       keymap.Bind("support.keep"),
		Note:       keymap.Bind("support.note"),
		Panel:      keymap.Bind("support.panel"),
		Runbook:    keymap.Bind("support.runbook"),
		Timeline:   keymap.Bind("support.timeline"),
		Follow:     keymap.Bind("support.follow"),
		Detail:     keymap.Bind("support.detail"),
	}
	screenkit.DisableInReadOnly(readOnly, &k.Revoke, &k.Link)
	return k
}

// KeyMap implements ui.Screen: the view's own keys (an open form or
// panel is a layer with its own).
func (s *Screen) KeyMap() help.KeyMap {
	k := s.activeKeys()
	if s.view == viewLookups {
		return ui.KeyMapFunc{
			Short: func() []key.Binding {
				return []key.Binding{k.User, k.Onboarding, k.Open, k.Desk, k.Region, k.Panel, k.Back}
			},
			Full: func() [][]key.Binding {
				return append([][]key.Binding{{k.User, k.Onboarding, k.Open, k.Desk, k.Region, k.Back}, {k.Note, k.Panel}}, s.lookups.KeyMap().FullHelp()...)
			},
		}
	}
	return ui.KeyMapFunc{
		Short: func() []key.Binding {
			return []key.Binding{k.Ticket, k.Note, k.Keep, k.Runbook, k.Timeline, k.Audit, k.Approve, k.Export, k.Revoke, k.Link, k.Region, k.Back}
		},
		Full: func() [][]key.Binding {
			return append([][]key.Binding{{k.Audit, k.Timeline, k.Revoke, k.Link, k.Approve, k.Follow, k.Detail, k.User, k.Onboarding, k.Back},
				{k.Export, k.ExportFull, k.Copy, k.Ticket, k.Region}, {k.Note, k.Panel, k.Keep, k.Runbook}},
				s.sets.KeyMap().FullHelp()...)
		},
	}
}

// activeKeys is the key map with what works on the case shown enabled:
// the timeline, revoke and the approved session for a user, link for an
// onboarding id.
func (s *Screen) activeKeys() keyMap {
	k := s.keys
	user := s.kase != nil && s.kase.kind == caseUser
	found := s.kase != nil && !s.kase.notFound && s.kase.err == nil
	k.Audit.SetEnabled(user && found)
	k.Revoke.SetEnabled(k.Revoke.Enabled() && user && found)
	k.Link.SetEnabled(k.Link.Enabled() && s.kase != nil && s.kase.kind == caseOnboarding && found)
	k.Approve.SetEnabled(user && s.opts.CustomerScreens != nil)
	hasCase := s.kase != nil && s.kase.err == nil
	k.Export.SetEnabled(hasCase)
	k.ExportFull.SetEnabled(hasCase)
	k.Copy.SetEnabled(hasCase)
	k.Ticket.SetEnabled(s.kase != nil)
	k.Note.SetEnabled(s.caseFile != nil)
	k.Panel.SetEnabled(s.caseFile != nil)
	k.Keep.SetEnabled(s.caseFile != nil && s.kase != nil && s.kase.err == nil)
	// A user with no consent set (404) still has a card and wallets: the
	// runbooks and the timeline work on every user's case.
	answered := s.kase != nil && s.kase.err == nil && !s.loading
	k.Runbook.SetEnabled(s.caseFile != nil && user && answered)
	k.Timeline.SetEnabled(user && answered)
	k.Follow.SetEnabled(found && len(s.kase.sets) > 0)
	k.Detail.SetEnabled(found && len(s.kase.sets) > 0)
	return k
}

// auditKeysWithKeep is the timeline's keys with ctrl+k.
type auditKeysWithKeep struct {
	help.KeyMap
	keep key.Binding
}

// ShortHelp implements help.KeyMap.
func (k auditKeysWithKeep) ShortHelp() []key.Binding {
	return append([]key.Binding{k.keep}, k.KeyMap.ShortHelp()...)
}

// FullHelp implements help.KeyMap.
func (k auditKeysWithKeep) FullHelp() [][]key.Binding {
	return append([][]key.Binding{{k.keep}}, k.KeyMap.FullHelp()...)
}
