package ledger

import (
	"testing"

	"cardterm/apiclient"
)

// Each shape a gateway may send a transaction's money in reads as one
// unsigned amount, a currency and a sign.
func TestAdoptTransactionShapeReadsEveryShape(t *testing.T) {
	type want struct{ amount, currency, sign, billed, status string }
	for raw, w := range map[string]want{
		`{"transactionAmount":"53.63","transactionCurrency":"EUR","sign":"DEBIT","status":"CONFIRMED"}`:                                               {"53.63", "EUR", "DEBIT", "", "CONFIRMED"},
		`{"amount":{"value":"53.63","currency":"EUR"},"direction":"out"}`:                                                                             {"53.63", "EUR", "DEBIT", "", ""},
		`{"amount":{"EUR":"5.00"},"settlement":{"EUR":"5.00"},"direction":"in","state":"settled"}`:                                                    {"5.00", "EUR", "CREDIT", "5.00", "CONFIRMED"},
		`{"amount":-12.40,"currency":"GBP","state":"declined"}`:                                                                                       {"12.40", "GBP", "DEBIT", "", "DECLINED"},
		`{"amount":"12.40","currency":"GBP"}`:                                                                                                         {"12.40", "GBP", "", "", ""},
		`{"amountInTransactionCurrency":"8.10","transactionCurrency":"CHF","amountInBillingCurrency":"8.59","billingCurrency":"EUR","sign":"CREDIT"}`: {"8.10", "CHF", "CREDIT", "8.59", ""},
		`{"amount":{"minorUnits":5363,"exponent":2,"currency":"EUR"},"sign":"debit","state":"reversed"}`:                                              {"53.63", "EUR", "DEBIT", "", "REVERTED"},
		`{"billingAmount":"-3.10","billingCurrency":"EUR"}`:                                                                                           {"", "", "DEBIT", "3.10", ""},
		`{"merchant":"no money here","status":"PENDING"}`:                                                                                             {"", "", "", "", "PENDING"},
	} {
		var x apiclient.Transaction
		x.Raw = apiclient.RawJSON(raw)
		AdoptTransactionShape(&x)
		got := want{string(x.TransactionAmount), x.TransactionCurrency, x.Sign, string(x.BillingAmount), x.Status}
		if got != w {
			t.Errorf("%s:\n got %+v\nwant %+v", raw, got, w)
		}
	}
}

// A transaction built in code (no raw text) keeps its typed amounts, a
// minus sign taken as the sign.
func TestAdoptTransactionShapeOfTypedFields(t *testing.T) {
	x := apiclient.Transaction{TransactionAmount: "-1.50", TransactionCurrency: "EUR"}
	AdoptTransactionShape(&x)
	if x.TransactionAmount != "1.50" || x.Sign != apiclient.TxDebit {
		t.Fatalf("%+v", x)
	}
}
