package orders

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// A pasted order id (copied with a line break and a terminal's colours)
// goes into the look-up form, cleaned, and finds the order.
func TestOrderLookupTakesAPastedID(t *testing.T) {
	app, _ := newApp(t, "alice@demo.test")
	id := placeOrder(t, app)
	app.Keys("f")
	app.Drive(tea.PasteMsg{Content: "\x1b[32m" + id + "\x1b[0m\n"})
	app.Keys("enter")
	app.MustShow(t, "Order "+id, "STARTED")
}
