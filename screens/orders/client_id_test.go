package orders

import (
	"testing"

	"cardterm/apiclient"
	"cardterm/screens/account"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
)

// Without a client id the Orders screen names the setting and sends
// nothing: the client key is no stand-in for X-Client-ID (a gateway
// answers 498).
func TestOrdersWithoutAClientIDNameTheSetting(t *testing.T) {
	app := screentest.New(t, screentest.Of(signin.New),
		screentest.WithScreen(screentest.Of(account.New), screentest.Of(New)),
		screentest.WithConfig(func(c *apiclient.Config) { c.ClientID = "" }), screentest.AsRemote("staging"), screentest.WithSize(80, 24))
	app.SignIn("nora@demo.test")
	app.Open(screenkit.OrdersScreen)
	app.MustShow(t, "no client id is configured", "--client-id")
	if n := app.Sent("GET", "/v1/order/products/available"); n != 0 {
		t.Fatalf("the products were asked %d times without X-Client-ID", n)
	}
}
