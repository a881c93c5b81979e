package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Orders as the sandbox plays them (the interface leaves the order lookup
// and the order states "not shown"; docs/internals/sandbox.md gives the shapes):
//
//   - Products, per user: every VERIFIED user may order the virtual and the
//     physical card; the metal card only the accounts listed in
//     ordMetalEligible. Users who are not VERIFIED see every product with
//     isEligible false. REJECTED users are refused the order endpoints
//     altogether (403 Not authorized). An ineligible product is answered 422
//     with a message naming it, like the other order validation errors.
//   - Payment: paymentMethod must be CRYPTO_EXTERNAL_DAIMO; the payment is
//     USDC on Linea (the chain id and token address of the backend's chain
//     configuration) to a per-order address, priced in USD.
//   - Time rules, on the sandbox clock, fixed by product so demos and tests
//     are deterministic (t is the time since the order was created):
//     virtual card:  STARTED, PENDING at t >= 3 s, COMPLETED at t >= 6 s
//     (paidAt = creation + 6 s);
//     metal card:    STARTED, PENDING at t >= 3 s, FAILED at t >= 12 s
//     (the payment bounced; metadata.failureReason says so);
//     physical card: never paid in the sandbox: STARTED, EXPIRED at
//     t >= 30 min. Every order not paid within 30 minutes is EXPIRED.
//   - When an order for a card product is first seen COMPLETED, the user
//     gets that card if they have none or only a BLOCKED one (the same state
//     POST /v1/card/order changes); metadata.cardId names it.
//   - GET /v1/order/{orderId} finds only the signed-in user's orders;
//     another user's id, like an unknown one, answers 404.

// Order statuses the sandbox produces (REFUNDED is never produced).
const (
	ordStarted   = "STARTED"
	ordPending   = "PENDING"
	ordCompleted = "COMPLETED"
	ordFailed    = "FAILED"
	ordExpired   = "EXPIRED"
)

// ordPaymentMethod is the only payment method the sandbox accepts.
const ordPaymentMethod = "CRYPTO_EXTERNAL_DAIMO"

// Time rules (see above).
const (
	ordPendingAfter  = 3 * time.Second
	ordCompleteAfter = 6 * time.Second
	ordFailAfter     = 12 * time.Second
	ordExpireAfter   = 30 * time.Minute
)

// Payment destination: USDC on Linea. The chain id and token address are
// the backend's own chain configuration (GET /v1/delegation/chain/config),
// so a client can look the token's decimals up there; these are the
// fallback should that configuration lack Linea USDC.
const (
	ordNetwork      = "linea"
	ordChainID      = "59144"
	ordTokenSymbol  = "USDC"
	ordTokenAddress = "0x176211869cA2b568f2A7D4EE941E073a821EE1ff"
	ordCurrency     = "USD"
)

// ordDestination is the chain id and USDC address of be's Linea network.
func ordDestination(be *backend) (chainID, token string) {
	for _, n := range delegationChainConfig(be.key) {
		if t, ok := n.Tokens[strings.ToLower(ordTokenSymbol)]; ok && n.Network == ordNetwork {
			return n.ChainID, t.Address
		}
	}
	return ordChainID, ordTokenAddress
}

// ordPlan is how an order of a product evolves.
type ordPlan int

const (
	ordPlanComplete  ordPlan = iota // paid, then COMPLETED
	ordPlanFail                     // paid, then FAILED
	ordPlanNeverPaid                // never paid: EXPIRED after 30 min
)

// ordProduct is one product of the catalogue.
type ordProduct struct {
	ID          string
	Description string
	Price       string // USD, exact decimal text, sent as a JSON number
	CardType    string // the card the order issues on completion; "" = none
	Plan        ordPlan
}

// ordCatalogue is every product, in the order the list shows them.
var ordCatalogue = []ordProduct{
	{ID: "prod_virtual_card", Description: "Virtual card, ready in seconds", Price: "10.00", CardType: "VIRTUAL", Plan: ordPlanComplete},
	{ID: "prod_physical_card", Description: "Physical card, shipped in 5-7 days", Price: "24.90", CardType: "PHYSICAL", Plan: ordPlanNeverPaid},
	{ID: "prod_metal_card", Description: "Metal card, premium benefits", Price: "149.00", CardType: "METAL", Plan: ordPlanFail},
}

// ordMetalEligible reports whether the account may order the metal card.
func ordMetalEligible(username string) bool {
	switch username {
	case "frank@demo.test", "lena@demo.test", "sam@demo.test", "olga@acme.test":
		return true
	}
	return false
}

// ordProductByID finds a catalogue product.
func ordProductByID(id string) (ordProduct, bool) {
	for _, p := range ordCatalogue {
		if p.ID == id {
			return p, true
		}
	}
	return ordProduct{}, false
}

// ordEligible says whether u may order p, and why not.
func ordEligible(u *userRecord, p ordProduct) (bool, string) {
	if u.Verification != "VERIFIED" {
		return false, "identity verification is not complete"
	}
	if p.ID == "prod_metal_card" && !ordMetalEligible(u.Username) {
		return false, "the metal card is offered to selected accounts only"
	}
	return true, ""
}

// ordBook is everything order-related one user owns.
type ordBook struct {
	orders []*orderRecord
	seq    int // orders created so far, for deterministic ids
}

// orderRecord is a stored order.
type orderRecord struct {
	ID, RequestID string
	Product       ordProduct
	Method        string
	Created       time.Time
	Destination   string
	ChainID       string
	Token         string // token contract address
	// settled is set once a COMPLETED order has been seen (and its card
	// issued), so the card is issued exactly once.
	settled bool
	cardID  string
	// reported is the status last announced by order.status.changed
	// (STARTED when created, which is not announced).
	reported string
}

// ordersOf returns u's order book, creating it on first use. Call with s.mu
// held.
func ordersOf(u *userRecord) *ordBook {
	if u.orders == nil {
		u.orders = &ordBook{}
	}
	return u.orders
}

// newOrder records an order of p by u at now. Call with s.mu held.
func (b *ordBook) newOrder(be *backend, u *userRecord, p ordProduct, method string, now time.Time) *orderRecord {
	b.seq++
	n := fmt.Sprint(b.seq)
	id := uuidFrom("order", u.Username, n)
	sum := sha256.Sum256([]byte("order-destination\x00" + id))
	o := &orderRecord{
		ID: id, RequestID: uuidFrom("order-request", u.Username, n), Product: p, Method: method,
		Created: now, Destination: "0x" + hex.EncodeToString(sum[:20]), reported: ordStarted,
	}
	o.ChainID, o.Token = ordDestination(be)
	b.orders = append(b.orders, o)
	return o
}

// find returns the user's order with id, or nil.
func (b *ordBook) find(id string) *orderRecord {
	for _, o := range b.orders {
		if o.ID == id {
			return o
		}
	}
	return nil
}

// statusAt applies the time rules: the status at now and when it was paid.
func (o *orderRecord) statusAt(now time.Time) (string, *time.Time) {
	age := now.Sub(o.Created)
	switch o.Product.Plan {
	case ordPlanComplete:
		switch {
		case age >= ordCompleteAfter:
			paid := o.Created.Add(ordCompleteAfter)
			return ordCompleted, &paid
		case age >= ordPendingAfter:
			return ordPending, nil
		}
	case ordPlanFail:
		switch {
		case age >= ordFailAfter:
			return ordFailed, nil
		case age >= ordPendingAfter:
			return ordPending, nil
		}
	}
	if age >= ordExpireAfter {
		return ordExpired, nil
	}
	return ordStarted, nil
}

// ordStatusJSON is the order lookup answer.
type ordStatusJSON struct {
	RequestID string         `json:"requestId"`
	OrderID   string         `json:"orderId"`
	Status    string         `json:"status"`
	PaidAt    *string        `json:"paidAt"`
	Metadata  map[string]any `json:"metadata"`
}

// settle reads o at now, issues the card of a COMPLETED card order once,
// and returns the lookup answer. Call with s.mu held.
func (o *orderRecord) settle(u *userRecord, now time.Time) ordStatusJSON {
	status, paidAt := o.statusAt(now)
	if status == ordCompleted && !o.settled {
		o.settled = true
		o.cardID = issueCard(u, o.Product.CardType, *paidAt)
	}
	out := ordStatusJSON{RequestID: o.RequestID, OrderID: o.ID, Status: status, Metadata: map[string]any{
		"productId":     o.Product.ID,
		"paymentMethod": o.Method,
		"createdAt":     o.Created.UTC().Format(time.RFC3339),
	}}
	if paidAt != nil {
		p := paidAt.UTC().Format(time.RFC3339)
		out.PaidAt = &p
		sum := sha256.Sum256([]byte("order-tx\x00" + o.ID))
		out.Metadata["txHash"] = "0x" + hex.EncodeToString(sum[:])
	}
	switch status {
	case ordFailed:
		out.Metadata["failureReason"] = "The payment was returned by the payment provider"
	case ordExpired:
		out.Metadata["expiredAt"] = o.Created.Add(ordExpireAfter).UTC().Format(time.RFC3339)
	}
	if o.cardID != "" {
		out.Metadata["cardId"] = o.cardID
	}
	return out
}

// ordCreatedJSON is the order creation answer.
type ordCreatedJSON struct {
	RequestID     string             `json:"requestId"`
	OrderID       string             `json:"orderId"`
	PaymentConfig orderPaymentConfig `json:"paymentConfig"`
}

type orderPaymentConfig struct {
	PaymentAmount           json.Number `json:"paymentAmount"`
	PaymentCurrency         string      `json:"paymentCurrency"`
	DestinationAddress      string      `json:"destinationAddress"`
	DestinationChainID      string      `json:"destinationChainId"`
	DestinationTokenSymbol  string      `json:"destinationTokenSymbol"`
	DestinationTokenAddress string      `json:"destinationTokenAddress"`
}

func (o *orderRecord) created() ordCreatedJSON {
	return ordCreatedJSON{RequestID: o.RequestID, OrderID: o.ID, PaymentConfig: orderPaymentConfig{
		PaymentAmount: json.Number(o.Product.Price), PaymentCurrency: ordCurrency,
		DestinationAddress: o.Destination, DestinationChainID: o.ChainID,
		DestinationTokenSymbol: ordTokenSymbol, DestinationTokenAddress: o.Token,
	}}
}
