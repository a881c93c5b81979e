package orders

import (
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/screens/account"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
	"cardterm/ui"
)

func TestMain(m *testing.M) { screentest.Main(m) }

// newApp signs user in with the Account and Orders screens mounted and
// opens Orders; the returned screen lets tests fire its poll timer
// (uitest.Drive skips timers).
func newApp(t testing.TB, user string, opts ...screentest.Option) (*screentest.App, *Screen) {
	t.Helper()
	var screen *Screen
	build := func(d screenkit.Deps) ui.Screen { screen = New(d); return screen }
	opts = append([]screentest.Option{screentest.WithScreen(screentest.Of(account.New), build)}, opts...)
	app := screentest.New(t, screentest.Of(signin.New), opts...)
	app.SignIn(user)
	app.Open(screenkit.OrdersScreen)
	app.MustShow(t, "Orders", "Virtual card")
	return app, screen
}

// orderProduct selects the row holding text and orders it.
func orderProduct(app *screentest.App, s *Screen, text string) {
	app.T.Helper()
	app.Keys("g")
	for range s.table.Len() {
		if p, ok := s.selected(); ok && strings.Contains(p.Description, text) {
			break
		}
		app.Keys("j")
	}
	app.Keys("enter")
}

func TestOrdersListShowsEligibility(t *testing.T) {
	app, _ := newApp(t, "alice@demo.test")
	app.MustShow(t, "3 products, 2 eligible", "Virtual card", "Physical card", "Metal card", "✓ eligible", "✗ not eligible",
		"Selected product", "ELIGIBLE", "enter orders it")
	app.Keys("j", "j")
	app.MustShow(t, "NOT ELIGIBLE", "the metal card is offered to selected accounts only", "cannot be ordered")
}

// The confirmation shows the request (method, path, client id header and
// body) and nothing is sent before it is confirmed.
func TestOrderConfirmationShowsTheRequestBeforeSending(t *testing.T) {
	app, _ := newApp(t, "nora@demo.test")
	app.Keys("enter")
	spec, open := app.UI().Dialog()
	if !open {
		t.Fatal("enter opened no confirmation")
	}
	if !strings.HasPrefix(spec.Request[0], "POST /v1/order") {
		t.Fatalf("the confirmation's request is %q", spec.Request)
	}
	if got := strings.Join(spec.Request, "\n"); !strings.Contains(got, "X-Client-ID: acme-sandbox") ||
		!strings.Contains(got, `{"productId":"prod_virtual_card","paymentMethod":"CRYPTO_EXTERNAL_`) {
		t.Fatalf("the confirmation's request is %q", spec.Request)
	}
	app.MustConfirmBeforeSending("POST", "/v1/order", "enter")
}

func TestOrderIneligibleRefusedBeforeSending(t *testing.T) {
	app, s := newApp(t, "alice@demo.test")
	orderProduct(app, s, "Metal card")
	if app.UI().DialogOpen() || payOf(app) != nil || s.order.Busy() {
		t.Fatal("an ineligible product must not be confirmed or sent")
	}
	if n := app.Notice(); !strings.Contains(n, "Metal card") || !strings.Contains(n, "Nothing was sent") {
		t.Fatalf("notice %q", n)
	}
	if n := app.Sent("POST", "/v1/order"); n != 0 {
		t.Fatalf("%d orders sent", n)
	}
}

func TestOrderUnverifiedSeesNothingEligible(t *testing.T) {
	app, s := newApp(t, "umar@demo.test")
	app.MustShow(t, "3 products, 0 eligible", "identity verification is not complete")
	app.Keys("enter")
	if app.UI().DialogOpen() || s.order.Busy() {
		t.Fatal("unverified umar cannot order")
	}
}

func TestOrderGateway422ShownAndListReread(t *testing.T) {
	app, s := newApp(t, "alice@demo.test")
	// The list is out of date: it offers a product the gateway no longer
	// has. The gateway's 422 is shown and the list is read again.
	s.setProducts([]apiclient.Product{{ID: "prod_gold", Description: "Gold card", IsEligible: true}})
	app.Keys("enter")
	app.MustShow(t, "Order Gold card?", `"productId":"prod_gold"`)
	app.Keys("y")
	app.MustShow(t, `The gateway refused the last order: Gold card: Unknown productId "prod_gold" (422)`, "3 products, 2 eligible")
	if payOf(app) != nil {
		t.Fatal("a refused order opened the payment panel")
	}
	if n := app.Notice(); !strings.Contains(n, "ordering Gold card") {
		t.Fatalf("notice %q", n)
	}
}

func TestOrderRejectedAccount403(t *testing.T) {
	app := screentest.New(t, screentest.Of(signin.New), screentest.WithScreen(screentest.Of(New)))
	app.SignIn("rex@demo.test")
	app.Open(screenkit.OrdersScreen)
	app.MustShow(t, "The gateway does not allow this account to order products.")
}

func TestOrdersReadOnly(t *testing.T) {
	app, s := newApp(t, "alice@demo.test", screentest.ReadOnly())
	app.MustShow(t, "read-only mode: ordering is disabled")
	app.Keys("enter")
	if app.UI().DialogOpen() || s.order.Busy() {
		t.Fatal("read-only mode must not order")
	}
	if n := app.Notice(); !strings.Contains(n, "read-only mode: order product is disabled") {
		t.Fatalf("notice %q", n)
	}
	for _, b := range s.KeyMap().ShortHelp() {
		if b.Help().Key == "enter" && b.Enabled() {
			t.Fatal("the order key is offered in read-only mode")
		}
	}
}

// Widening the terminal re-lays the table out in Update: View draws the
// size SetSize gave.
func TestOrdersResizeLaysOutInSetSize(t *testing.T) {
	app, _ := newApp(t, "alice@demo.test")
	app.Resize(140, 40)
	frame := app.Screen()
	app.Resize(90, 30)
	app.Resize(140, 40)
	if again := app.Screen(); again != frame {
		t.Fatalf("the same size draws differently:\n%s\n---\n%s", frame, again)
	}
	screentest.MustShow(t, frame, "prod_virtual_card")
}
