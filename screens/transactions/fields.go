package transactions

import (
	"cardterm/domain/ledger"
	"cardterm/screens/screenkit"
)

// Inspect implements ui.Inspectable: the selected transaction as the
// gateway sent it.
func (t *Screen) Inspect() (string, []byte, bool) {
	x, ok := t.selected()
	if !ok || t.form != nil {
		return "", nil, false
	}
	id := x.ID
	if id == "" {
		id = ledger.RecordID(x.Raw)
	}
	return screenkit.Inspected("transaction "+id, x.Raw)
}

// RecordFields implements ui.RecordFielder: the selected transaction's
// fields under short names for the user's commands ({merchant},
// {amount}); the gateway's own names are there too.
func (t *Screen) RecordFields() (map[string]string, bool) {
	x, ok := t.selected()
	if !ok || t.form != nil {
		return nil, false
	}
	reason := ""
	if x.DeclineReason != nil {
		reason = *x.DeclineReason
	}
	return map[string]string{
		"id": x.ID, "date": x.DateTime, "sign": x.Sign, "merchant": x.MerchantNameLocation,
		"mcc": x.MCC, "category": x.MCCCategory, "amount": string(x.TransactionAmount),
		"currency": x.TransactionCurrency, "billing_amount": string(x.BillingAmount),
		"billing_currency": x.BillingCurrency, "status": x.Status, "decline_reason": reason,
	}, true
}
