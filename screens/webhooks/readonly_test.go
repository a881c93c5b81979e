package webhooks

import (
	"testing"

	"cardterm/screens/screentest"
)

// In read-only mode the detail of a configuration offers no key that
// changes it: not in its hints, not in the footer.
func TestWebhookDetailOffersNoChangeInReadOnly(t *testing.T) {
	ro := newApp(t, "alice@demo.test", screentest.ReadOnly())
	ro.Keys("enter")
	s := ro.Screen()
	screentest.MustShow(t, s, "Webhook Ledger sync", "esc back · y copy url")
	screentest.MustNotShow(t, s, "e edit", "t toggle", "R rotate", "x delete", "l point at")

	rw := newApp(t, "alice@demo.test")
	rw.Keys("enter")
	rw.MustShow(t, "e edit", "t toggle active", "R rotate key", "x delete")
}
