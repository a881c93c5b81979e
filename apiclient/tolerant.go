package apiclient

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Every tolerant record (a struct type with a member `Extra Extra` tagged
// `json:"-"`) gets its UnmarshalJSON (decodeWithExtra) from tolerantgen, in
// tolerant_methods_gen.go; a type may write it by hand instead
// (LinkedWallet's). Records are only read, never encoded back. Run
// `go generate ./apiclient` after adding or removing a record type.
//
//go:generate go run ./internal/tolerantgen

// RawJSON is the exact JSON text of one record as the gateway sent it. A
// record keeps it once; its string fields are substrings of it, so holding
// the raw record costs no second copy. Screens show it with Indent and list
// it with Fields; Extra is derived from it.
type RawJSON string

// Bytes returns a copy of the raw text.
func (r RawJSON) Bytes() []byte { return []byte(r) }

// Indent returns the raw record pretty-printed with two-space indentation.
func (r RawJSON) Indent() ([]byte, error) {
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(r), "", "  "); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// decodeWithExtra decodes the JSON object data into the struct v points to,
// in one pass over its members, and keeps in *extra every member that has
// no typed field or whose value does not fit its field's type (the field
// then stays zero). A RawJSON field of the struct receives the record's
// text. Nothing the gateway sends makes decoding fail, except a body that
// is not a JSON object at all.
//
// It sets fields member by member, never decoding the whole struct, so an
// UnmarshalJSON method may pass its own receiver. Member names match fields
// as encoding/json does: by json tag or field name, exactly first, then
// case-insensitively.
func decodeWithExtra(data []byte, v any, extra *Extra) error {
	return decodeRecord(string(data), v, extra)
}

// decodeRecord is decodeWithExtra on the record's text, which the record
// keeps: string fields without escapes share its memory.
func decodeRecord(raw string, v any, extra *Extra) error {
	rv := reflect.ValueOf(v).Elem()
	idx := fieldsOf(rv.Type())
	var ex Extra
	member := 0
	err := eachMember(raw, func(key, value string) {
		f, ok := idx.guess(member, key)
		member++
		if ok && setField(rv.FieldByIndex(f.index), f.kind, value) {
			return
		}
		if ex == nil {
			ex = Extra{}
		}
		ex[key] = json.RawMessage(value)
	})
	if err != nil {
		return err
	}
	if idx.raw != nil {
		rv.FieldByIndex(idx.raw).SetString(raw)
	}
	*extra = ex
	return nil
}

// fieldKind is how a member's text is put into a field; the common kinds
// are set without encoding/json.
type fieldKind uint8

const (
	kindOther     fieldKind = iota // through encoding/json
	kindString                     // a plain string
	kindStringPtr                  // *string, nil for null
	kindDecimal                    // Decimal: a string or a number's text
	kindBool
	kindInt
)

var (
	decimalType   = reflect.TypeFor[Decimal]()
	rawJSONType   = reflect.TypeFor[RawJSON]()
	unmarshalType = reflect.TypeFor[json.Unmarshaler]()
)

func kindOf(t reflect.Type) fieldKind {
	switch {
	case t == decimalType:
		return kindDecimal
	case reflect.PointerTo(t).Implements(unmarshalType) || t.Implements(unmarshalType):
		return kindOther
	case t.Kind() == reflect.String:
		return kindString
	case t == reflect.TypeFor[*string]():
		return kindStringPtr
	case t.Kind() == reflect.Bool:
		return kindBool
	case t.Kind() == reflect.Int || t.Kind() == reflect.Int64 || t.Kind() == reflect.Int32:
		return kindInt
	}
	return kindOther
}

// setField puts the member text value into f; false when it does not fit
// (f is then zero). null leaves f as it is, as encoding/json does, except
// that a pointer becomes nil.
func setField(f reflect.Value, kind fieldKind, value string) bool {
	if value == "null" {
		if kind == kindStringPtr || kind == kindDecimal {
			f.SetZero()
			return true
		}
		if kind != kindOther {
			return true
		}
	}
	switch kind {
	case kindString:
		if isJSONString(value) {
			f.SetString(unquote(value))
			return true
		}
	case kindStringPtr:
		if isJSONString(value) {
			s := unquote(value)
			f.Set(reflect.ValueOf(&s).Convert(f.Type()))
			return true
		}
	case kindDecimal:
		// Decimal reads a string or a number; anything else reads as "".
		switch {
		case isJSONString(value):
			f.SetString(unquote(value))
		case isJSONNumber(value):
			f.SetString(value)
		default:
			f.SetZero()
		}
		return true
	case kindBool:
		if value == "true" || value == "false" {
			f.SetBool(value == "true")
			return true
		}
	case kindInt:
		if n, err := strconv.ParseInt(value, 10, 64); err == nil && !f.OverflowInt(n) {
			f.SetInt(n)
			return true
		}
	default:
		if json.Unmarshal([]byte(value), f.Addr().Interface()) == nil {
			return true
		}
	}
	f.SetZero()
	return false
}

// recordField is one JSON-visible field of a record type.
type recordField struct {
	name  string
	index []int
	kind  fieldKind
}

// fieldIndex maps JSON member names to the fields of a record type.
type fieldIndex struct {
	exact  map[string]recordField
	fields []recordField // for the case-insensitive match
	// declared is the fields in the order the type declares them, which
	// is the order gateways usually send the members in: the n-th member
	// is first compared with the n-th field.
	declared []recordField
	// raw is the index of the RawJSON field that keeps the record's text;
	// nil when the type has none.
	raw []int
}

// guess finds the field of the n-th member of a record: the n-th declared
// field when its name is the member's, else by lookup.
func (fi fieldIndex) guess(n int, name string) (recordField, bool) {
	if n < len(fi.declared) && fi.declared[n].name == name {
		return fi.declared[n], true
	}
	return fi.lookup(name)
}

// lookup finds the field of a member name: exactly, then ignoring case,
// without allocating.
func (fi fieldIndex) lookup(name string) (recordField, bool) {
	if f, ok := fi.exact[name]; ok {
		return f, true
	}
	for _, f := range fi.fields {
		if strings.EqualFold(f.name, name) {
			return f, true
		}
	}
	return recordField{}, false
}

var fieldCache sync.Map // reflect.Type -> fieldIndex

// fieldsOf lists the JSON-visible fields of struct type t, including those
// promoted from embedded structs (shallower ones win, as in encoding/json).
func fieldsOf(t reflect.Type) fieldIndex {
	if c, ok := fieldCache.Load(t); ok {
		return c.(fieldIndex)
	}
	fi := fieldIndex{exact: map[string]recordField{}}
	var order []string // names in declaration order
	var walk func(t reflect.Type, prefix []int)
	walk = func(t reflect.Type, prefix []int) {
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			path := append(append([]int(nil), prefix...), i)
			if sf.Type == rawJSONType && sf.IsExported() && fi.raw == nil {
				fi.raw = path
			}
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			if sf.Anonymous && name == "" {
				if sf.Type.Kind() == reflect.Struct {
					walk(sf.Type, path)
				}
				continue
			}
			if !sf.IsExported() {
				continue
			}
			if name == "" {
				name = sf.Name
			}
			if old, ok := fi.exact[name]; !ok || len(old.index) > len(path) {
				fi.exact[name] = recordField{name: name, index: path, kind: kindOf(sf.Type)}
			}
			order = append(order, name)
		}
	}
	if t.Kind() == reflect.Struct {
		walk(t, nil)
	}
	for _, f := range fi.exact {
		fi.fields = append(fi.fields, f)
	}
	for _, name := range order {
		if f := fi.exact[name]; !slices.ContainsFunc(fi.declared, func(d recordField) bool { return d.name == name }) {
			fi.declared = append(fi.declared, f)
		}
	}
	// Shallower fields first, then by name: the fold match is deterministic.
	sort.Slice(fi.fields, func(i, j int) bool {
		a, b := fi.fields[i], fi.fields[j]
		if len(a.index) != len(b.index) {
			return len(a.index) < len(b.index)
		}
		return a.name < b.name
	})
	fieldCache.Store(t, fi)
	return fi
}

// flexSeconds reads a count of seconds sent as a JSON number or a numeric
// string; anything else reads as 0 (unknown) rather than failing.
type flexSeconds int64

func (f *flexSeconds) UnmarshalJSON(data []byte) error {
	var n json.Number
	if json.Unmarshal(data, &n) != nil {
		var s string
		if json.Unmarshal(data, &s) != nil {
			*f = 0
			return nil
		}
		n = json.Number(strings.TrimSpace(s))
	}
	if v, err := n.Int64(); err == nil {
		*f = flexSeconds(v)
	} else if fv, err := n.Float64(); err == nil {
		*f = flexSeconds(fv)
	} else {
		*f = 0
	}
	return nil
}
