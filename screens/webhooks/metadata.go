package webhooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// metadataLines shows metadata as sorted key=value lines: strings bare
// (quoted when they would read back as another JSON type), other values
// as JSON. parseMetadata reads them back to the same values.
func metadataLines(m map[string]json.RawMessage) []string {
	keys := slices.Sorted(maps.Keys(m))
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, k+"="+showValue(m[k]))
	}
	return out
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func sameMetadata(a, b map[string]json.RawMessage) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}

// showValue shows one metadata value for a key=value line.
func showValue(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		var other any
		if json.Unmarshal([]byte(s), &other) == nil || strings.ContainsAny(s, "\n\r") || strings.TrimSpace(s) != s || (len(s) > 0 && s[0] == '"') {
			return string(raw) // would read back as another type, or needs quoting
		}
		return s
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) == nil {
		return buf.String()
	}
	return string(raw)
}

// parseMetadata reads key=value lines: a value that is JSON (a number,
// true/false/null, an object, an array or a "quoted" string) keeps its
// type; anything else is text. nil when there are no lines.
func parseMetadata(text string) (map[string]json.RawMessage, error) {
	var out map[string]json.RawMessage
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" {
			return nil, fmt.Errorf("line %d: write key=value", n+1)
		}
		if out == nil {
			out = map[string]json.RawMessage{}
		}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("line %d: key %q appears twice", n+1, k)
		}
		if json.Valid([]byte(v)) && v != "" {
			var buf bytes.Buffer
			_ = json.Compact(&buf, []byte(v))
			out[k] = buf.Bytes()
			continue
		}
		b, _ := json.Marshal(v)
		out[k] = b
	}
	return out, nil
}
