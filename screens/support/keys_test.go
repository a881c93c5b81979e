package support_test

import (
	"testing"

	"cardterm/sandbox"
	"cardterm/screens/support"
	"cardterm/ui/uitest"
)

// The console's hints name the keys in force: a keys file that moves
// the look-up, ticket, case and note actions moves the words with them.
func TestSupportHintsNameTheKeysInForce(t *testing.T) {
	alice := sandbox.DemoUserID("alice@demo.test")
	for _, c := range []struct {
		name, keys, user string
		press            []string // keys pressed, a ticket typed after the first
		want             []string
	}{
		{name: "recent look-ups", keys: "support.user: U\nsupport.onboarding: O\n",
			want: []string{"None yet: U looks up a user id, O an onboarding id."}},
		{name: "no case open", keys: "support.ticket: X\n", user: alice,
			want: []string{"ticket none (X sets one)"}},
		{name: "case open", keys: "support.ticket: X\nsupport.panel: P\n", user: alice, press: []string{"X", "enter"},
			want: []string{"Case TCK-5 · 1 look-up, 0 notes, 0 pieces of evidence · P opens it"}},
		{name: "case panel", keys: "support.ticket: X\nsupport.panel: P\nsupport.add: A\n", user: alice, press: []string{"X", "enter", "P"},
			want: []string{"No note yet: A adds one."}},
	} {
		t.Run(c.name, func(t *testing.T) {
			uitest.UseKeys(t, c.keys)
			app := newConsole(t, support.Options{User: c.user, CasesDir: t.TempDir(), Agent: "dana"})
			for i, k := range c.press {
				app.Keys(k)
				if i == 0 {
					app.Type("TCK-5")
				}
			}
			app.MustShow(t, c.want...)
		})
	}
}
