package signin

import (
	"cardterm/ui/keymap"

	"charm.land/bubbles/v2/key"
)

// signInKeys are the sign-in form's bindings.
type signInKeys struct {
	Next, Prev, Enter, Submit, Cancel, OAuth, Support key.Binding
}

func newSignInKeys() signInKeys {
	return signInKeys{
		Next:   keymap.Bind("signin.next"),
		Prev:   keymap.Bind("signin.prev"),
		Enter:  keymap.Bind("signin.enter"),
		Submit: keymap.Bind("signin.submit"),
		Cancel: keymap.Bind("signin.cancel"),
		OAuth:  keymap.Bind("signin.o-auth"),
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
