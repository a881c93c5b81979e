//go:build unix

package actionlog

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Another user's log is refused, for appending and for reading; a FIFO
// put where the log belongs is refused without hanging.
func TestAnotherUsersLogAndAFIFOAreRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "actions.jsonl")
	if err := Open(path).Append(Entry{Action: ActionLookup, Outcome: "ok"}); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	mine := currentUID()
	currentUID = func() int { return mine + 1 } // the file is now someone else's
	t.Cleanup(func() { currentUID = os.Geteuid })
	if err := Open(path).Append(Entry{Action: ActionRevoke}); err == nil || !strings.Contains(err.Error(), "belongs to another user") {
		t.Fatalf("another user's log: %v", err)
	}
	if _, err := Open(path).Read(nil); err == nil || !strings.Contains(err.Error(), "belongs to another user") {
		t.Fatalf("reading another user's log: %v", err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatal("another user's log was written")
	}
	currentUID = os.Geteuid

	fifo := filepath.Join(t.TempDir(), "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Open(fifo).Append(Entry{Action: ActionRevoke}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("a FIFO: %v", err)
	}
}
