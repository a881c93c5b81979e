package sanitize

import (
	"fmt"
	"unicode/utf8"
)

// JSON rewrites, in JSON that encoding/json wrote (which escapes
// C0 controls already), every DEL, C1 control, bidi control and zero-width
// character as a \uXXXX escape. Such characters can only stand inside JSON
// strings, where the escape means the same character; written raw they can
// reorder or hide what a terminal or an editor shows.
func JSON(data []byte) []byte {
	var out []byte
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if invisible(r) {
			if out == nil {
				out = append(make([]byte, 0, len(data)+16), data[:i]...)
			}
			out = fmt.Appendf(out, `\u%04x`, r)
		} else if out != nil {
			out = append(out, data[i:i+size]...)
		}
		i += size
	}
	if out == nil {
		return data
	}
	return out
}

// invisible reports the characters JSON escapes.
func invisible(r rune) bool {
	switch {
	case r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x200b && r <= 0x200f, r == 0x2060, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x2028, r == 0x2029, r == 0xfeff, r == 0x061c:
		return true
	}
	return false
}
