package sandbox

import (
	"encoding/json"
	"testing"
)

// The alternate transaction shape is the one public clients of this
// gateway show: the direction in its own field, amounts given per currency
// and a numeric merchant category code beside the category's name. The
// alternate external wallet carries a date and a flag named like the
// balance and the allowance (balanceAsOf, allowanceGranted) beside its
// funds.
func TestAltShapesTransactionAndExternalWalletShapes(t *testing.T) {
	e := newEnv(t, Options{AltShapes: true})
	tok, _ := e.login("alice@demo.test")
	r := e.do("GET", "/v1/card/transactions", bearer(tok), nil)
	want(t, r, 200, "")
	var page []struct {
		Direction string                     `json:"direction"`
		Amount    map[string]json.RawMessage `json:"amount"`
		Merchant  struct {
			CategoryCode json.RawMessage `json:"categoryCode"`
			CategoryName string          `json:"categoryName"`
		} `json:"merchant"`
	}
	if err := json.Unmarshal(r.Raw, &page); err != nil || len(page) == 0 {
		t.Fatalf("transactions: %v\n%s", err, r.Raw)
	}
	credits := 0
	for i, x := range page {
		if x.Direction == "in" {
			credits++
		}
		var code int
		if x.Direction != "in" && x.Direction != "out" || len(x.Amount) != 1 ||
			json.Unmarshal(x.Merchant.CategoryCode, &code) != nil || code == 0 || x.Merchant.CategoryName == "" {
			t.Fatalf("transaction %d is not in the public clients' shape: %+v", i, x)
		}
		for currency, amount := range x.Amount {
			var s string
			if len(currency) != 3 || json.Unmarshal(amount, &s) != nil || s == "" || s[0] == '-' {
				t.Fatalf("transaction %d's amount is not an unsigned amount per currency: %s", i, amount)
			}
		}
	}
	if credits == 0 {
		t.Fatal("no transaction goes in: the shape's direction is never tested both ways")
	}
	r = e.do("GET", "/v1/wallet/external", bearer(tok), nil)
	want(t, r, 200, "")
	var wallets []map[string]json.RawMessage
	if err := json.Unmarshal(r.Raw, &wallets); err != nil || len(wallets) == 0 {
		t.Fatalf("external wallets: %v\n%s", err, r.Raw)
	}
	for _, w := range wallets {
		if string(w["balanceAsOf"]) != `"`+altBalanceAsOf+`"` || (string(w["allowanceGranted"]) != "true" && string(w["allowanceGranted"]) != "false") || w["funds"] == nil {
			t.Fatalf("external wallet without its date, flag and funds: %s", r.Raw)
		}
	}
}
