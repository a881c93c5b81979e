package e2e

import (
	"strings"
	"testing"
)

// At 100x30, a projector's size, in presenter mode: the box of keys sits
// in rows of its own under the body (nothing a screen draws is under it),
// and the payment's QR code is drawn whole or offered whole with v.
func TestProjectorSizeBoxCoversNothingAndTheQRIsWhole(t *testing.T) {
	tm := startTermSized(t, "100", "30", []string{"BROWSER=true"}, "--presenter")
	tm.waitFor("Sandbox demo accounts")
	tm.send("Enter")
	tm.waitFor("Alice Martin", "Verification") // the Account screen: the demo list says VERIFIED too
	tm.open("Orders")
	tm.waitFor("Selected product")
	tm.send("Enter")
	tm.waitFor("POST /v1/order")
	tm.send("y")
	screen := tm.waitFor("Pay to", "┃")
	checkBoxRowsHoldNothingElse(t, screen)
	if !strings.Contains(screen, "v shows it") && !strings.Contains(screen, "▀") {
		t.Fatalf("neither a QR code nor the offer of one:\n%s", screen)
	}
	tm.send("v")
	screen = tm.waitFor("QR:", "┃")
	checkBoxRowsHoldNothingElse(t, screen)
	// The code is whole: its rows between the status line and its caption,
	// none cut at the body's edge.
	lines := strings.Split(screen, "\n")
	var code []string
	for _, l := range lines {
		if strings.ContainsAny(l, "▀▄█") && !strings.Contains(l, "┃") {
			code = append(code, strings.TrimRight(l, " "))
		}
	}
	if len(code) < 10 {
		t.Fatalf("no whole QR code:\n%s", screen)
	}
	for _, l := range code[1:] {
		if len([]rune(l)) != len([]rune(code[0])) && len([]rune(l)) > len([]rune(code[0])) {
			t.Fatalf("a QR row is wider than the first, cut or covered:\n%s", screen)
		}
	}
}

// checkBoxRowsHoldNothingElse fails when a row of the box of keys shows
// anything of the body beside the box (the navigation aside).
func checkBoxRowsHoldNothingElse(t *testing.T, screen string) {
	t.Helper()
	for _, l := range strings.Split(screen, "\n") {
		i := strings.IndexAny(l, "┏┃┗")
		if i < 0 {
			continue
		}
		gutter := strings.Index(l, "│")
		if gutter < 0 || strings.TrimSpace(l[gutter+len("│"):i]) != "" {
			t.Fatalf("the box shares its row with the body: %q\n%s", l, screen)
		}
	}
}
