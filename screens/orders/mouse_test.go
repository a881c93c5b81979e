package orders

import (
	"testing"
)

// A click selects the product drawn there (its detail follows) and the
// wheel moves the cursor; a click orders nothing.
func TestOrdersTakeClicksAndTheWheel(t *testing.T) {
	app, _ := newApp(t, "alice@demo.test")
	x, metal := app.Find("Metal card")
	app.Click(x, metal)
	if got := app.SelectedLine(); got != metal {
		t.Fatalf("a click on line %d selected line %d:\n%s", metal, got, app.Screen())
	}
	app.MustShow(t, "NOT ELIGIBLE", "cannot be ordered")
	app.Wheel(x, metal, -1)
	_, physical := app.Find("Physical card")
	if got := app.SelectedLine(); got != physical {
		t.Fatalf("the wheel up selected line %d, want %d (Physical card)", got, physical)
	}
	app.Click(x, physical)
	if _, open := app.UI().Dialog(); open || app.Sent("POST", "/v1/card/order") > 0 {
		t.Fatal("a second click on a product ordered it")
	}
}
