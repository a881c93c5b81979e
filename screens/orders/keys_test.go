package orders

import (
	"strings"
	"testing"

	"cardterm/ui/uitest"
)

// The payment panel names the keys in force, in its words and in its
// help: a keys file that moves copy, QR and re-check moves them all.
func TestPaymentPanelNamesTheKeysInForce(t *testing.T) {
	for _, c := range []struct {
		name          string
		width, height int
		press         []string // after the order is confirmed
		want          []string
		help          string // the panel's enabled keys, as its help lists them
	}{
		{name: "wide", width: 130, height: 44,
			want: []string{"C copy address   Q QR code alone   R check now   esc close"}, help: "R C Q esc"},
		{name: "no room for the QR code", width: 80, height: 24,
			want: []string{"no room for the QR code here: Q shows it"}, help: "R C Q esc"},
		{name: "QR code alone", width: 80, height: 24, press: []string{"Q"},
			want: []string{"Q details"}, help: "R C Q esc"},
	} {
		t.Run(c.name, func(t *testing.T) {
			uitest.UseKeys(t, "orders.copy: C\norders.qr: Q\norders.recheck: R\n")
			app, s := newApp(t, "alice@demo.test")
			app.Resize(c.width, c.height)
			orderProduct(app, s, "Virtual card")
			app.Keys("y")
			app.Keys(c.press...)
			app.MustShow(t, c.want...)
			var keys []string
			for _, b := range payOf(app).KeyMap().ShortHelp() {
				if b.Enabled() {
					keys = append(keys, b.Help().Key)
				}
			}
			if got := strings.Join(keys, " "); got != c.help {
				t.Errorf("the panel's help lists %q, want %q", got, c.help)
			}
		})
	}
}
