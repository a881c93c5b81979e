package sanitize

import (
	"encoding/json"
	"strings"
	"testing"
)

// hostileSeeds are the cases issue 11's adversarial pass found: escape
// sequences (CSI, OSC 8, OSC 52, DCS), C1 controls, DEL, CR, bidi and
// zero-width characters.
var hostileSeeds = []string{
	"\x1b[31mRED\x1b[0m", "\x1b]52;c;ZXZpbA==\x07", "\x1b]8;;https://evil\x07click\x1b]8;;\x07",
	"\x1bP+q\x1b\\", "a\u0085b\u009bc", "del\x7f", "cr\rlf\n", "\u202eevil\u202c", "zero\u200bwidth\ufeff",
	"plain text", "", "\xff\xfe not utf-8",
}

// FuzzJSON: JSON keeps the document valid and equal in value, with no raw DEL, C1,
// bidi or zero-width character left.
func FuzzJSON(f *testing.F) {
	for _, s := range hostileSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		data, err := json.Marshal(map[string]string{s: s})
		if err != nil {
			return
		}
		out := JSON(data)
		var a, b map[string]string
		if err := json.Unmarshal(data, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(out, &b); err != nil {
			t.Fatalf("escaped JSON is invalid: %q", out)
		}
		if a[s] != b[s] && strings.ToValidUTF8(s, "\ufffd") == s {
			t.Fatalf("the value changed: %q -> %q", a[s], b[s])
		}
		for _, r := range string(out) {
			if invisible(r) {
				t.Fatalf("raw %U left in %q", r, out)
			}
		}
	})
}
