package keymap_test

import (
	"testing"

	"cardterm/ui/keymap"
)

// Three screens bind V to "save a view" with their own titles: the
// binding alone cannot say which, so the screen's context decides, and
// the answer is the same every time (the registry is a map).
func TestOfNamesTheActionOfTheScreenShown(t *testing.T) {
	for _, name := range []string{"transactions.save-view", "events.save-view", "whitelist.save-view",
		"transactions.previous", "wallets.prev", "card.freeze"} {
		want, _ := keymap.Lookup(name)
		for range 20 {
			got, ok := keymap.Of(keymap.Bind(name), want.Context())
			if !ok || got.Name != name {
				t.Fatalf("Of(%s, %s) = %s %v", name, want.Context(), got.Name, ok)
			}
		}
	}
}

// Outside its screen a binding shared by several actions with different
// titles names none of them (the help words stand), never a random one.
func TestOfAmbiguousBindingNamesNone(t *testing.T) {
	if got, ok := keymap.Of(keymap.Bind("transactions.save-view"), "account"); ok {
		t.Fatalf("V on the Account screen named %s", got.Name)
	}
	if got, ok := keymap.Of(keymap.Bind("card.freeze"), "account"); !ok || got.Name != "card.freeze" {
		t.Fatalf("a binding only one action has: %s %v", got.Name, ok)
	}
}
