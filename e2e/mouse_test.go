package e2e

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"cardterm/sandbox"
)

// The mouse in a real terminal. tmux has no command that moves a mouse,
// so the tests type what a terminal writes for one: the SGR mouse
// sequences (ESC [ < button ; column ; row M for a press, m for the
// release, 1-based; button 0 is the left one, 64 and 65 the wheel up and
// down), sent literally with send-keys -l. That the app asked the
// terminal for them is read from tmux's own flags (#{mouse_sgr_flag},
// #{mouse_button_flag}).

// click presses and releases the left button at column x, row y (0-based).
func (tm *tmuxTerm) click(x, y int) {
	tm.t.Helper()
	tm.send("-l", fmt.Sprintf("\x1b[<0;%d;%dM\x1b[<0;%d;%dm", x+1, y+1, x+1, y+1))
}

// wheel turns the wheel one step down (or up) at column x, row y.
func (tm *tmuxTerm) wheel(x, y int, down bool) {
	tm.t.Helper()
	button := 64
	if down {
		button = 65
	}
	tm.send("-l", fmt.Sprintf("\x1b[<%d;%d;%dM", button, x+1, y+1))
}

// mouseFlags is what tmux says the app asked of the terminal: SGR
// mouse encoding and button events, "1 1" when both are on.
func (tm *tmuxTerm) mouseFlags() string {
	tm.t.Helper()
	out, err := exec.Command("tmux", "-S", tm.socket, "display-message", "-p", "-t", "0",
		"#{mouse_sgr_flag} #{mouse_button_flag}").CombinedOutput()
	if err != nil {
		tm.t.Fatalf("tmux display-message: %v: %s", err, out)
	}
	return strings.TrimSpace(string(out))
}

// lineWith is the row and column of the first line of the screen holding
// text.
func lineWith(t *testing.T, screen, text string) (x, y int) {
	t.Helper()
	for i, line := range strings.Split(screen, "\n") {
		if j := strings.Index(line, text); j >= 0 {
			return len([]rune(line[:j])), i
		}
	}
	t.Fatalf("the screen lacks %q:\n%s", text, screen)
	return 0, 0
}

// A click on "Transactions" in the navigation opens it; the wheel over
// the table moves its cursor down and up, a click on a row selects it.
func TestMouseOpensAScreenAndTheWheelMovesTheTable(t *testing.T) {
	tm := startTerm(t, nil)
	tm.waitFor("Sandbox demo accounts", "alice@demo.test")
	tm.send("Enter")
	s := tm.waitFor("1 Account", "Alice")
	if flags := tm.mouseFlags(); flags != "1 1" {
		t.Fatalf("the app did not ask for SGR mouse reports (tmux flags %q)", flags)
	}
	x, y := lineWith(t, s, "Transactions")
	tm.click(x+2, y)
	s = tm.waitFor("row 1 of 50", "Selected transaction")
	_, row := lineWith(t, s, "row 1 of 50")
	tx, ty := lineWith(t, s, "Merchant")
	if ty >= row {
		t.Fatalf("no table header above the footer:\n%s", s)
	}
	tm.wheel(tx, ty+2, true)
	tm.wheel(tx, ty+2, true)
	tm.waitFor("row 3 of 50")
	tm.wheel(tx, ty+2, false)
	tm.waitFor("row 2 of 50")
	tm.click(tx, ty+5) // the fifth row under the header
	tm.waitFor("row 5 of 50")
}

// --mouse=false leaves the mouse to the terminal: the app asks for no
// reports (the terminal selects text as it always does).
func TestMouseOffLeavesTheMouseToTheTerminal(t *testing.T) {
	tm := startTerm(t, []string{"CARDTERM_MOUSE=true"}, "--mouse=false")
	tm.waitFor("Sandbox demo accounts")
	if flags := tm.mouseFlags(); flags != "0 0" {
		t.Fatalf("--mouse=false: tmux flags %q, want no mouse reports", flags)
	}
}

// On the Whitelist screen a click on an entry selects it (its detail shows
// under the table) and the wheel moves back to the first.
func TestMouseSelectsAWhitelistEntry(t *testing.T) {
	tm := startTerm(t, nil)
	tm.waitFor("Sandbox demo accounts", "alice@demo.test")
	tm.send("Enter")
	s := tm.waitFor("1 Account", "Alice")
	x, y := lineWith(t, s, "Whitelist")
	tm.click(x+2, y)
	s = tm.waitFor("row 1 of 2", "Beneficiary Alice Martin")
	x, y = lineWith(t, s, "Landlord")
	tm.click(x, y)
	tm.waitFor("row 2 of 2", "Beneficiary Jean Dupont")
	tm.wheel(x, y, false)
	tm.waitFor("row 1 of 2", "Beneficiary Alice Martin")
}

// clickWith presses and releases the left button at column x, row y with
// the SGR modifier bits (4 shift, 8 alt, 16 ctrl) added to its code.
func (tm *tmuxTerm) clickWith(modifier, x, y int) {
	tm.t.Helper()
	tm.send("-l", fmt.Sprintf("\x1b[<%d;%d;%dM\x1b[<%d;%d;%dm", modifier, x+1, y+1, modifier, x+1, y+1))
}

// Shift-, alt- and ctrl-clicks on both buttons of a dialog send nothing
// and leave it open; a plain click on n cancels it (nothing sent), a
// plain click on y sends the freeze.
func TestModifiedClicksOnDialogButtonsSendNothing(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	tm := startTermSignedIn(t, sb)
	tm.waitFor("1 Account", "Alice")
	tm.open("Card")
	tm.waitFor("ACTIVE", "4242")
	freezes := func() int {
		n := 0
		for _, r := range sb.Server.Requests() {
			if r.Method == "POST" && r.Path == "/v1/card/freeze" {
				n++
			}
		}
		return n
	}
	tm.send("f")
	s := tm.waitFor("Freeze the card", "n cancel")
	nx, ny := lineWith(t, s, "n cancel")
	yx, yy := lineWithOn(t, s, "y ", ny)
	for _, modifier := range []int{4, 8, 16, 4 + 16, 8 + 16} {
		tm.clickWith(modifier, yx, yy)
		tm.clickWith(modifier, nx, ny)
	}
	s = tm.waitFor("Freeze the card", "n cancel")
	if n := freezes(); n != 0 {
		t.Fatalf("modified clicks sent %d freezes:\n%s", n, s)
	}
	tm.click(nx, ny)
	tm.waitGone("n cancel")
	if n := freezes(); n != 0 {
		t.Fatalf("a click on n sent %d freezes", n)
	}
	tm.send("f")
	tm.waitFor("Freeze the card", "n cancel")
	tm.click(yx, yy)
	tm.waitFor("FROZEN")
	if n := freezes(); n != 1 {
		t.Fatalf("a plain click on y sent %d freezes", n)
	}
}

// lineWithOn is the column of text on line y of the screen.
func lineWithOn(t *testing.T, screen, text string, y int) (int, int) {
	t.Helper()
	line := strings.Split(screen, "\n")[y]
	j := strings.Index(line, text)
	if j < 0 {
		t.Fatalf("line %d lacks %q: %q", y, text, line)
	}
	return len([]rune(line[:j])), y
}
