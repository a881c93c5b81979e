package orders

import (
	"context"
	"testing"

	"cardterm/apiclient"
	"cardterm/screens/screentest"
)

// placeOrder orders the virtual card outside the app and returns its id.
func placeOrder(t *testing.T, app *screentest.App) string {
	t.Helper()
	o, err := app.Client.PlaceOrder(context.Background(), "prod_virtual_card", apiclient.PaymentMethodDaimo)
	if err != nil {
		t.Fatal(err)
	}
	return o.OrderID
}

// A past order opens by its id with what the gateway sent; an unknown id
// says 404 and keeps what was typed; i shows the record's JSON.
func TestOrderLookupByID(t *testing.T) {
	for _, alt := range []bool{false, true} {
		name := "default shape"
		var opts []screentest.Option
		if alt {
			name = "another shape"
			opts = append(opts, screentest.WithAltShapes())
		}
		t.Run(name, func(t *testing.T) {
			app, _ := newApp(t, "alice@demo.test", opts...)
			id := placeOrder(t, app)

			app.Keys("f")
			app.MustShow(t, "Look up an order by id", "GET /v1/order/{orderId}")
			app.Type("ord_unknown")
			app.Keys("enter")
			app.MustShow(t, "No order with the id ord_unknown for this user (404)", "ord_unknown")
			app.MustNotShow(t, "Status ")

			app.Keys("ctrl+u")
			app.Type(id)
			app.Keys("enter")
			s := app.Screen()
			screentest.MustShow(t, s, "Order "+id, "as the gateway sent it", "Status", "STARTED")
			if alt {
				screentest.MustShow(t, s, "Order reference", "Order payment method", "CRYPTO_EXTERNAL_DAIMO")
			} else {
				screentest.MustShow(t, s, "Request id", "Metadata product id", "prod_virtual_card")
			}
			app.Keys("i")
			app.MustShow(t, "JSON as the gateway sent it", "order "+id[:8], id[len(id)-4:]+" · all", `"`+id+`"`)
			app.Keys("esc", "esc")
			app.MustShow(t, "Virtual card", "Selected product")
		})
	}
}

// A product's fields beyond the interface's (another gateway's price and
// region) are listed in the detail.
func TestProductsInAnotherShape(t *testing.T) {
	app, _ := newApp(t, "alice@demo.test", screentest.WithAltShapes())
	app.MustShow(t, "Price value", "10.00", "Price currency", "USD", "Eligibility region")
}

// An order status record in another gateway's shape (order.state): the
// panel reads the state, stops polling once it is final, and lists the
// record's fields as sent.
func TestOrderStatusInAnotherShapeEndsPolling(t *testing.T) {
	app, s := newApp(t, "nora@demo.test", screentest.WithAltShapes())
	app.Resize(124, 40)
	orderProduct(app, s, "Virtual card")
	app.Keys("y")
	app.MustShow(t, "Payment", "STARTED", "check 1 of 40", "Order state", "started")
	tick(app, s)
	tick(app, s)
	app.MustShow(t, "COMPLETED", "check 3 of 40", "Payment received", "Order payment completed at")
	if payOf(app).polling {
		t.Fatal("polling goes on after a final state")
	}
}
