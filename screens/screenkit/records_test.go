package screenkit

import (
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/domain/ledger"
)

// A column keeps its typed field while any record carries one of its names,
// and otherwise reads the records' own field: a hinted one first, never an
// id unless asked, an amount with its currency; a column without names is
// the screen's own.
func TestRecordShapeFallsBackByHintAndFrequency(t *testing.T) {
	raws := []apiclient.RawJSON{
		`{"txId":"t1","createdAt":"2026-11-20T18:00:00Z","merchant":{"name":"Zara","city":"Madrid"},"amount":{"value":"5.00","currency":"EUR"},"status":"ok"}`,
		`{"txId":"t2","createdAt":"2026-11-19T18:00:00Z","merchant":{"name":"Lidl","city":"Berlin"},"amount":{"value":"7.10","currency":"EUR"},"status":"ok"}`,
		`{"txId":"t3","merchant":{"name":"Migros"},"amount":{"value":"1.00","currency":"CHF"},"status":"ok"}`,
	}
	cols := []RecordColumn{
		{Known: []string{"dateTime"}, Hints: []string{"date", "created"}},
		{Known: []string{"merchantNameLocation"}, Hints: []string{"merchant"}},
		{Known: []string{"transactionAmount"}, Hints: []string{"amount"}},
		{Known: []string{"status"}, Hints: []string{"status"}},
		{}, // computed by the screen
		{Known: []string{"reference"}},
	}
	shape := NewRecordShape(raws, cols)
	checks := []struct {
		row, col int
		want     string
		ok       bool
	}{
		{0, 0, "2026-11-20T18:00:00Z", true},
		{2, 0, "", true}, // the record lacks the field: blank, not another's
		{1, 1, "Lidl", true},
		{2, 2, "1.00", true}, // its currency has a column of its own (5)
		{0, 3, "", false},    // status is sent: the typed field
		{0, 4, "", false},
		{0, 5, "EUR", true}, // no hint: the most filled unused field, never txId
	}
	for _, c := range checks {
		got, ok := shape.Fallback(c.row, c.col)
		if got != c.want || ok != c.ok {
			t.Errorf("row %d col %d: %q %v, want %q %v", c.row, c.col, got, ok, c.want, c.ok)
		}
	}
	if title := shape.FallbackTitle(1, "Merchant"); title != "Merchant name" {
		t.Errorf("title %q", title)
	}
	if title := shape.FallbackTitle(3, "Status"); title != "Status" {
		t.Errorf("typed column retitled: %q", title)
	}
	// Without a column for it, the currency is shown beside the amount.
	if got, _ := NewRecordShape(raws, cols[:5]).Fallback(2, 2); got != "1.00 CHF" {
		t.Errorf("amount without its currency: %q", got)
	}
	if id := ledger.RecordID(raws[0]); id != "t1" {
		t.Errorf("RecordID %q", id)
	}
}

// A detail lists the known fields the gateway sent, then every other field
// in its order, labelled, dates in the app's format.
func TestDetailFieldsListEverythingSent(t *testing.T) {
	old := time.Local
	time.Local = time.UTC
	defer func() { time.Local = old }()
	raw := apiclient.RawJSON(`{"id":"x1","occurredAt":"2026-11-20T18:00:00Z","funds":{"available":"3.00"},"note":null}`)
	got := DetailFields(raw, []KnownField{
		{Field: Field{Label: "Id", Value: "x1"}, Names: []string{"id"}},
		{Field: Field{Label: "Balance", Value: ""}, Names: []string{"balance"}},
	})
	want := []Field{{Label: "Id", Value: "x1"}, {Label: "Occurred at", Value: "2026-11-20 18:00 UTC"},
		{Label: "Funds available", Value: "3.00"}, {Label: "Note", Value: "not given"}}
	if len(got) != len(want) {
		t.Fatalf("fields %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("field %d: %+v, want %+v", i, got[i], want[i])
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

// A member the gateway sent as null reads "not given", never "null".
func TestOtherFieldsSayNullAsNotGiven(t *testing.T) {
	fields := OtherFields(`{"orderId":"o1","paidAt":null,"status":"PENDING"}`, nil)
	for _, f := range fields {
		if f.Value == "null" {
			t.Fatalf("%s reads null", f.Label)
		}
		if f.Label == "Paid at" && f.Value != "not given" {
			t.Fatalf("Paid at reads %q", f.Value)
		}
	}
	if len(fields) != 3 {
		t.Fatalf("fields %+v", fields)
	}
}
