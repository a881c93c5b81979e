package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"cardterm/ui/sanitize"
)

// JSON coloured for a terminal, as gh's jsoncolor colours it: keys bright
// blue, strings green, true and false yellow, null cyan, the punctuation
// bright white; indented by two spaces. Every token is escaped as
// indentBody escapes it, so gateway text cannot drive the terminal.

const (
	colorDelim  = "1;38"
	colorKey    = "1;34"
	colorNull   = "36"
	colorString = "32"
	colorBool   = "33"
)

// errInvalidJSON: the answer is not JSON, so it is shown as text.
var errInvalidJSON = errors.New("invalid JSON")

// colorJSON indents and colours body; an error when it is not JSON.
func colorJSON(body []byte) ([]byte, error) {
	body = bytes.TrimSpace(body)
	if !json.Valid(body) {
		return nil, errInvalidJSON
	}
	var b bytes.Buffer
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	paint := func(color, text string) { b.WriteString("\x1b[" + color + "m" + text + "\x1b[m") }
	var stack []json.Delim
	index := 0 // tokens seen in the innermost object: keys are the even ones
	for {
		token, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if delim, ok := token.(json.Delim); ok {
			switch delim {
			case '{', '[':
				stack = append(stack, delim)
				index = 0
				paint(colorDelim, delim.String())
				if dec.More() {
					b.WriteString("\n" + strings.Repeat("  ", len(stack)))
				}
				continue
			default:
				stack = stack[:len(stack)-1]
				index = 0
				paint(colorDelim, delim.String())
			}
		} else {
			isKey := len(stack) > 0 && stack[len(stack)-1] == '{' && index%2 == 0
			index++
			text := string(sanitize.JSON(encodeToken(token)))
			switch {
			case isKey:
				paint(colorKey, text)
				paint(colorDelim, ":")
				b.WriteByte(' ')
				continue
			case token == nil:
				paint(colorNull, text)
			default:
				switch token.(type) {
				case string:
					paint(colorString, text)
				case bool:
					paint(colorBool, text)
				default:
					b.WriteString(text)
				}
			}
		}
		switch {
		case dec.More():
			paint(colorDelim, ",")
			b.WriteString("\n" + strings.Repeat("  ", len(stack)))
		case len(stack) > 0:
			b.WriteString("\n" + strings.Repeat("  ", len(stack)-1))
		default:
			b.WriteByte('\n')
		}
	}
	return b.Bytes(), nil
}

// encodeToken writes one JSON scalar as JSON, without escaping <, > and &.
func encodeToken(token any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(token) // a decoded scalar always encodes
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'})
}
