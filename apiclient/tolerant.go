package apiclient

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"sync"
)

// decodeWithExtra decodes the JSON object data into the struct v points to,
// field by field, and keeps in *extra every member that has no typed field
// or whose value does not fit its field's type (the field then stays zero).
// Nothing the gateway sends makes decoding fail, except a body that is not
// a JSON object at all.
//
// It decodes member by member, never the whole struct, so an UnmarshalJSON
// method may pass its own receiver. Member names match fields as encoding/json does: by json tag or field
// name, exactly first, then case-insensitively.
func decodeWithExtra(data []byte, v any, extra *Extra) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return err
	}
	rv := reflect.ValueOf(v).Elem()
	idx := fieldsOf(rv.Type())
	var ex Extra
	for k, raw := range obj {
		if path, ok := idx.lookup(k); ok {
			f := rv.FieldByIndex(path)
			if json.Unmarshal(raw, f.Addr().Interface()) == nil {
				continue
			}
			f.SetZero()
		}
		if ex == nil {
			ex = Extra{}
		}
		ex[k] = raw
	}
	*extra = ex
	return nil
}

// encodeWithExtra marshals v (a "plain" struct, see decodeWithExtra) and
// appends the extra members that no typed field already wrote, so output
// such as --json shows everything the gateway sent.
func encodeWithExtra(v any, extra Extra) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil || len(extra) == 0 {
		return b, err
	}
	idx := fieldsOf(reflect.TypeOf(v))
	keys := make([]string, 0, len(extra))
	for k := range extra {
		if _, typed := idx.lookup(k); !typed {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	b = bytes.TrimRight(b, " \n")
	if len(b) == 0 || b[len(b)-1] != '}' {
		return b, nil
	}
	b = b[:len(b)-1]
	empty := len(bytes.TrimSpace(b)) == 1 // just "{"
	for _, k := range keys {
		raw := extra[k]
		if !json.Valid(raw) {
			continue
		}
		name, _ := json.Marshal(k)
		if !empty {
			b = append(b, ',')
		}
		empty = false
		b = append(b, name...)
		b = append(b, ':')
		b = append(b, raw...)
	}
	return append(b, '}'), nil
}

// fieldIndex maps JSON member names to struct field index paths.
type fieldIndex struct {
	exact map[string][]int
	fold  map[string][]int
}

func (fi fieldIndex) lookup(name string) ([]int, bool) {
	if p, ok := fi.exact[name]; ok {
		return p, true
	}
	p, ok := fi.fold[strings.ToLower(name)]
	return p, ok
}

var fieldCache sync.Map // reflect.Type -> fieldIndex

// fieldsOf lists the JSON-visible fields of struct type t, including those
// promoted from embedded structs (shallower ones win, as in encoding/json).
func fieldsOf(t reflect.Type) fieldIndex {
	if c, ok := fieldCache.Load(t); ok {
		return c.(fieldIndex)
	}
	fi := fieldIndex{exact: map[string][]int{}, fold: map[string][]int{}}
	var walk func(t reflect.Type, prefix []int)
	walk = func(t reflect.Type, prefix []int) {
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			path := append(append([]int(nil), prefix...), i)
			if sf.Anonymous && name == "" {
				ft := sf.Type
				if ft.Kind() == reflect.Struct {
					walk(ft, path)
				}
				continue
			}
			if !sf.IsExported() {
				continue
			}
			if name == "" {
				name = sf.Name
			}
			if old, ok := fi.exact[name]; !ok || len(old) > len(path) {
				fi.exact[name] = path
			}
			low := strings.ToLower(name)
			if old, ok := fi.fold[low]; !ok || len(old) > len(path) {
				fi.fold[low] = path
			}
		}
	}
	if t.Kind() == reflect.Struct {
		walk(t, nil)
	}
	fieldCache.Store(t, fi)
	return fi
}

// UnmarshalJSON reads a user tolerantly: unknown members land in Extra and a
// member of an unexpected type never fails the whole profile.
func (u *User) UnmarshalJSON(data []byte) error {
	return decodeWithExtra(data, u, &u.Extra)
}

// MarshalJSON writes the typed fields and then Extra, so scripted output
// (--json) loses nothing the gateway sent.
func (u User) MarshalJSON() ([]byte, error) {
	type plain User
	return encodeWithExtra(plain(u), u.Extra)
}

// UnmarshalJSON reads a card tolerantly; see User.UnmarshalJSON.
func (c *Card) UnmarshalJSON(data []byte) error {
	return decodeWithExtra(data, c, &c.Extra)
}

// MarshalJSON writes the typed fields and then Extra; see User.MarshalJSON.
func (c Card) MarshalJSON() ([]byte, error) {
	type plain Card
	return encodeWithExtra(plain(c), c.Extra)
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
