package apiclient

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

// SimulateRequest is a step of card activity for the sandbox gateway to
// make happen (POST /sandbox/simulate, sandbox-only): Type is
// authorization, decline, clearing or refund; a clearing or refund refers
// to AuthorizationID (default the user's latest pending, or cleared, one).
type SimulateRequest struct {
	Type            string `json:"type" yaml:"type"`
	User            string `json:"user,omitempty" yaml:"user"`
	Amount          string `json:"amount,omitempty" yaml:"amount"`
	Currency        string `json:"currency,omitempty" yaml:"currency"`
	Merchant        string `json:"merchant,omitempty" yaml:"merchant"`
	MCC             string `json:"mcc,omitempty" yaml:"mcc"`
	Reason          string `json:"reason,omitempty" yaml:"reason"`
	AuthorizationID string `json:"authorizationId,omitempty" yaml:"authorizationId"`
}

// SimulatedTransaction is the part of a simulated record a summary names;
// Raw is the record as the sandbox sent it (the list's shape).
type SimulatedTransaction struct {
	ID                  string  `json:"id"`
	TransactionType     string  `json:"transactionType"`
	Status              string  `json:"status"`
	Sign                string  `json:"sign"`
	Merchant            string  `json:"merchantNameLocation"`
	TransactionAmount   string  `json:"transactionAmount"`
	TransactionCurrency string  `json:"transactionCurrency"`
	DeclineReason       *string `json:"declineReason"`
	AuthorizationID     string  `json:"authorizationId"`
	Raw                 json.RawMessage
}

// UnmarshalJSON keeps the record's own text beside the fields.
func (t *SimulatedTransaction) UnmarshalJSON(b []byte) error {
	type fields SimulatedTransaction
	var f fields
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*t = SimulatedTransaction(f)
	t.Raw = append(json.RawMessage(nil), b...)
	return nil
}

// SimulateResult is what a simulated step made: the new record, the
// authorization it refers to as it is now (clearing, refund) and the
// event sent about it.
type SimulateResult struct {
	Transaction   SimulatedTransaction  `json:"transaction"`
	Authorization *SimulatedTransaction `json:"authorization"`
	EventID       string                `json:"eventId"`
	EventType     string                `json:"eventType"`
	Deliveries    []TriggeredWebhook    `json:"deliveries"`
	// Raw is the answer as the sandbox sent it (sandbox simulate --json
	// prints it).
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps the answer's own text beside the fields.
func (r *SimulateResult) UnmarshalJSON(b []byte) error {
	type fields SimulateResult
	var f fields
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*r = SimulateResult(f)
	r.Raw = append(json.RawMessage(nil), b...)
	return nil
}

// SimulateTypes are the steps SandboxSimulate takes.
var SimulateTypes = []string{"authorization", "decline", "clearing", "refund", "increment", "reversal", "atm"}

// SandboxSimulate asks the sandbox gateway to make one step of card
// activity happen; the record joins the user's transactions and the
// matching transaction.* event goes to every subscribed webhook.
func (c *Client) SandboxSimulate(ctx context.Context, in SimulateRequest) (SimulateResult, error) {
	in.Type = strings.ToLower(strings.TrimSpace(in.Type))
	known := false
	for _, t := range SimulateTypes {
		known = known || t == in.Type
	}
	if !known {
		return SimulateResult{}, &Error{Op: "SandboxSimulate", Message: "the step must be one of " + strings.Join(SimulateTypes, ", ") + ", not " + strconv.Quote(in.Type)}
	}
	var out SimulateResult
	err := c.do(ctx, request{op: "SandboxSimulate", method: http.MethodPost, path: "/sandbox/simulate",
		body: in, family: familySecret, us: usHeader, out: &out, sandboxOnly: true})
	return out, err
}
