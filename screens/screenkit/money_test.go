package screenkit

import (
	"testing"

	"cardterm/apiclient"
)

func TestMoneyAtReadsEveryShape(t *testing.T) {
	for raw, want := range map[apiclient.RawJSON]Money{
		`{"amount":{"value":"12.50","currency":"EUR"}}`: {"12.50", "EUR"},
		`{"amount":{"EUR":"53.63"}}`:                    {"53.63", "EUR"},
		`{"amounts":{"usdc":"7"}}`:                      {"7", "usdc"},
	} {
		got, ok := MoneyAt(raw.Fields(), "amount", "amounts")
		if !ok || got != want {
			t.Errorf("%s: %+v %v, want %+v", raw, got, ok, want)
		}
	}
	for _, raw := range []apiclient.RawJSON{`{"amount":{"EUR":"x"}}`, `{"amount":{"EUR":"1","USD":"2"}}`, `{"amount":{"value":"2025-01-15T10:30:00Z"}}`, `{"other":1}`} {
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

// A field named like the column but holding a date or a flag never stands
// in for an amount: the next field that holds amounts does.
func TestAmountColumnSkipsDatesAndFlags(t *testing.T) {
	raws := []apiclient.RawJSON{
		`{"balanceAsOf":"2025-01-15T10:30:00.000Z","balanceKnown":true,"funds":{"available":"3.5"}}`,
		`{"balanceAsOf":"2025-01-16T10:30:00.000Z","balanceKnown":false,"funds":{"available":"4"}}`,
	}
	shape := NewRecordShape(raws, []RecordColumn{{Known: []string{"balance"}, Hints: []string{"balance", "available"}, Kind: AmountValue}})
	if got := shape.FallbackPath(0); got != "funds.available" {
		t.Fatalf("the balance column reads %q", got)
	}
	shape = NewRecordShape(raws, []RecordColumn{{Known: []string{"date"}, Hints: []string{"balance"}, Kind: DateValue}})
	if got := shape.FallbackPath(0); got != "balanceAsOf" {
		t.Fatalf("the date column reads %q", got)
	}
}
