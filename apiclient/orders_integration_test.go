package apiclient_test

import (
	"context"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

// TestOrdersAgainstSandbox places orders on the sandbox and follows them to
// their final status by advancing its clock, as the screen's poll does.
func TestOrdersAgainstSandbox(t *testing.T) {
	g := newGateway(t, sandbox.Options{})
	ctx := context.Background()
	// The default client id is the client key; the sandbox accepts it.
	nora := g.client()
	login(t, nora, "nora@demo.test")
	ps, err := nora.Products(ctx)
	if err != nil || len(ps) != 3 {
		t.Fatalf("products %+v, %v", ps, err)
	}
	var virtual apiclient.Product
	for _, p := range ps {
		if p.ID == "prod_virtual_card" {
			virtual = p
		}
	}
	if !virtual.IsEligible || virtual.Description == "" {
		t.Fatalf("virtual card product %+v", virtual)
	}
	o, err := nora.PlaceOrder(ctx, virtual.ID, apiclient.PaymentMethodDaimo)
	if err != nil {
		t.Fatal(err)
	}
	pc := o.PaymentConfig
	if pc == nil || pc.PaymentAmount != "10.00" || pc.PaymentCurrency != "USD" || !apiclient.ValidEVMAddress(pc.DestinationAddress) {
		t.Fatalf("payment config %+v", pc)
	}
	if _, err := pc.TransferURI(6); err != nil {
		t.Fatalf("EIP-681 URI: %v", err)
	}
	if _, err := nora.CardStatus(ctx); !apiclient.IsNotFound(err) {
		t.Fatalf("nora has no card before the order completes: %v", err)
	}

	var seen []string
	polls := 0
	for polls < apiclient.OrderPollMax {
		polls++
		st, err := nora.OrderStatus(ctx, o.OrderID)
		if err != nil {
			t.Fatal(err)
		}
		if len(seen) == 0 || seen[len(seen)-1] != st.Status {
			seen = append(seen, st.Status)
		}
		if st.Final() {
			if st.PaidAt == nil {
				t.Fatalf("a COMPLETED order has paidAt: %+v", st)
			}
			break
		}
		g.clock.Advance(apiclient.OrderPollEverySeconds * time.Second)
	}
	if len(seen) != 3 || seen[0] != "STARTED" || seen[1] != "PENDING" || seen[2] != "COMPLETED" || polls != 3 {
		t.Fatalf("statuses %v after %d polls, want STARTED PENDING COMPLETED in 3", seen, polls)
	}
	if card, err := nora.CardStatus(ctx); err != nil || card.Type != "VIRTUAL" {
		t.Fatalf("the completed order issued the card: %+v, %v", card, err)
	}

	// Ineligible and unsupported: 422 with the gateway's message.
	if _, err := nora.PlaceOrder(ctx, "prod_metal_card", ""); !apiclient.IsStatus(err, 422) || apiclient.ErrorMessage(err) == "" {
		t.Fatalf("ineligible metal card: %v", err)
	}
	if _, err := nora.PlaceOrder(ctx, virtual.ID, "CRYPTO_EXTERNAL_OTHER"); !apiclient.IsStatus(err, 422) {
		t.Fatalf("unsupported method: %v", err)
	}

	// Another user cannot see nora's order.
	alice := g.client(func(c *apiclient.Config) { c.ClientID = sandbox.Credentials()[0].ClientID })
	login(t, alice, "alice@demo.test")
	if _, err := alice.OrderStatus(ctx, o.OrderID); !apiclient.IsNotFound(err) {
		t.Fatalf("alice reads nora's order: %v", err)
	}
	// An unknown client id is 498; none is 499.
	bad := g.client(func(c *apiclient.Config) { c.ClientID = "nobody" })
	bad.SetSession(alice.Session())
	if _, err := bad.Products(ctx); !apiclient.IsStatus(err, 498) {
		t.Fatalf("unknown client id: %v", err)
	}
}
