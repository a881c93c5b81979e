package guard

import (
	"bufio"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Entry is one action a rule took, as the local log keeps it.
type Entry struct {
	Time        time.Time `json:"time"`
	Rule        string    `json:"rule"`
	Transaction string    `json:"transaction"`
	Merchant    string    `json:"merchant,omitempty"`
	Amount      string    `json:"amount,omitempty"`
	// Action is what the rule asked for; Outcome what happened
	// ("notified", "froze the card", "declined by you", "failed: …").
	Action  string `json:"action"`
	Outcome string `json:"outcome"`
	Why     string `json:"why,omitempty"`
}

// LogFile is the actions' log in a profile's folder.
func LogFile(dir string) string { return filepath.Join(dir, "guard-actions.jsonl") }

// EntryOf is a decision's log entry with its outcome.
func EntryOf(d Decision, at time.Time, outcome string) Entry {
	return Entry{Time: at.UTC(), Rule: d.Rule.Name, Transaction: d.Transaction.ID, Merchant: d.Transaction.Merchant,
		Amount: d.Transaction.Amount, Action: d.Action, Outcome: outcome, Why: d.Why}
}

// Append adds an entry to the log (one JSON line, owner-only).
func Append(path string, e Entry) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	line, _ := json.Marshal(e)
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// ReadLog is the log's last n entries, oldest first; a line that is not
// an entry is skipped.
func ReadLog(path string, n int) ([]Entry, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Entry
	scan := bufio.NewScanner(f)
	for scan.Scan() {
		var e Entry
		if json.Unmarshal(scan.Bytes(), &e) == nil && e.Rule != "" {
			out = append(out, e)
			if len(out) > n {
				out = out[1:]
			}
		}
	}
	return out, scan.Err()
}
