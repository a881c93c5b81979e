package grants

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A record held by this process is not "left open"; one let go without
// a revoke is, with its tokens; a released one is gone.
func TestARecordIsLeftOpenOnlyOnceItsProcessLetsGo(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "approved-sessions")
	store := Open(dir)
	opened := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	held, err := store.Hold(Grant{BaseURL: "http://127.0.0.1:1", ClientKey: "ck", UserID: "u1", OpenedAt: opened,
		AccessToken: "at-1", RefreshToken: "rt-1"})
	if err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(dir); err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("folder %v %v", info, err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "session-*.json"))
	if len(files) != 1 {
		t.Fatalf("records %v", files)
	}
	if info, _ := os.Stat(files[0]); info.Mode().Perm() != 0o600 {
		t.Fatalf("record mode %v", info.Mode().Perm())
	}
	if left, problems := store.LeftOpen(); len(left) != 0 || len(problems) != 0 {
		t.Fatalf("a held record is left open: %v %v", left, problems)
	}
	if err := held.Update("at-2", "rt-2", opened.Add(6*time.Hour)); err != nil {
		t.Fatal(err)
	}
	held.Close() // a crash: the lock goes with the process

	left, problems := store.LeftOpen()
	if len(left) != 1 || len(problems) != 0 || left[0].RefreshToken != "rt-2" || left[0].UserID != "u1" || !left[0].OpenedAt.Equal(opened) {
		t.Fatalf("left open: %+v %v", left, problems)
	}
	if again, _ := store.LeftOpen(); len(again) != 0 {
		t.Fatal("a record being revoked was handed out twice")
	}
	if err := left[0].Forget(); err != nil {
		t.Fatal(err)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 0 {
		t.Fatalf("left behind %v", files)
	}

	released, _ := store.Hold(Grant{UserID: "u2"})
	if err := released.Release(); err != nil {
		t.Fatal(err)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 0 {
		t.Fatalf("a released record stays: %v", files)
	}
}

// An unreadable record is said, not skipped silently; a link is refused.
func TestLeftOpenSaysWhatItCannotRead(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "session-torn.json"), []byte(`{"baseUrl":`), 0o600)
	os.Symlink("/etc/passwd", filepath.Join(dir, "session-link.json"))
	left, problems := Open(dir).LeftOpen()
	if len(left) != 0 || len(problems) != 2 {
		t.Fatalf("%v %v", left, problems)
	}
	text := problems[0].Error() + problems[1].Error()
	if !strings.Contains(text, "cannot be read") {
		t.Fatalf("problems: %s", text)
	}
}

func TestNoFolderHoldsNothing(t *testing.T) {
	if h, err := Open("").Hold(Grant{}); h != nil || err != nil {
		t.Fatalf("%v %v", h, err)
	}
	if left, problems := Open("").LeftOpen(); left != nil || problems != nil {
		t.Fatal("an empty store found records")
	}
}
