//go:build unix

package actionlog

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func entryWith(change func(*Entry)) Entry {
	e := Entry{Time: time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC), Agent: "ada", ClientKey: "ck",
		Environment: "sandbox", Region: "eu", UserID: "u1", Action: ActionLookup, Request: "GET /x", Outcome: "ok"}
	change(&e)
	return e
}

// However long a field given to Append, its line stays readable: the log
// verifies whole, later appends go on, and the cut value's SHA-256 is kept.
func TestLongFieldsAreCutAndTheLogStaysUsable(t *testing.T) {
	hugeID := strings.Repeat("7", 700_000)
	longTicket := strings.Repeat("é", 5_000)
	for _, c := range []struct {
		name  string
		entry Entry
		whole string
	}{
		{"a 700 kB look-up id", entryWith(func(e *Entry) { e.UserID = hugeID }), hugeID},
		{"a 5,000-character ticket", entryWith(func(e *Entry) { e.Ticket = longTicket }), longTicket},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "log.jsonl")
			log := Open(path)
			for _, e := range []Entry{c.entry, entryWith(func(*Entry) {}), c.entry, entryWith(func(*Entry) {})} {
				if err := log.Append(e); err != nil {
					t.Fatalf("append: %v", err)
				}
			}
			data, _ := os.ReadFile(path)
			for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
				if len(line) > 16<<10 {
					t.Errorf("line %d is %d bytes", i+1, len(line))
				}
			}
			sum := sha256.Sum256([]byte(c.whole))
			if !strings.Contains(string(data), hex.EncodeToString(sum[:])) {
				t.Error("the SHA-256 of the cut value is not kept")
			}
			rep, err := VerifyFile(path)
			if err != nil || !rep.Whole() || rep.Lines != 4 {
				t.Fatalf("verify: %+v, %v", rep, err)
			}
			if got, err := log.Read(nil); err != nil || len(got) != 4 {
				t.Fatalf("read: %d entries, %v", len(got), err)
			}
		})
	}
}

// A log whose first line is longer than 4 KiB (written before fields were
// bounded) is still recognised as ours; one whose first line runs past
// maxLine is refused with a clear message, not misread.
func TestFirstLineOfAnyLengthIsReadWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	first, _ := json.Marshal(entryWith(func(e *Entry) { e.Seq = 1; e.Ticket = strings.Repeat("T", 6_000) }))
	if err := os.WriteFile(path, append(first, '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Open(path).Append(entryWith(func(*Entry) {})); err != nil {
		t.Fatalf("append after a 6 kB first line: %v", err)
	}
	if rep, err := VerifyFile(path); err != nil || !rep.Whole() || rep.Lines != 2 {
		t.Fatalf("verify: %+v, %v", rep, err)
	}

	huge := filepath.Join(t.TempDir(), "huge.jsonl")
	if err := os.WriteFile(huge, []byte(`{"seq":1,"action":"x","time":"`+strings.Repeat("x", maxLine+10)+"\"}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	err := Open(huge).Append(entryWith(func(*Entry) {}))
	if err == nil || !strings.Contains(err.Error(), "first line is longer than") {
		t.Fatalf("append after a first line past maxLine: %v; want a refusal saying why", err)
	}
	rep, err := VerifyFile(huge)
	if err != nil || rep.Whole() || rep.Lines != 1 {
		t.Fatalf("verify of a 1 MiB line: %+v, %v; want one problem, no error", rep, err)
	}
}

// verify-log on a FIFO returns at once with a refusal instead of waiting
// for a writer.
func TestVerifyRefusesAFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() { _, err := VerifyFile(path); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("verify of a FIFO: %v; want a refusal", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("verify of a FIFO is still waiting after 5s")
	}
}
