package sandbox

import (
	"encoding/json"
	"testing"
)

// The alternate transaction shape splits the merchant (a numeric category
// code beside the category's name) and sends the money in the shapes
// gateways use, every one on the first page: per currency with a direction
// (as public clients of this gateway show it), a flat signed number beside
// a currency, amountIn…Currency members, minor units with an exponent and
// a sign, and a nested value. The alternate external wallet carries a date
// and a flag named like the balance and the allowance (balanceAsOf,
// allowanceGranted) beside its funds.
func TestAltShapesTransactionAndExternalWalletShapes(t *testing.T) {
	e := newEnv(t, Options{AltShapes: true})
	tok, _ := e.login("alice@demo.test")
	r := e.do("GET", "/v1/card/transactions", bearer(tok), nil)
	want(t, r, 200, "")
	var page []map[string]json.RawMessage
	if err := json.Unmarshal(r.Raw, &page); err != nil || len(page) == 0 {
		t.Fatalf("transactions: %v\n%s", err, r.Raw)
	}
	shapes := map[int]int{}
	credits := 0
	for i, x := range page {
		var merchant struct {
			CategoryCode int    `json:"categoryCode"`
			CategoryName string `json:"categoryName"`
		}
		if json.Unmarshal(x["merchant"], &merchant) != nil || merchant.CategoryCode == 0 || merchant.CategoryName == "" {
			t.Fatalf("transaction %d's merchant has no category code and name: %s", i, x["merchant"])
		}
		var id string
		_ = json.Unmarshal(x["transactionId"], &id)
		shape := altMoneyShapeOf(id)
		shapes[shape]++
		var direction string
		_ = json.Unmarshal(x["direction"], &direction)
		if direction == "in" {
			credits++
		}
		ok := false
		switch shape {
		case altPerCurrencyMoney:
			var amount map[string]string
			ok = json.Unmarshal(x["amount"], &amount) == nil && len(amount) == 1 && direction != ""
			for currency, v := range amount {
				ok = ok && len(currency) == 3 && v != "" && v[0] != '-'
			}
		case altFlatSignedMoney:
			var amount json.Number
			ok = json.Unmarshal(x["amount"], &amount) == nil && x["amount"][0] != '"' && x["currency"] != nil && x["direction"] == nil
		case altInCurrencyMoney:
			ok = x["amountInTransactionCurrency"] != nil && x["transactionCurrency"] != nil && x["amountInBillingCurrency"] != nil
		case altMinorUnitsMoney:
			var amount altMinor
			ok = json.Unmarshal(x["amount"], &amount) == nil && amount.MinorUnits > 0 && amount.Exponent == 2 && x["sign"] != nil
		case altNestedMoney:
			var amount altMoney
			ok = json.Unmarshal(x["amount"], &amount) == nil && amount.Value != "" && amount.Currency != ""
		}
		if !ok {
			t.Fatalf("transaction %d is not in its money shape %d: %v", i, shape, x)
		}
	}
	if len(shapes) != altMoneyShapes {
		t.Fatalf("the first page holds money shapes %v, want all %d", shapes, altMoneyShapes)
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
