package delegation

import (
	"strings"
	"testing"

	"cardterm/screens/screentest"
)

// In the post-approval a click focuses the field drawn there, also when
// the form is cut to fit a short terminal; the token's field is masked in
// presenter mode.
func TestDelegationFormTakesClicks(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 18}} {
		app, _ := newApp(t, "alice@demo.test", screentest.WithSize(size[0], size[1]))
		app.Keys("a")
		if cut := !strings.Contains(app.Screen(), "Send it after"); cut != (size[1] == 18) {
			t.Fatalf("%v: the form's explanation cut %v:\n%s", size, cut, app.Screen())
		}
		l, _ := topForm(app)
		form := l.Form
		app.ClickOn("Sig message")
		if got := form.Focused(); got != "sigMessage" {
			t.Fatalf("%v: a click on Sig message focused %q:\n%s", size, got, app.Screen())
		}
		x, nonce := app.Find("Nonce")
		app.Click(x, nonce-1)
		if got := form.Focused(); got != "token" || l.TypingPlain() {
			t.Fatalf("%v: a click on the token focused %q (plain %v)", size, got, l.TypingPlain())
		}
		app.ClickOn("Post-approval") // the title takes no focus
		if got := form.Focused(); got != "token" {
			t.Fatalf("%v: a click on the title moved the focus to %q", size, got)
		}
	}
}

// In the chain configuration a click selects the network drawn there, a
// second click opens its tokens, where a click selects a token; the wheel
// moves the cursor.
func TestDelegationChainConfigTakesClicks(t *testing.T) {
	app, _ := newApp(t, "alice@demo.test")
	app.Keys("c")
	first := app.SelectedLine()
	x, solana := app.Find("solana")
	app.Click(x, solana)
	if got := app.SelectedLine(); got != solana || got == first {
		t.Fatalf("a click on solana (line %d) selected line %d:\n%s", solana, got, app.Screen())
	}
	app.Wheel(x, solana, -5)
	if got := app.SelectedLine(); got != first {
		t.Fatalf("the wheel up selected line %d, want %d", got, first)
	}
	_, linea := app.Find("linea")
	app.Click(x, linea)
	app.Click(x, linea)
	app.MustShow(t, "Tokens", "musd", "usdc", "usdt", "59141")
	_, usdt := app.Find("usdt")
	app.Click(x, usdt)
	if got := app.SelectedLine(); got != usdt {
		t.Fatalf("a click on usdt (line %d) selected line %d:\n%s", usdt, got, app.Screen())
	}
}
