package whitelist

import (
	"strings"
	"testing"

	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
)

const addrC = "0x742d35cc6634c0532925a3b844bc454e4438f44e"

// The gateway's 422 on wallets[1].walletAddress lands under the second
// entry's address: entry 2 marked, entry 1 not, the focus there, both
// entries kept as typed.
func TestWhitelistRefusalLandsOnTheEntryItNames(t *testing.T) {
	a := newWhitelistApp(t, "alice@demo.test")
	a.Open(screenkit.WhitelistScreen)
	a.Keys("a")
	a.Fill("Rent", "Ann", "Lee", addrB)
	a.Keys("ctrl+s", "y")
	a.MustShow(t, "3 approved withdrawal addresses")

	a.Keys("a")
	a.Fill("Fresh", "Cy", "Do", addrC)
	a.Keys("ctrl+n")
	a.Fill("Again", "Ed", "Fo", addrB)
	a.Keys("ctrl+s", "y")
	s := a.Screen()
	screentest.MustShow(t, s, "The gateway refused entry 2", "✗ Entry 2", "Fresh", addrC, "Again", addrB)
	screentest.MustNotShow(t, s, "✗ Entry 1")
	lines := strings.Split(s, "\n")
	at := func(text string) int {
		for i, l := range lines {
			if strings.Contains(l, text) {
				return i
			}
		}
		return -1
	}
	entry2, refusal := at("✗ Entry 2"), at("✗ Address is already whitelisted")
	if entry2 < 0 || refusal < entry2 || at(addrB) != refusal-1 {
		t.Fatalf("the refusal is not under entry 2's address:\n%s", s)
	}
	if !strings.Contains(lines[at(addrB)], "›") {
		t.Fatalf("the focus is not on entry 2's address:\n%s", s)
	}
	if len(a.Notice()) == 0 {
		t.Fatal("no notice of the refusal")
	}
}

// ctrl+x removes the entry in focus; the others keep what was typed and
// move up.
func TestWhitelistRemoveEntryKeepsTheOthers(t *testing.T) {
	a := newWhitelistApp(t, "alice@demo.test")
	a.Open(screenkit.WhitelistScreen)
	a.Keys("a")
	a.Fill("One", "A", "B", addrA)
	a.Keys("ctrl+n")
	a.Fill("Two", "C", "D", addrB)
	a.Keys("ctrl+n")
	a.Fill("Three", "E", "F", addrC)
	a.MustShow(t, "3 entries, sent in one request", "Entry 3")
	// Back to entry 2 and remove it.
	for range 5 {
		a.Keys("shift+tab")
	}
	a.Keys("ctrl+x")
	s := a.Screen()
	screentest.MustShow(t, s, "2 entries, sent in one request", "One", addrA, "Three", addrC)
	screentest.MustNotShow(t, s, "Two", addrB, "Entry 3")
	a.Keys("ctrl+x")
	a.Keys("ctrl+x")
	a.MustShow(t, "at least one entry is needed")
}
