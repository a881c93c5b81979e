package signin

import (
	"charm.land/bubbles/v2/key"
)

// signInKeys are the sign-in form's bindings.
type signInKeys struct {
	Next, Prev, Enter, Submit, Cancel, OAuth, Support key.Binding
}

func newSignInKeys() signInKeys {
	return signInKeys{
		Next:   key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next field")),
		Prev:   key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous field")),
		Enter:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "sign in")),
		Submit: key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "sign in")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel sign-in")),
		OAuth:  key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "browser/phone sign-in")),
		Support: key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "support console"),
			key.WithDisabled()),
	}
}

// The form follows the app's one submit rule: enter on the last field
// (the password) or ctrl+s from any field signs in; enter on the username
// moves to the password.
func (k signInKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Enter, k.Next, k.OAuth, k.Support}
}
func (k signInKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Enter, k.Submit, k.Cancel}, {k.Next, k.Prev}, {k.OAuth, k.Support}}
}
