package apiclient

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// An error answer longer than maxErrorBody is read only to there: its head
// is JSON cut short. errorHead takes from it every member that arrived
// whole, and a string member that was cut (a 50 MB message) as far as it
// arrived, ended with "…".

// errorHead reads the members of the cut object head.
func errorHead(head []byte) errorBody {
	var eb errorBody
	dec := json.NewDecoder(bytes.NewReader(head))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return eb
	}
	for dec.More() {
		tok, err := dec.Token()
		name, ok := tok.(string)
		if err != nil || !ok {
			return eb
		}
		start := dec.InputOffset()
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			// Cut inside this member's value: keep a string's beginning.
			rest := bytes.TrimLeft(head[start:], " \t\r\n:")
			value = cutString(rest)
		}
		if value == nil {
			return eb
		}
		// Names match as encoding/json matches them: case folded.
		switch fold := func(n string) bool { return strings.EqualFold(name, n) }; {
		case fold("message"):
			eb.Message = value
		case fold("errors"):
			eb.Errors = value
		case fold("error"):
			eb.Error = value
		case fold("error_description"):
			eb.ErrorDescription = value
		case fold("details"):
			eb.Details = value
		}
	}
	return eb
}

// cutString turns the beginning of a JSON string literal that was cut short
// into a whole literal ending with "…", or nil when q is not a string's
// beginning. An escape or a character cut in its middle is left out.
func cutString(q []byte) json.RawMessage {
	if len(q) == 0 || q[0] != '"' {
		return nil
	}
	end := 1
	for i := 1; i < len(q); {
		switch c := q[i]; {
		case c == '"':
			return nil // not cut: a malformed member
		case c == '\\':
			n := 2
			if i+1 < len(q) && q[i+1] == 'u' {
				n = 6
			}
			if i+n > len(q) {
				i = len(q)
				continue
			}
			i += n
			end = i
		case c < utf8.RuneSelf:
			i++
			end = i
		default:
			r, size := utf8.DecodeRune(q[i:])
			if r == utf8.RuneError && size <= 1 && !utf8.FullRune(q[i:]) {
				i = len(q)
				continue
			}
			i += size
			end = i
		}
	}
	out := make([]byte, 0, end+len(`…"`))
	out = append(out, q[:end]...)
	out = append(out, `…"`...)
	if !json.Valid(out) {
		return nil
	}
	return out
}
