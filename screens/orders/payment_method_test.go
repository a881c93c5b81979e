package orders

import (
	"strings"
	"testing"

	"cardterm/screens/screentest"
)

// The order-payment-method setting is what an order sends and what the
// product's detail says; a tenant that does not offer it refuses with its
// own words, shown.
func TestOrderSendsThePaymentMethodSet(t *testing.T) {
	app, _ := newApp(t, "nora@demo.test", func(s *screentest.Setup) { s.Shell.OrderPaymentMethod = "CRYPTO_EXTERNAL_COINBASE" })
	app.MustShow(t, "crypto, through Coinbase (CRYPTO_EXTERNAL_COINBASE)")
	app.Keys("enter")
	spec, open := app.UI().Dialog()
	if !open || !strings.Contains(strings.Join(spec.Request, "\n"), `"paymentMethod":"CRYPTO_EXTERNAL_COINBASE"`) {
		t.Fatalf("the order sends %q", spec.Request)
	}
	app.Keys("y")
	if s := app.Screen(); !strings.Contains(s, "paymentMethod") || !strings.Contains(s, "(422)") {
		t.Fatalf("the sandbox's refusal is not shown:\n%s", s)
	}
	// The default is the reference's.
	app, _ = newApp(t, "nora@demo.test")
	app.MustShow(t, "crypto, through Daimo (CRYPTO_EXTERNAL_DAIMO)")
}
