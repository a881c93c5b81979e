package apiclient

import (
	"strings"
)

// RawField is one leaf of a record as the gateway sent it: its path, with
// nested objects flattened as "merchant.name", and its value as text
// (strings unquoted, numbers, booleans and null as written, an array of
// scalars joined with ", ", an array of objects as its JSON text).
type RawField struct {
	Path  string
	Value string
}

// maxFieldDepth bounds the flattening of nested objects; deeper objects
// are shown as their JSON text.
const maxFieldDepth = 4

// Fields lists every leaf of the record in the order the gateway sent
// them. Screens draw from it where the interface does not show a record's
// fields, so a gateway answering in its own shapes still shows its data.
// A record that is not a JSON object has no fields.
func (r RawJSON) Fields() []RawField {
	var out []RawField
	flatten(string(r), "", 0, &out)
	return out
}

// Field returns the value of the leaf at path ("" and false when absent).
func (r RawJSON) Field(path string) (string, bool) {
	for _, f := range r.Fields() {
		if f.Path == path {
			return f.Value, true
		}
	}
	return "", false
}

func flatten(object, prefix string, depth int, out *[]RawField) {
	_ = eachMember(object, func(key, value string) {
		path := key
		if prefix != "" {
			path = prefix + "." + key
		}
		if depth < maxFieldDepth && strings.HasPrefix(value, "{") && hasMembers(value) {
			flatten(value, path, depth+1, out)
			return
		}
		*out = append(*out, RawField{Path: path, Value: valueText(value)})
	})
}

// valueText is a member's value as a screen shows it.
func valueText(value string) string {
	switch {
	case isJSONString(value):
		return unquote(value)
	case strings.HasPrefix(value, "["):
		return arrayText(value)
	}
	return value
}

// arrayText joins an array of scalars with ", "; any other array stays
// its JSON text.
func arrayText(value string) string {
	var parts []string
	ok := true
	eachElement(value, func(elem string) {
		if strings.HasPrefix(elem, "{") || strings.HasPrefix(elem, "[") {
			ok = false
		}
		parts = append(parts, valueText(elem))
	})
	if !ok {
		return value
	}
	return strings.Join(parts, ", ")
}

// eachElement calls fn with the text of every element of the JSON array s.
func eachElement(s string, fn func(value string)) {
	i := skipSpace(s, 0)
	if i >= len(s) || s[i] != '[' {
		return
	}
	i = skipSpace(s, i+1)
	for i < len(s) && s[i] != ']' {
		end := skipValue(s, i)
		if end < 0 {
			return
		}
		fn(s[i:end])
		i = skipSpace(s, end)
		if i < len(s) && s[i] == ',' {
			i = skipSpace(s, i+1)
		}
	}
}

// hasMembers reports whether the JSON object has at least one member: an
// empty one ({} or { }) is a leaf of its own, not nothing.
func hasMembers(object string) bool {
	n := 0
	_ = eachMember(object, func(string, string) { n++ })
	return n > 0
}
