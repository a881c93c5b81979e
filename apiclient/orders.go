package apiclient

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// PaymentMethodDaimo is the payment method the gateway supports for orders
// (CRYPTO_EXTERNAL_<PROVIDER>, the provider being Daimo).
const PaymentMethodDaimo = "CRYPTO_EXTERNAL_DAIMO"

// Order statuses. STARTED, then COMPLETED, FAILED or EXPIRED; PENDING and
// REFUNDED are also seen. Other values are shown as they are.
const (
	OrderStarted   = "STARTED"
	OrderPending   = "PENDING"
	OrderCompleted = "COMPLETED"
	OrderFailed    = "FAILED"
	OrderExpired   = "EXPIRED"
	OrderRefunded  = "REFUNDED"
)

// Order polling, as docs/internals/sandbox.md gives it: poll the order every 3 s, at most 40
// times.
const (
	OrderPollEverySeconds = 3
	OrderPollMax          = 40
)

// OrderStatusFinal reports whether an order in status will not change any
// more, so polling can stop. Unknown statuses are not final.
func OrderStatusFinal(status string) bool {
	switch status {
	case OrderCompleted, OrderFailed, OrderExpired, OrderRefunded:
		return true
	}
	return false
}

// Product is an item of GET /v1/order/products/available. A product with
// IsEligible false must not be ordered.
type Product struct {
	ID          string `json:"id"`
	Description string `json:"description"`
	IsEligible  bool   `json:"isEligible"`
	Extra       Extra  `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// PaymentConfig says how to pay an order: PaymentAmount (in the fiat
// PaymentCurrency, exact decimal text, never a float) to DestinationAddress
// on the EVM chain DestinationChainID, in the token at
// DestinationTokenAddress.
type PaymentConfig struct {
	PaymentAmount           Decimal `json:"paymentAmount"`
	PaymentCurrency         string  `json:"paymentCurrency"`
	DestinationAddress      string  `json:"destinationAddress"`
	DestinationChainID      string  `json:"destinationChainId"`
	DestinationTokenSymbol  string  `json:"destinationTokenSymbol"`
	DestinationTokenAddress string  `json:"destinationTokenAddress"`
	Extra                   Extra   `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// Order is the answer to PlaceOrder. PaymentConfig is optional in the
// interface: nil when the gateway sent none.
type Order struct {
	RequestID     string         `json:"requestId"`
	OrderID       string         `json:"orderId"`
	PaymentConfig *PaymentConfig `json:"paymentConfig"`
	Extra         Extra          `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// OrderStatus is the order lookup record (GET /v1/order/{orderId}); the
// interface does not show it, docs/internals/sandbox.md does. PaidAt is nil until paid;
// Metadata is kept raw.
type OrderStatus struct {
	RequestID string  `json:"requestId"`
	OrderID   string  `json:"orderId"`
	Status    string  `json:"status"`
	PaidAt    *string `json:"paidAt"`
	Metadata  Extra   `json:"metadata"`
	Extra     Extra   `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// Final reports whether the order will not change any more.
func (s OrderStatus) Final() bool { return OrderStatusFinal(s.Status) }

// Products lists the products the signed-in user may see, with their
// eligibility.
func (c *Client) Products(ctx context.Context) ([]Product, error) {
	var out []Product
	err := c.do(ctx, request{op: "Products", method: http.MethodGet,
		path: "/v1/order/products/available", family: familyOrder, out: &out})
	return out, err
}

// orderBody is the body of POST /v1/order.
type orderBody struct {
	ProductID     string `json:"productId"`
	PaymentMethod string `json:"paymentMethod"`
}

// PlaceOrder orders productID, paid with paymentMethod (PaymentMethodDaimo;
// "" means it). It is never retried. An order without an orderId is an
// error: it could not be followed.
func (c *Client) PlaceOrder(ctx context.Context, productID, paymentMethod string) (Order, error) {
	if strings.TrimSpace(productID) == "" {
		return Order{}, &Error{Op: "PlaceOrder", Message: "a product id is required"}
	}
	out, err := answer[Order](ctx, c, PlaceOrderCall(productID, paymentMethod).r)
	if err != nil {
		return Order{}, err
	}
	if out.OrderID == "" {
		return out, &Error{Op: "PlaceOrder", Status: http.StatusOK, Message: "the gateway did not return an order id"}
	}
	return out, nil
}

// PlaceOrderCall declares the request PlaceOrder sends; "" as the payment
// method means PaymentMethodDaimo.
func PlaceOrderCall(productID, paymentMethod string) Call {
	if paymentMethod == "" {
		paymentMethod = PaymentMethodDaimo
	}
	return Call{request{op: "PlaceOrder", method: http.MethodPost, path: "/v1/order",
		body: orderBody{productID, paymentMethod}, family: familyOrder}}
}

// OrderStatus looks an order up; poll it (every OrderPollEverySeconds, at
// most OrderPollMax times) until Final. Another user's or an unknown order
// is a 404.
func (c *Client) OrderStatus(ctx context.Context, orderID string) (OrderStatus, error) {
	if strings.TrimSpace(orderID) == "" {
		return OrderStatus{}, &Error{Op: "OrderStatus", Message: "an order id is required"}
	}
	return answer[OrderStatus](ctx, c, request{op: "OrderStatus", method: http.MethodGet,
		path: pathf("/v1/order/%s", orderID), family: familyOrder})
}

// TokenBaseUnits converts a decimal token amount into the token's base units
// (amount * 10^decimals), exactly; a fraction finer than decimals is an
// error rather than rounded.
func TokenBaseUnits(amount Decimal, decimals int) (string, error) {
	s := strings.TrimSpace(string(amount))
	if decimals < 0 || decimals > 36 {
		return "", fmt.Errorf("token decimals %d out of range", decimals)
	}
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || !allDigits(whole) || (strings.Contains(s, ".") && (frac == "" || !allDigits(frac))) {
		return "", fmt.Errorf("amount %q: %w", s, ErrNotDecimal)
	}
	trimmed := strings.TrimRight(frac, "0")
	if len(trimmed) > decimals {
		return "", fmt.Errorf("amount %s has more than %d decimals", s, decimals)
	}
	units := strings.TrimLeft(whole+trimmed+strings.Repeat("0", decimals-len(trimmed)), "0")
	if units == "" {
		units = "0"
	}
	return units, nil
}

// TransferURI is the EIP-681 payment request for p when its token has
// decimals: ethereum:<token>@<chainId>/transfer?address=<destination>&uint256=<base units>.
// It is only meaningful when the fiat amount is the token amount (a
// stablecoin of PaymentCurrency); the caller decides that.
func (p PaymentConfig) TransferURI(decimals int) (string, error) {
	if !ValidEVMAddress(p.DestinationTokenAddress) || !ValidEVMAddress(p.DestinationAddress) {
		return "", fmt.Errorf("the token or destination is not an EVM address")
	}
	if p.DestinationChainID == "" || !allDigits(p.DestinationChainID) {
		return "", fmt.Errorf("chain id %q is not a number", p.DestinationChainID)
	}
	units, err := TokenBaseUnits(p.PaymentAmount, decimals)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("ethereum:%s@%s/transfer?address=%s&uint256=%s",
		p.DestinationTokenAddress, p.DestinationChainID, p.DestinationAddress, units), nil
}
