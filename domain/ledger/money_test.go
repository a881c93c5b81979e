package ledger

import (
	"testing"

	"cardterm/apiclient"
)

func TestMoneyAtReadsEveryShape(t *testing.T) {
	for raw, want := range map[apiclient.RawJSON]Money{
		`{"amount":{"value":"12.50","currency":"EUR"}}`:                           {Value: "12.50", Currency: "EUR"},
		`{"amount":{"amount":-12.5,"currencyCode":"EUR"}}`:                        {Value: "12.5", Currency: "EUR", Negative: true},
		`{"amount":{"EUR":"53.63"}}`:                                              {Value: "53.63", Currency: "EUR"},
		`{"amounts":{"usdc":"7"}}`:                                                {Value: "7", Currency: "usdc"},
		`{"amount":"53.63","currency":"EUR"}`:                                     {Value: "53.63", Currency: "EUR"},
		`{"amount":-53.63,"currency":"EUR"}`:                                      {Value: "53.63", Currency: "EUR", Negative: true},
		`{"amount":"+0.10","currency":"EUR"}`:                                     {Value: "0.10", Currency: "EUR"},
		`{"amountInTransactionCurrency":"8.10","transactionCurrency":"CHF"}`:      {Value: "8.10", Currency: "CHF"},
		`{"amountInTransactionCurrency":{"value":"8.10","currency":"CHF"}}`:       {Value: "8.10", Currency: "CHF"},
		`{"amountInBillingCurrency":7.5,"billingCurrency":"EUR"}`:                 {Value: "7.5", Currency: "EUR"},
		`{"transactionAmount":"1.00","transactionCurrency":"USD","currency":"X"}`: {Value: "1.00", Currency: "USD"},
		`{"amount":{"minorUnits":5363,"exponent":2,"currency":"EUR"}}`:            {Value: "53.63", Currency: "EUR"},
		`{"amount":{"minorUnits":"-7","exponent":3,"currency":"KWD"}}`:            {Value: "0.007", Currency: "KWD", Negative: true},
		`{"amount":{"minorUnits":1500,"currency":"JPY"}}`:                         {Value: "1500", Currency: "JPY"},
		`{"amountMinor":99,"currency":"EUR"}`:                                     {Value: "0.99", Currency: "EUR"},
		`{"amount":"-0.00","currency":"EUR"}`:                                     {Value: "0.00", Currency: "EUR"},
		`{"amount":"12"}`:                                                         {Value: "12"},
	} {
		names := append([]string{}, TransactionAmountNames...)
		names = append(names, TransactionBillingNames...)
		got, ok := MoneyAt(raw.Fields(), names...)
		if !ok || got != want {
			t.Errorf("%s: %+v %v, want %+v", raw, got, ok, want)
		}
	}
	for _, raw := range []apiclient.RawJSON{`{"amount":{"EUR":"x"}}`, `{"amount":{"EUR":"1","USD":"2"}}`,
		`{"amount":{"value":"2025-01-15T10:30:00Z"}}`, `{"other":1}`, `{"amount":null,"currency":"EUR"}`,
		`{"amount":"1e3","currency":"EUR"}`, `{"amount":true}`, `{"amount":"--1"}`, `{"amount":{"minorUnits":"1.5","exponent":2}}`,
		`{"amount":{"minorUnits":1,"exponent":"many"}}`} {
		if got, ok := MoneyAt(raw.Fields(), "amount"); ok {
			t.Errorf("%s: read %+v, want nothing", raw, got)
		}
	}
}

func TestSignOf(t *testing.T) {
	for raw, want := range map[apiclient.RawJSON]string{`{"direction":"out"}`: apiclient.TxDebit, `{"direction":"IN"}`: apiclient.TxCredit, `{"type":"CREDIT"}`: apiclient.TxCredit, `{"direction":"sideways"}`: ""} {
		if got, _ := SignOf(raw.Fields(), "direction", "type"); got != want {
			t.Errorf("%s: %q, want %q", raw, got, want)
		}
	}
}
