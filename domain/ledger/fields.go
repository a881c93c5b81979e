package ledger

import (
	"strings"
	"time"

	"cardterm/apiclient"
)

// ParseTime reads a gateway timestamp in any layout FormatTime reads.
func ParseTime(ts string) (time.Time, bool) {
	if !looksLikeTimestamp(ts) {
		return time.Time{}, false
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, strings.TrimSpace(ts)); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// looksLikeTimestamp reports whether s may be one of the layouts FormatTime
// reads: four digits and a dash, after any leading blanks.
func looksLikeTimestamp(s string) bool {
	s = strings.TrimLeft(s, " \t\r\n")
	if len(s) < 19 || s[4] != '-' {
		return false
	}
	for i := 0; i < 4; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func CutLast(path string) (parent, leaf string, ok bool) {
	i := strings.LastIndexByte(path, '.')
	if i < 0 {
		return "", path, false
	}
	return path[:i], path[i+1:], true
}

// RecordID is the record's own identifier as the gateway sent it: the
// member "id", else the first top-level member named like "transactionId";
// "" when there is none.
func RecordID(raw apiclient.RawJSON) string {
	fields := raw.Fields()
	for _, f := range fields {
		if strings.EqualFold(f.Path, "id") {
			return f.Value
		}
	}
	for _, f := range fields {
		if !strings.Contains(f.Path, ".") && (strings.HasSuffix(f.Path, "Id") || strings.HasSuffix(f.Path, "_id") || strings.HasSuffix(f.Path, "ID")) {
			return f.Value
		}
	}
	return ""
}
