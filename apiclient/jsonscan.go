package apiclient

import (
	"encoding/json"
	"errors"
	"strings"
)

// A small scanner over JSON text that is already known to be valid (the
// stream decoder or encoding/json checked it). It walks the members of one
// object without building anything, so a record is read in one pass and
// its string values can be substrings of the record's raw text.

var errNotObject = errors.New("not a JSON object")

// eachMember calls fn with the key and the value text of every member of
// the JSON object s, in order. Keys are unescaped; values are the exact
// text of the value. It returns errNotObject for anything else.
func eachMember(s string, fn func(key, value string)) error {
	i := skipSpace(s, 0)
	if i >= len(s) || s[i] != '{' {
		return errNotObject
	}
	i = skipSpace(s, i+1)
	if i < len(s) && s[i] == '}' {
		return nil
	}
	for i < len(s) {
		if s[i] != '"' {
			return errNotObject
		}
		end := skipString(s, i)
		if end < 0 {
			return errNotObject
		}
		key := unquote(s[i:end])
		i = skipSpace(s, end)
		if i >= len(s) || s[i] != ':' {
			return errNotObject
		}
		i = skipSpace(s, i+1)
		vend := skipValue(s, i)
		if vend < 0 {
			return errNotObject
		}
		fn(key, s[i:vend])
		i = skipSpace(s, vend)
		if i >= len(s) {
			return errNotObject
		}
		switch s[i] {
		case ',':
			i = skipSpace(s, i+1)
		case '}':
			return nil
		default:
			return errNotObject
		}
	}
	return errNotObject
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just past the string starting at s[i]
// (which is '"'), or -1 when it does not end.
func skipString(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// skipValue returns the index just past the value starting at s[i], or -1.
func skipValue(s string, i int) int {
	if i >= len(s) {
		return -1
	}
	switch s[i] {
	case '"':
		return skipString(s, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(s); j++ {
			switch s[j] {
			case '"':
				end := skipString(s, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(s) && !strings.ContainsRune(",}] \t\n\r", rune(s[j])) {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// unquote returns the text of the JSON string literal q; without escapes
// it is a substring of q, so it shares q's memory.
func unquote(q string) string {
	if len(q) >= 2 && !strings.ContainsRune(q, '\\') {
		return q[1 : len(q)-1]
	}
	var out string
	if json.Unmarshal([]byte(q), &out) != nil {
		return ""
	}
	return out
}

// isJSONString reports whether the value text v is a string literal.
func isJSONString(v string) bool { return len(v) >= 2 && v[0] == '"' }

// isJSONNumber reports whether the value text v is a number literal.
func isJSONNumber(v string) bool {
	return v != "" && (v[0] == '-' || (v[0] >= '0' && v[0] <= '9'))
}
