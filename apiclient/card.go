package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
)

// CardStatus fetches the user's card. A user who never ordered one gets an
// *Error with Status 404: check it with IsNotFound and offer OrderCard.
func (c *Client) CardStatus(ctx context.Context) (Card, error) {
	return answer[Card](ctx, c, request{
		op:     "CardStatus",
		method: http.MethodGet,
		path:   "/v1/card/status",
		family: familyUser,
	})
}

// FreezeCard stops all transactions on an ACTIVE card until UnfreezeCard.
func (c *Client) FreezeCard(ctx context.Context) error {
	return c.doSuccess(ctx, FreezeCardCall().r)
}

// FreezeCardCall declares the request FreezeCard sends.
func FreezeCardCall() Call {
	return Call{request{op: "FreezeCard", method: http.MethodPost, path: "/v1/card/freeze", family: familyUser}}
}

// UnfreezeCard lets a FROZEN card transact again. An ACTIVE or BLOCKED card
// answers 400 ("Card is not frozen"); a BLOCKED card is replaced with
// OrderCard instead.
func (c *Client) UnfreezeCard(ctx context.Context) error {
	return c.doSuccess(ctx, UnfreezeCardCall().r)
}

// UnfreezeCardCall declares the request UnfreezeCard sends.
func UnfreezeCardCall() Call {
	return Call{request{op: "UnfreezeCard", method: http.MethodPost, path: "/v1/card/unfreeze", family: familyUser}}
}

// OrderCard orders a new card of cardType (CardVirtual, CardPhysical,
// CardMetal; "" means CardVirtual), e.g. to replace a BLOCKED one.
func (c *Client) OrderCard(ctx context.Context, cardType string) error {
	return c.doSuccess(ctx, OrderCardCall(cardType).r)
}

// OrderCardCall declares the request OrderCard sends.
func OrderCardCall(cardType string) Call {
	if cardType == "" {
		cardType = CardVirtual
	}
	return Call{request{op: "OrderCard", method: http.MethodPost, path: "/v1/card/order",
		body: struct {
			Type string `json:"type"`
		}{cardType}, family: familyUser}}
}

// successBody is the {success: boolean} answer of many mutations.
type successBody struct {
	Success *bool `json:"success"`
}

// doSuccess runs a mutation answered by {success: boolean}. An explicit
// success:false is an error; a missing or unreadable body on a 2xx is
// accepted, since the status already says it worked.
func (c *Client) doSuccess(ctx context.Context, r request) error {
	var raw json.RawMessage
	var status int
	r.out = &raw
	if r.status == nil {
		r.status = &status
	}
	err := c.do(ctx, r)
	if err != nil {
		var e *Error
		// An empty or non-JSON 2xx body: the status is what counts.
		if ok := asError(err, &e); ok && e.Status >= 200 && e.Status <= 299 {
			return nil
		}
		return err
	}
	var sb successBody
	if bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) && json.Unmarshal(raw, &sb) == nil &&
		sb.Success != nil && !*sb.Success {
		return &Error{Op: r.op, Status: *r.status, Message: "gateway reported success: false"}
	}
	return nil
}
