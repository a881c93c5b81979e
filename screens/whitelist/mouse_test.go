package whitelist

import (
	"testing"

	"cardterm/screens/screenkit"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

// A click selects the entry drawn there and the wheel moves the cursor;
// in the add form a click focuses the field drawn there.
func TestWhitelistTakesClicksAndTheWheel(t *testing.T) {
	a := newWhitelistApp(t, "alice@demo.test")
	a.Open(screenkit.WhitelistScreen)
	_, savings := a.Find("Savings")
	x, landlord := a.Find("Landlord")
	first, second := min(savings, landlord), max(savings, landlord)
	if a.SelectedLine() != first {
		t.Fatalf("the first entry is not selected (line %d):\n%s", a.SelectedLine(), a.Screen())
	}
	a.Click(x, second)
	if got := a.SelectedLine(); got != second {
		t.Fatalf("a click on line %d selected line %d:\n%s", second, got, a.Screen())
	}
	a.Wheel(x, second, -1)
	if got := a.SelectedLine(); got != first {
		t.Fatalf("the wheel up selected line %d, want %d", got, first)
	}
	a.Click(x, 0) // the title: nothing changes
	if got := a.SelectedLine(); got != first {
		t.Fatalf("a click on the title moved the cursor to line %d", got)
	}

	a.Keys("a")
	a.ClickOn("Address")
	form := a.UI().Active().(*Screen).form.form
	if got := form.Focused(); got != fieldKey(0, "walletAddress") {
		t.Fatalf("a click on Address focused %q", got)
	}
	a.ClickOn("First name")
	if got := form.Focused(); got != fieldKey(0, "beneficiaryFirstName") {
		t.Fatalf("a click on First name focused %q", got)
	}
}

// BenchmarkWhitelistClickAndWheel100k is a click on a row and a wheel
// step (each with Update + View) on the whitelist holding 100,000
// entries, far down the list; the budget is a key press's, 1 ms.
func BenchmarkWhitelistClickAndWheel100k(b *testing.B) {
	w := bigWhitelist(100_000)
	w.Update(uitest.Key("G"))
	top := w.tableTop()
	b.ReportAllocs()
	for i := range b.N {
		w.Update(ui.BodyMouseMsg{X: 4, Y: top + 1 + i%20})
		_ = w.View()
		w.Update(ui.BodyMouseMsg{X: 4, Y: top + 3, Wheel: 1 - 2*(i%2)})
		_ = w.View()
	}
}

// In the currency picker a click selects the currency drawn there and a
// second click picks it; the wheel moves the selection.
func TestWhitelistPickerTakesClicks(t *testing.T) {
	a := newWhitelistApp(t, "alice@demo.test")
	a.Open(screenkit.WhitelistScreen)
	a.Keys("c")
	x, xrp := a.Find("XRP  (memo/tag required)")
	a.Click(x, xrp)
	if _, got := a.Find("› XRP"); got != xrp {
		t.Fatalf("a click on XRP (line %d) selected line %d:\n%s", xrp, got, a.Screen())
	}
	a.Wheel(x, xrp, -1)
	if _, got := a.Find("› "); got != xrp-1 {
		t.Fatalf("the wheel up selected line %d, want %d", got, xrp-1)
	}
	a.Wheel(x, xrp, 1)
	a.Click(x, xrp)
	a.MustShow(t, "XRP", "Exchange dep", "rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe")
	a.MustNotShow(t, "Pick a currency")
}
