package apiclient

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestRawFieldsFlattenNestedObjectsInOrder(t *testing.T) {
	raw := RawJSON(`{"id":"t1","merchant":{"name":"Caf\u00e9 Nord","geo":{"city":"Oslo"}},"amount":{"value":12.5,"currency":"EUR"},"tags":["a","b"],"lines":[{"x":1}],"paid":true,"note":null,"empty":{}}`)
	got := raw.Fields()
	want := []RawField{
		{"id", "t1"},
		{"merchant.name", "Café Nord"},
		{"merchant.geo.city", "Oslo"},
		{"amount.value", "12.5"},
		{"amount.currency", "EUR"},
		{"tags", "a, b"},
		{"lines", `[{"x":1}]`},
		{"paid", "true"},
		{"note", "null"},
		{"empty", "{}"},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Fields:\n got %q\nwant %q", got, want)
	}
	if v, ok := raw.Field("merchant.geo.city"); !ok || v != "Oslo" {
		t.Fatalf("Field = %q, %v", v, ok)
	}
	if _, ok := raw.Field("merchant"); ok {
		t.Fatal("an object is not a leaf")
	}
}

func TestRawFieldsOfANonObjectAreNone(t *testing.T) {
	for _, s := range []string{`[]`, `"x"`, `12`, ``, `{"a":`} {
		if f := RawJSON(s).Fields(); len(f) != 0 {
			t.Errorf("%q: %v", s, f)
		}
	}
}

// Every tolerant record keeps the exact text the gateway sent.
func TestRecordsKeepTheirRawText(t *testing.T) {
	body := `{"id":"x","merchant":{"name":"M"},"unknown":[1,2]}`
	var tx Transaction
	if err := json.Unmarshal([]byte(body), &tx); err != nil {
		t.Fatal(err)
	}
	if string(tx.Raw) != body {
		t.Fatalf("Raw = %s", tx.Raw)
	}
	var list []ExternalWallet
	if err := json.Unmarshal([]byte(`[{"addr":"0x1","funds":{"available":"3"}}]`), &list); err != nil {
		t.Fatal(err)
	}
	if v, _ := list[0].Raw.Field("funds.available"); v != "3" {
		t.Fatalf("funds.available = %q", v)
	}
}
