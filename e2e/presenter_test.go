package e2e

import (
	"strings"
	"testing"
	"time"
)

// presenterBoxLine is the line of the screen that holds the keys pressed
// (between the box's ┃ sides), "" when there is none.
func presenterBoxLine(screen string) string {
	for _, line := range strings.Split(screen, "\n") {
		if i := strings.Index(line, "┃"); i >= 0 && strings.Count(line, "┃") == 2 {
			return line[i:]
		}
	}
	return ""
}

// waitForPresenter waits until the box of keys holds every text.
func (tm *tmuxTerm) waitForPresenter(texts ...string) string {
	tm.t.Helper()
	deadline := time.Now().Add(e2eWait)
	for {
		s := tm.screen()
		box := presenterBoxLine(s)
		ok := box != ""
		for _, text := range texts {
			ok = ok && strings.Contains(box, text)
		}
		if ok {
			return box
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("the keys box lacks %q; the screen shows:\n%s", texts, s)
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// --presenter shows the keys pressed in a box over the body, repeats
// folded, above the status bar; what is typed in the sign-in form is
// never shown; f2 hides the box.
func TestPresenterShowsTheKeysPressed(t *testing.T) {
	tm := startTerm(t, nil, "--presenter")
	tm.waitFor("Sandbox demo accounts", "alice@demo.test")
	tm.send("BTab")   // from the demo accounts, where the keys start, to the password
	tm.typeText("pw") // into the password field: a secret
	box := tm.waitForPresenter("•••")
	if strings.Contains(box, " p ") || strings.Contains(box, " w ") {
		t.Fatalf("the box shows what was typed into the password: %q", box)
	}
	tm.send("C-u") // alice's password is in the field: type it again
	tm.typeText("demo-pass")
	tm.send("Enter")
	tm.waitFor("1 Account", "Alice")
	tm.open("Ca") // Card, by a prefix with no letter of the password
	tm.waitFor("f freeze/unfreeze")
	tm.send("j", "j", "j")
	box = tm.waitForPresenter(" : ", " C ", " a ", "enter", " j  ×3")
	if strings.Contains(box, "demo-pass") || strings.Contains(box, " d ") {
		t.Fatalf("the box shows the password: %q", box)
	}
	lines := strings.Split(strings.TrimRight(tm.screen(), "\n"), "\n")
	for _, last := range lines[len(lines)-2:] {
		if strings.ContainsAny(last, "┃━") {
			t.Fatalf("the box covers the status bar or the footer:\n%s", strings.Join(lines[len(lines)-4:], "\n"))
		}
	}
	tm.send("F2")
	tm.waitGone("×3")
	if box := presenterBoxLine(tm.screen()); box != "" {
		t.Fatalf("f2 left the box: %q", box)
	}
}
