// Package bulklookup looks many customers' consent status up with the
// tenant's client key alone: one line per id (CSV or JSON lines) with the
// status and what is missing, an id that is not one refused on its own
// line without a request, an output that a second run completes.
package bulklookup

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"cardterm/domain/lazy"
)

// Kinds of id.
const (
	User       = "user"
	Onboarding = "onboarding"
)

// Statuses a line may have besides the gateway's consent status
// (complete, incomplete, none).
const (
	NotFound  = "not found"
	Malformed = "malformed"
	Failed    = "failed"
)

// Line is one id's answer.
type Line struct {
	ID     string `json:"id"`
	Kind   string `json:"kind"`
	Region string `json:"region"`
	// Status is complete, incomplete or none (the consent status), else
	// not found, malformed or failed.
	Status string `json:"status"`
	// Missing lists the required consents not granted ("termsAndPrivacy
	// is denied in set …"), or the sets waiting to be linked of an
	// onboarding.
	Missing []string `json:"missing"`
	Sets    int      `json:"sets"`
	// Detail says why a line is malformed or failed.
	Detail string `json:"detail,omitempty"`
}

// Formats of the output.
const (
	CSV   = "csv"
	JSONL = "jsonl"
)

// header is the CSV's first line.
var header = []string{"id", "kind", "region", "status", "missing", "sets", "detail"}

// Encode is a line as the format writes it, newline included, so that a
// line is written with one write and is whole or absent.
func Encode(l Line, format string) ([]byte, error) {
	if format == JSONL {
		if l.Missing == nil {
			l.Missing = []string{}
		}
		data, err := json.Marshal(l)
		return append(data, '\n'), err
	}
	var b strings.Builder
	w := csv.NewWriter(&b)
	err := w.Write([]string{l.ID, l.Kind, l.Region, l.Status, strings.Join(l.Missing, "; "), strconv.Itoa(l.Sets), l.Detail})
	w.Flush()
	if err == nil {
		err = w.Error()
	}
	return []byte(b.String()), err
}

// Header is what starts a new output: the CSV's header line, nothing for
// JSON lines.
func Header(format string) []byte {
	if format == JSONL {
		return nil
	}
	return []byte(strings.Join(header, ",") + "\n")
}

// ReadIDs reads one id a line; blank lines and lines starting with # are
// skipped, and an id given twice is kept once (its first place).
func ReadIDs(r io.Reader) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		id := strings.TrimSpace(strings.TrimPrefix(sc.Text(), "\ufeff"))
		if id == "" || strings.HasPrefix(id, "#") || seen[id] {
			continue
		}
		seen[id] = true
		out = append(out, id)
	}
	return out, sc.Err()
}

var (
	idChars   = lazy.Regexp{Pattern: `^[A-Za-z0-9._:-]+$`}
	emailLike = lazy.Regexp{Pattern: `^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$`}
)

// maxIDLength is the longest id sent (an id is a UUID or a short token).
const maxIDLength = 128

// Check says why text is not an id to send, "" when it is one.
func Check(id string) string {
	switch {
	case emailLike.Get().MatchString(id):
		return "an e-mail address, not an id: the gateway finds customers by id only"
	case strings.ContainsAny(id, " \t"):
		return "holds a space: one id a line"
	case len(id) > maxIDLength:
		return fmt.Sprintf("%d characters: an id has at most %d", len(id), maxIDLength)
	case !idChars.Get().MatchString(id):
		return "holds characters an id does not have (letters, digits, . _ : - only)"
	}
	return ""
}
