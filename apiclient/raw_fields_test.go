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

// Fields never fails on what a gateway may send, and of a JSON object it
// lists exactly as many leaves as a plain walk of the decoded value does
// (objects nested deeper than maxFieldDepth counted as one leaf).
func FuzzRawFields(f *testing.F) {
	for _, seed := range []string{`{}`, `{"a":1}`, `{"a":{"b":{"c":[1,{"d":2}]}},"e":"\u001b[2J"}`, `{"a":`, `[1]`, `{"a":{}}`, `{"":{"":""}}`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fields := RawJSON(s).Fields()
		var v map[string]any
		if json.Unmarshal([]byte(s), &v) != nil {
			return
		}
		if hasDuplicateKeys(s) {
			return // encoding/json keeps the last of duplicate keys; Fields lists both
		}
		if want := countLeaves(v, 0); len(fields) != want {
			t.Fatalf("%q: %d fields, want %d: %q", s, len(fields), want, fields)
		}
	})
}

func countLeaves(v map[string]any, depth int) int {
	n := 0
	for _, x := range v {
		if m, ok := x.(map[string]any); ok && len(m) > 0 && depth < maxFieldDepth {
			n += countLeaves(m, depth+1)
			continue
		}
		n++
	}
	return n
}

// hasDuplicateKeys reports whether an object, at any depth, repeats a key.
func hasDuplicateKeys(object string) bool {
	seen, dup := map[string]bool{}, false
	_ = eachMember(object, func(k, v string) {
		dup = dup || seen[k] || hasDuplicateKeys(v)
		seen[k] = true
	})
	return dup
}
