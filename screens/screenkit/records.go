package screenkit

import (
	"slices"
	"strings"

	"cardterm/apiclient"
	"cardterm/domain/ledger"
)

// Gateways may answer the records the interface does not show in their
// own shapes. The helpers here let a screen draw whatever arrived: a
// table column keeps its typed field while the gateway sends it and
// otherwise takes one of the records' own fields, and a detail pane lists
// every field the gateway sent. No screen shows a row of blanks.

// RecordColumn is one column of a table of gateway records.
type RecordColumn struct {
	// Known are the wire names the client reads the column from; when no
	// record carries any of them the column falls back to the records'
	// own fields. A column without names is the screen's own (computed)
	// and never falls back.
	Known []string
	// Hints are words (lower case) a fallback field's name should contain
	// to suit the column ("date", "merchant"); among the fields that match
	// the most frequent wins, and without a match the most frequent field
	// no other column shows.
	Hints []string
	// Kind is what a stand-in's values must be: an amount column never
	// takes a date or a flag because its name starts like "balance".
	Kind ValueKind
}

// ValueKind is what a column's values are, for choosing a stand-in.
type ValueKind int

const (
	// AnyValue takes any field.
	AnyValue ValueKind = iota
	// AmountValue takes a field whose every value is a decimal number.
	AmountValue
	// DateValue takes a field whose every value is a timestamp.
	DateValue
)

// fits reports whether value may stand in a column of kind.
func (k ValueKind) fits(value string) bool {
	switch k {
	case AmountValue:
		_, err := apiclient.CompareDecimal(strings.TrimPrefix(strings.TrimPrefix(value, "-"), "+"), "0")
		return err == nil
	case DateValue:
		_, ok := ledger.ParseTime(value)
		return ok
	}
	return true
}

// RecordShape says, for one list of records, where each column's cells
// come from. Build it when the records arrive (NewRecordShape), read
// cells through Fallback in the table's accessor.
type RecordShape struct {
	fields   [][]apiclient.RawField // per record, only when a column falls back
	fallback []string               // per column: "" = the typed field, else a field path
	// currency is, per column, the path of the currency a fallback amount
	// is shown with ("amount.currency" beside "amount.value") when no
	// column shows it, else "".
	currency []string
}

// NewRecordShape decides each column's source for the records raws.
func NewRecordShape(raws []apiclient.RawJSON, cols []RecordColumn) RecordShape {
	shape := RecordShape{fallback: make([]string, len(cols)), currency: make([]string, len(cols))}
	if len(raws) == 0 {
		return shape
	}
	fields := make([][]apiclient.RawField, len(raws))
	count := map[string]int{}
	var order []string // paths in the order first seen
	values := map[string][]string{}
	for i, raw := range raws {
		fields[i] = raw.Fields()
		for _, f := range fields[i] {
			if _, seen := count[f.Path]; !seen {
				order = append(order, f.Path)
				count[f.Path] = 0
			}
			if strings.TrimSpace(f.Value) != "" && f.Value != "null" {
				count[f.Path]++
				if len(values[f.Path]) < kindSample {
					values[f.Path] = append(values[f.Path], f.Value)
				}
			}
		}
	}
	used := map[string]bool{}
	var missing []int
	for c, col := range cols {
		if len(col.Known) == 0 {
			continue
		}
		present := false
		for _, name := range col.Known {
			for path := range count {
				if memberOf(path, name) {
					present = true
					used[path] = true
				}
			}
		}
		if !present {
			missing = append(missing, c)
		}
	}
	if len(missing) == 0 {
		return shape
	}
	for _, c := range missing {
		fits := func(path string) bool {
			return !slices.ContainsFunc(values[path], func(v string) bool { return !cols[c].Kind.fits(v) })
		}
		if path := pickField(order, count, used, cols[c].Hints, fits); path != "" {
			shape.fallback[c] = path
			used[path] = true
		}
	}
	for c, path := range shape.fallback {
		if sib := siblingCurrency(path); sib != "" && count[sib] > 0 && !slices.Contains(shape.fallback, sib) {
			shape.currency[c] = sib
		}
	}
	shape.fields = fields
	return shape
}

// kindSample bounds the values of a field checked against a column's kind:
// the first records tell a date from an amount.
const kindSample = 16

// memberOf reports whether path is the member name or lies under it.
func memberOf(path, name string) bool {
	return strings.EqualFold(path, name) || (len(path) > len(name) && path[len(name)] == '.' && strings.EqualFold(path[:len(name)], name))
}

// pickField chooses a fallback: the most frequent unused field whose name
// contains a hint, else the most frequent unused field; ties go to the
// gateway's order. Fields never filled are not chosen.
func pickField(order []string, count map[string]int, used map[string]bool, hints []string, fits func(string) bool) string {
	best, bestScore := "", -1
	wantsID := slices.Contains(hints, "id")
	for _, path := range order {
		if used[path] || count[path] == 0 || (isIDPath(path) && !wantsID) || !fits(path) {
			continue
		}
		score := count[path]
		low := strings.ToLower(path)
		if slices.ContainsFunc(hints, func(h string) bool { return strings.Contains(low, h) }) {
			score += 1 << 30
		}
		if score > bestScore {
			best, bestScore = path, score
		}
	}
	return best
}

// isIDPath reports an identifier ("id", "walletId", "deposit.address_id"):
// never a stand-in for a balance, an address or a date.
func isIDPath(path string) bool {
	_, leaf, _ := ledger.CutLast(path)
	return strings.EqualFold(leaf, "id") || strings.HasSuffix(leaf, "Id") || strings.HasSuffix(leaf, "ID") || strings.HasSuffix(leaf, "_id")
}

// Fallback returns the cell of row in column col when that column reads
// the records' own fields (ok true), or ok false when it reads the typed
// field. A record without the chosen field gives "".
func (s RecordShape) Fallback(row, col int) (string, bool) {
	if col >= len(s.fallback) || s.fallback[col] == "" {
		return "", false
	}
	if row >= len(s.fields) {
		return "", true
	}
	path := s.fallback[col]
	value, currency := "", ""
	for _, f := range s.fields[row] {
		switch {
		case f.Path == path:
			value = f.Value
		case s.currency[col] != "" && f.Path == s.currency[col]:
			currency = f.Value
		}
	}
	if value != "" && currency != "" {
		return value + " " + currency, true
	}
	return value, true
}

// siblingCurrency is the path of the currency beside a nested amount
// ("amount.value" → "amount.currency"), "" for any other path: an amount
// is shown with its currency.
func siblingCurrency(path string) string {
	parent, leaf, ok := ledger.CutLast(path)
	if !ok || (leaf != "value" && leaf != "amount" && leaf != "available") {
		return ""
	}
	return parent + ".currency"
}

// FallbackPath is the field a column reads instead of its typed one; ""
// while it reads the typed field.
func (s RecordShape) FallbackPath(col int) string {
	if col >= len(s.fallback) {
		return ""
	}
	return s.fallback[col]
}

// Value is the cell of row in column col: the typed value given, or the
// record's own field when the column falls back.
func (s RecordShape) Value(row, col int, typed string) string {
	if v, ok := s.Fallback(row, col); ok {
		return v
	}
	return typed
}

// FallbackTitle is the column title to show: the typed title while the
// column reads the typed field, else the label of the field it reads
// (so a column never claims to show what it does not).
func (s RecordShape) FallbackTitle(col int, title string) string {
	if col >= len(s.fallback) || s.fallback[col] == "" {
		return title
	}
	return Label(s.fallback[col])
}

// KnownField is a detail line the client reads from a typed field, with
// the wire names it comes from.
type KnownField struct {
	Field
	Names []string
}

// DetailFields lists a record's detail lines: each known field whose wire
// name the gateway sent (PresentFields), then every other field it sent
// (OtherFields). Values are sanitized when drawn.
func DetailFields(raw apiclient.RawJSON, known []KnownField) []Field {
	return append(PresentFields(raw, known), OtherFields(raw, known)...)
}

// PresentFields keeps the known fields whose wire name the gateway sent
// (all of them when the record has no raw text, or a field names none).
func PresentFields(raw apiclient.RawJSON, known []KnownField) []Field {
	return PresentFieldsIn(raw, raw.Fields(), known)
}

// PresentFieldsIn is PresentFields over sent, the record's fields already
// read (raw.Fields()): a pane that lists the same record's fields several
// ways reads them once.
func PresentFieldsIn(raw apiclient.RawJSON, sent []apiclient.RawField, known []KnownField) []Field {
	out := make([]Field, 0, len(known))
	for _, k := range known {
		if raw == "" || len(k.Names) == 0 || slices.ContainsFunc(sent, func(f apiclient.RawField) bool {
			return slices.ContainsFunc(k.Names, func(n string) bool { return memberOf(f.Path, n) })
		}) {
			out = append(out, k.Field)
		}
	}
	return out
}

// OtherFields lists every field the gateway sent that no known field
// reads, in the gateway's order, nested ones as "Merchant name", labelled
// with Label.
func OtherFields(raw apiclient.RawJSON, known []KnownField) []Field {
	return OtherFieldsIn(raw.Fields(), known)
}

// OtherFieldsIn is OtherFields over the record's fields already read.
func OtherFieldsIn(sent []apiclient.RawField, known []KnownField) []Field {
	var out []Field
	var paths []string
	for _, f := range sent {
		if slices.ContainsFunc(known, func(k KnownField) bool {
			return slices.ContainsFunc(k.Names, func(n string) bool { return memberOf(f.Path, n) })
		}) {
			continue
		}
		out = append(out, Field{Value: SentValue(f.Value)})
		paths = append(paths, f.Path)
	}
	for i, label := range Labels(paths) {
		out[i].Label = label
	}
	return out
}

// SentFields lists every field of a record the gateway sent, labelled, in
// its order: the detail of a record the client has no typed view of.
func SentFields(raw apiclient.RawJSON) []Field {
	return DetailFields(raw, nil)
}

// SentValue is a value of a record's own field as a detail shows it:
// timestamps read as every date in the app, a JSON null as words ("Paid
// at null" read as though null were the date), other text as sent.
func SentValue(value string) string {
	if value == "null" {
		return "not given"
	}
	return FormatTime(value)
}
