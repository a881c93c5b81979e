package actionlog

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A log whose last entry is megabytes long (written before fields were
// bounded), past what the append reads from the end, still takes new
// entries, chained to it as Verify checks them; a file that is not ours
// is still refused.
func TestAppendChainsPastALastLineOverMaxLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "support-actions.jsonl")
	log := Open(path)
	at := time.Date(2026, 11, 26, 5, 0, 0, 0, time.UTC)
	entry := Entry{Time: at, Agent: "ada", Ticket: "T-1", ClientKey: "ck", Environment: "sandbox", Region: "eu",
		UserID: "u1", Action: "revoke", Request: "DELETE /x", Outcome: "ok"}
	if err := log.Append(entry); err != nil {
		t.Fatal(err)
	}
	first, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	long := entry
	long.Seq, long.Prev, long.Ticket = 2, LineHash(bytes.TrimSuffix(first, []byte{'\n'})), strings.Repeat("T", 3*maxLine)
	line, _ := json.Marshal(long) // unbounded, as an old cardterm wrote it
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()

	entry.Action = "link"
	if err := log.Append(entry); err != nil {
		t.Fatalf("an append after a long last line: %v", err)
	}
	rep, err := VerifyFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Lines != 3 || len(rep.Problems) != 1 || rep.Problems[0].Line != 2 {
		t.Fatalf("want 3 lines and one problem, the long line 2; got %d lines: %v", rep.Lines, rep.Problems)
	}
	got, err := log.Read(nil)
	if err != nil || len(got) != 2 || got[1].Seq != 3 || got[1].Action != "link" {
		t.Fatalf("read back %+v, %v", got, err)
	}

	// A long last line in a file that is not ours is still refused.
	foreign := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(foreign, []byte("my notes\n"+strings.Repeat("n", 3*maxLine)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Open(foreign).Append(entry); err == nil || !strings.Contains(err.Error(), "not a cardterm action log") {
		t.Fatalf("appending to a foreign file: %v", err)
	}
}
