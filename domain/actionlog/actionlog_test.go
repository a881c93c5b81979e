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
	if got[0].Seq != 1 || got[0].Prev != "" || got[1].Seq != 2 {
		t.Fatalf("numbering: %+v", got)
	}
	data, _ := os.ReadFile(path)
	first, _, _ := strings.Cut(string(data), "\n")
	if got[1].Prev != LineHash([]byte(first)) {
		t.Fatalf("line 2 holds %s, not the hash of line 1", got[1].Prev)
	}
}

// A file others can read is made owner-only before a line is added; a
// torn last line is kept, and the next line starts a line of its own,
// chained to it.
func TestAppendTightensAnOpenFileAndChainsPastATornLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "actions.jsonl")
	log := Open(path)
	if err := log.Append(Entry{Action: "revoke", UserID: "u1", Outcome: "ok"}); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"seq":2,"action":"li`)
	f.Close()
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
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
	if got[1].Prev != LineHash([]byte(`{"seq":2,"action":"li`)) || got[1].Seq != 3 {
		t.Fatalf("the line after a torn one: %+v", got[1])
	}
	rep, err := VerifyFile(path)
	if err != nil || rep.Whole() || rep.Problems[0].Line != 2 || !strings.Contains(rep.Problems[0].Text, "torn") {
		t.Fatalf("verify of a torn line: %+v %v", rep, err)
	}
}

// A symbolic link and a file that is not a log of ours are
// refused: nothing is written, and Read refuses them too.
func TestAppendRefusesALinkAndAForeignFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere.jsonl")
	if err := Open(target).Append(Entry{Action: "revoke", Outcome: "ok"}); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(target)
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	err := Open(link).Append(Entry{Action: "revoke", Outcome: "ok"})
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("a symlinked log: %v", err)
	}
	if _, err := Open(link).Read(nil); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("reading a symlinked log: %v", err)
	}
	if after, _ := os.ReadFile(target); string(after) != string(before) {
		t.Fatalf("the link's target was written:\n%s", after)
	}

	foreign := filepath.Join(dir, "notes.txt")
	os.WriteFile(foreign, []byte("shopping list\n"), 0o600)
	if err := Open(foreign).Append(Entry{Action: "revoke"}); err == nil || !strings.Contains(err.Error(), "not a cardterm action log") {
		t.Fatalf("a foreign file: %v", err)
	}
	if data, _ := os.ReadFile(foreign); string(data) != "shopping list\n" {
		t.Fatalf("the foreign file was written: %q", data)
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

// An append costs the same on a long log: it reads the file's ends, not
// the file.
func BenchmarkAppendToALongLog(b *testing.B) {
	path := filepath.Join(b.TempDir(), "actions.jsonl")
	log := Open(path)
	e := Entry{Time: time.Now().UTC(), Agent: "ada", Ticket: "TCK-1", ClientKey: "ck_live_acme", Environment: "production", Region: "eu",
		UserID: "cd539010-9af7-562a-beff-7246a1f5439c", Action: ActionLookup, Request: "GET /v2/consent/user/cd539010-9af7-562a-beff-7246a1f5439c?includeSets=true", Outcome: "ok"}
	for range 2_000 { // 500 KB: far more than the window an append reads
		if err := log.Append(e); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := log.Append(e); err != nil {
			b.Fatal(err)
		}
	}
}
