package actionlog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestAppendIsOwnerOnlyAndAppendsOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "cardterm", "support-actions.jsonl")
	log := Open(path)
	at := time.Date(2026, 11, 26, 5, 0, 0, 0, time.UTC)
	for i, action := range []string{"revoke", "link"} {
		if err := log.Append(Entry{Time: at.Add(time.Duration(i) * time.Minute), Agent: "ada", Ticket: "T-1", ClientKey: "ck",
			Environment: "sandbox", Region: "eu", UserID: "u1", Action: action, Request: "DELETE /x", Outcome: "ok"}); err != nil {
			t.Fatal(err)
		}
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("log file: %v %v", info, err)
	}
	if dir, _ := os.Stat(filepath.Dir(path)); dir.Mode().Perm() != 0o700 {
		t.Fatalf("log directory mode %v", dir.Mode().Perm())
	}
	got, err := log.Read(func(e Entry) bool { return e.UserID == "u1" })
	if err != nil || len(got) != 2 || got[0].Action != "revoke" || got[1].Action != "link" || !got[0].Time.Equal(at) {
		t.Fatalf("read back %+v, %v", got, err)
	}
}

// A file others can read is made owner-only before a line is added; a
// torn line is skipped, the others kept.
func TestAppendTightensAnOpenFileAndReadSkipsTornLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "actions.jsonl")
	if err := os.WriteFile(path, []byte(`{"action":"revoke","userId":"u1","outcome":"ok"}`+"\n"+`{"action":"li`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	log := Open(path)
	if err := log.Append(Entry{Action: "link", UserID: "u1", Outcome: "failed: 409"}); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v after an append", info.Mode().Perm())
	}
	got, err := log.Read(nil)
	if err != nil || len(got) != 2 || got[1].Action != "link" || got[1].OK() || !got[0].OK() {
		t.Fatalf("read %+v, %v", got, err)
	}
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), `{"action":"revoke"`) {
		t.Fatalf("the earlier lines were rewritten:\n%s", data)
	}
}

func TestNoPathKeepsNothing(t *testing.T) {
	if err := Open("").Append(Entry{Action: "revoke"}); err != nil {
		t.Fatal(err)
	}
	if got, err := Open("").Read(nil); got != nil || err != nil {
		t.Fatalf("%v %v", got, err)
	}
}

func TestAgentIsConfiguredElseTheOSUser(t *testing.T) {
	if got := Agent("  ada  "); got != "ada" {
		t.Fatalf("Agent(ada) = %q", got)
	}
	if got := Agent(""); got == "" || got == "ada" {
		t.Fatalf("Agent(\"\") = %q", got)
	}
}
