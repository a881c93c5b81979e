package consent

import (
	"cardterm/ui/keymap"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"cardterm/screens/screenkit"
)

// The consent screen's key maps: the main view's, the detail's and the
// audit trail's. The footer and the help are built from them, so they list
// exactly the keys that work; read-only mode disables Revoke, Link and New.

// keyMap is the main view's bindings and the consent table's.
type keyMap struct {
	User, Onboarding, Open, Audit, Revoke, Link, New key.Binding
	table                                            help.KeyMap
}

func newKeyMap(readOnly bool, table help.KeyMap) keyMap {
	k := keyMap{
		User:       keymap.Bind("consent.user"),
		Onboarding: keymap.Bind("consent.onboarding"),
		Open:       keymap.Bind("consent.open"),
		Audit:      keymap.Bind("consent.audit"),
		Revoke:     keymap.Bind("consent.revoke"),
		Link:       keymap.Bind("consent.link"),
		New:        keymap.Bind("consent.new"),
		table:      table,
	}
	screenkit.DisableInReadOnly(readOnly, &k.Revoke, &k.Link, &k.New)
	return k
}

// ShortHelp implements help.KeyMap.
func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.User, k.Onboarding, k.Open, k.Audit, k.Revoke, k.Link, k.New}
}

// FullHelp implements help.KeyMap.
func (k keyMap) FullHelp() [][]key.Binding {
	return append([][]key.Binding{{k.User, k.Onboarding, k.Open, k.Audit}, {k.Revoke, k.Link, k.New}}, k.table.FullHelp()...)
}

// detailKeys scroll the detail view and leave it. The screen's keys that
// act on the open set (User, Onboarding, Audit, Link, New) are copies of
// its own bindings: the screen handles them, they are here for the help.
type detailKeys struct {
	Up, Down, PageUp, PageDown, Top, Bottom, Back key.Binding
	User, Onboarding, Audit, Link, New            key.Binding
}

func newDetailKeys(screen keyMap) detailKeys {
	return detailKeys{
		Up:         keymap.Bind("consent.up"),
		Down:       keymap.Bind("consent.down"),
		PageUp:     keymap.Bind("consent.page-up"),
		PageDown:   keymap.Bind("consent.page-down"),
		Top:        keymap.Bind("consent.top"),
		Bottom:     keymap.Bind("consent.bottom"),
		Back:       keymap.Bind("consent.back"),
		User:       screen.User,
		Onboarding: screen.Onboarding,
		Audit:      screen.Audit,
		Link:       screen.Link,
		New:        screen.New,
	}
}

// ShortHelp implements help.KeyMap.
func (k detailKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Audit, k.Link, k.Back, k.Down, k.Up}
}

// FullHelp implements help.KeyMap.
func (k detailKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.User, k.Onboarding, k.Audit}, {k.Link, k.New, k.Back},
		{k.Up, k.Down, k.PageUp}, {k.PageDown, k.Top, k.Bottom}}
}

// auditKeys page the audit trail and leave it; the table's keys move and
// filter.
type auditKeys struct {
	Next, Prev, Back key.Binding
	table            help.KeyMap
}

func newAuditKeys(table help.KeyMap) auditKeys {
	return auditKeys{
		Next:  keymap.Bind("consent.next"),
		Prev:  keymap.Bind("consent.prev"),
		Back:  keymap.Bind("consent.back"),
		table: table,
	}
}

// ShortHelp implements help.KeyMap.
func (k auditKeys) ShortHelp() []key.Binding { return []key.Binding{k.Next, k.Prev, k.Back} }

// FullHelp implements help.KeyMap.
func (k auditKeys) FullHelp() [][]key.Binding {
	return append([][]key.Binding{{k.Next, k.Prev, k.Back}}, k.table.FullHelp()...)
}
