package sandbox

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// withoutCheckpoints stops st's background checkpoints, so what is
// committed stays in the journal only.
func withoutCheckpoints(st *Store) {
	close(st.stop)
	<-st.loopDone
	st.stop = make(chan struct{})
	go func() { <-st.stop; close(st.loopDone) }() // for Close
	st.loopDone = make(chan struct{})
}

// crash drops st as kill -9 would: no checkpoint, files just closed.
func crash(st *Store) {
	st.closeOnce.Do(func() {
		st.journal.Close()
		st.db.Close()
	})
}

func TestJournalIsReplayedAfterACrashUpToATornFrame(t *testing.T) {
	dir := t.TempDir()
	st := openTestStore(t, dir)
	withoutCheckpoints(st)
	e := newEnv(t, Options{Store: st})
	alice, _ := e.login("alice@demo.test")
	want(t, e.do("POST", "/v1/card/freeze", bearer(alice), nil), 200, "")
	journal := journalPath(dir, st.journalGen)
	crash(st)
	if info, err := os.Stat(journal); err != nil || info.Size() == 0 {
		t.Fatalf("the change is not in the journal: %v %v", info, err)
	}
	// The request in flight when the process died: half a frame.
	frame, _ := encodeFrame(map[string][]byte{userKey(DemoUserID("nora@demo.test")): []byte(`{"broken":`)})
	f, _ := os.OpenFile(journal, os.O_APPEND|os.O_WRONLY, 0)
	f.Write(frame[:len(frame)/2])
	f.Close()

	again := newEnv(t, Options{Store: openTestStore(t, dir)})
	alice, _ = again.login("alice@demo.test")
	if got := again.do("GET", "/v1/card/status", bearer(alice), nil).str("status"); got != cardFrozen {
		t.Fatalf("after the crash alice's card is %s, want FROZEN from the journal", got)
	}
	if left, _ := journalGenerations(dir); len(left) != 1 {
		t.Fatalf("journals after recovery: %v, want the new run's only", left)
	}
}

func TestOpenStoreRefusesAJournalOfAnotherProgram(t *testing.T) {
	dir := t.TempDir()
	openTestStore(t, dir).Close()
	path := journalPath(dir, 99)
	content := []byte("this is somebody else's file")
	if err := os.WriteFile(path, content, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := OpenStore(dir)
	if err == nil || !strings.Contains(err.Error(), filepath.Base(path)) || !strings.Contains(err.Error(), "refusing") {
		t.Fatalf("OpenStore = %v, want a refusal naming the journal", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, content) {
		t.Fatal("the refused journal was changed")
	}
}
