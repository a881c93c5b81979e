package sandbox

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
)

// The order endpoints identify the client with X-Client-ID (the client id
// of a credential, or its client key: both name the same tenant, so an app
// whose --client-id defaults to the client key works out of the box). The
// rules they play are described in seed_orders.go.

// ordProductJSON is one item of the product list. ineligibleReason is not
// in the interface: it says why isEligible is false, for tolerant readers.
type ordProductJSON struct {
	ID               string `json:"id"`
	Description      string `json:"description"`
	IsEligible       bool   `json:"isEligible"`
	IneligibleReason string `json:"ineligibleReason,omitempty"`
}

// ordRefused answers 403 for the accounts barred from ordering (REJECTED
// verification); it has answered when it returns true.
func ordRefused(c *call) bool {
	c.s.mu.Lock()
	rejected := c.user.Verification == "REJECTED"
	c.s.mu.Unlock()
	if rejected {
		c.fail(http.StatusForbidden, "Not authorized")
	}
	return rejected
}

// ordProducts: GET /v1/order/products/available.
func (s *Server) ordProducts(c *call) {
	if ordRefused(c) {
		return
	}
	s.mu.Lock()
	out := convertAll(ordCatalogue, func(p ordProduct) ordProductJSON {
		ok, why := ordEligible(c.user, p)
		return ordProductJSON{ID: p.ID, Description: p.Description, IsEligible: ok, IneligibleReason: why}
	})
	s.mu.Unlock()
	region := c.be.key.Region
	answerInShape(s, c, out, func(out []ordProductJSON) []altProduct { return altProducts(out, region) })
}

// ordCreate: POST /v1/order {productId, paymentMethod}.
func (s *Server) ordCreate(c *call) {
	if ordRefused(c) {
		return
	}
	// Every malformed body is a 422, the one validation status the
	// interface gives this operation (never 400).
	raw, err := io.ReadAll(http.MaxBytesReader(c.w, c.r.Body, 1<<20))
	if err != nil {
		c.fail(http.StatusUnprocessableEntity, "Request body too large or unreadable")
		return
	}
	var in struct {
		ProductID     *string `json:"productId"`
		PaymentMethod *string `json:"paymentMethod"`
	}
	if len(strings.TrimSpace(string(raw))) > 0 {
		if err := json.Unmarshal(raw, &in); err != nil {
			c.fail(http.StatusUnprocessableEntity, "Invalid JSON body: productId and paymentMethod must be strings")
			return
		}
	}
	switch {
	case in.ProductID == nil || strings.TrimSpace(*in.ProductID) == "":
		c.fail(http.StatusUnprocessableEntity, "productId is required")
		return
	case in.PaymentMethod == nil || strings.TrimSpace(*in.PaymentMethod) == "":
		c.fail(http.StatusUnprocessableEntity, "paymentMethod is required")
		return
	case *in.PaymentMethod != ordPaymentMethod:
		c.fail(http.StatusUnprocessableEntity, "Unsupported paymentMethod "+ordQuote(*in.PaymentMethod)+": the supported value is "+ordPaymentMethod)
		return
	}
	p, ok := ordProductByID(*in.ProductID)
	if !ok {
		c.fail(http.StatusUnprocessableEntity, "Unknown productId "+ordQuote(*in.ProductID))
		return
	}
	s.mu.Lock()
	eligible, why := ordEligible(c.user, p)
	var out ordCreatedJSON
	if eligible {
		out = ordersOf(c.user).newOrder(c.be, c.user, p, *in.PaymentMethod, s.now()).created()
		s.keepUserLocked(c.user)
	}
	s.mu.Unlock()
	if !eligible {
		c.fail(http.StatusUnprocessableEntity, "Product "+p.ID+" is not eligible for this user: "+why)
		return
	}
	c.json(http.StatusOK, out)
}

// ordLookup: GET /v1/order/{orderId}, the signed-in user's orders only.
func (s *Server) ordLookup(c *call) {
	if ordRefused(c) {
		return
	}
	c.answerFound("Order not found", func() any {
		o := ordersOf(c.user).find(c.r.PathValue("orderId"))
		if o == nil {
			return nil
		}
		hadCard, wasSettled, wasReported := o.cardID != "", o.settled, o.reported
		out := o.settle(c.user, s.now())
		s.emitOrderChangesLocked(c.be, c.user, o, out, hadCard)
		if o.settled != wasSettled || o.reported != wasReported {
			s.keepUserLocked(c.user)
		}
		return inShape(s, out, altOrderStatusOf)
	})
}

// emitOrderChangesLocked announces what a read of o found new: a status
// not announced yet (order.status.changed), and a card the completed order
// issued (card.ordered, card.activated). Call with s.mu held.
func (s *Server) emitOrderChangesLocked(be *backend, u *userRecord, o *orderRecord, out ordStatusJSON, hadCard bool) {
	if out.Status != o.reported {
		previous := o.reported
		o.reported = out.Status
		s.emitLocked(be, u.ID, WebhookEventOrderStatusChanged, o.ID, map[string]any{
			"orderId": o.ID, "requestId": o.RequestID, "productId": o.Product.ID,
			"status": out.Status, "previousStatus": previous, "paidAt": out.PaidAt,
		})
	}
	if !hadCard && o.cardID != "" {
		s.emitCardIssuedLocked(be, u)
	}
}

// ordQuote shows a client-supplied value in a message, shortened.
func ordQuote(v string) string {
	if len(v) > 64 {
		v = v[:64] + "…"
	}
	b, _ := json.Marshal(v)
	return string(b)
}
