package e2e

import (
	"strings"
	"testing"
)

// The first minute: the first screen forgives, keys do one thing, and an
// 80x24 terminal names the screens and shows the set-PIN link whole.

// ? on the sandbox's first screen opens the help (it does not type into
// the filled password), and enter then signs in as the demo account.
func TestFirstScreenQuestionMarkOpensHelpThenEnterSignsIn(t *testing.T) {
	tm := startTerm(t, nil)
	tm.waitFor("Sandbox demo accounts", "alice@demo.test", "? help")
	tm.send("?")
	tm.waitFor("Help", "sign in", "quit")
	tm.send("Escape")
	tm.waitFor("Sandbox demo accounts")
	tm.send("Enter")
	s := tm.waitFor("Alice", "VERIFIED", "1 Account")
	if strings.Contains(s, "Not authenticated") {
		t.Fatalf("the sign-in failed: ? went into the password:\n%s", s)
	}
}

// After d on the Card screen (the details image opens at once), v opens
// the PIN image: it never lands in a form's field. D opens the colours
// form with no field chosen, so a v typed next changes nothing and enter
// opens the image.
func TestCardDThenVLandsInNoField(t *testing.T) {
	env, opened := browserRecorder(t)
	tm := startTerm(t, []string{env})
	tm.waitFor("Sandbox demo accounts")
	tm.send("Enter")
	tm.waitFor("Alice", "VERIFIED")
	tm.open("Card")
	tm.waitFor("ACTIVE", "4242")
	tm.send("d")
	tm.waitFor("Card details image opened in the browser")
	tm.send("v")
	tm.waitFor("PIN image opened in the browser")
	waitOpened(t, opened, 2)
	if s := tm.screen(); strings.Contains(s, "Card background") {
		t.Fatalf("a form is open after d and v:\n%s", s)
	}
	tm.send("D")
	tm.waitFor("Card background", "enter open the details image")
	tm.send("v", "v")
	s := tm.screen()
	if strings.Contains(s, "│ vv") || strings.Contains(s, "│ v ") {
		t.Fatalf("v landed in a field:\n%s", s)
	}
	tm.send("Enter")
	waitOpened(t, opened, 3)
}

// At 80x24 the navigation names the screens (short names), and the set-PIN
// link, longer than the body is wide, is shown whole: broken across lines
// of its own, every character on screen.
func TestNarrowTerminalNamesScreensAndShowsTheSetPINLinkWhole(t *testing.T) {
	env, opened := browserRecorder(t)
	tm := startTermSized(t, "80", "24", []string{env})
	tm.waitFor("Sandbox demo accounts")
	tm.send("Enter")
	// Names, short where long, beside the number keys (whatever the order).
	tm.waitFor("1 Account", " Card ", " Trans. ", " Wallets ", " Hooks ", " Spend. ")
	tm.open("Card")
	tm.waitFor("ACTIVE", "4242")
	tm.send("p")
	s := tm.waitFor("link valid for")
	link := waitOpened(t, opened, 1)[0]
	if len(link) <= 66 {
		t.Fatalf("the link %q fits on one line: the test needs a longer one", link)
	}
	// The body's text, the navigation and the padding left out.
	var body strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if _, right, ok := strings.Cut(line, "│"); ok {
			body.WriteString(strings.TrimSpace(right))
		}
	}
	if !strings.Contains(body.String(), link) {
		t.Fatalf("the set-PIN link %s is not whole on screen:\n%s", link, s)
	}
	if strings.Contains(s, "…") && strings.Contains(s, "pin-direct") && !strings.Contains(s, "token=") {
		t.Fatalf("the link is cut:\n%s", s)
	}
}
