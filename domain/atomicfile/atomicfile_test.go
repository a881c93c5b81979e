package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// A write replaces the file whole and leaves no temporary file; a failed
// one keeps the old file as it was.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	failure := errors.New("disk full")
	err := Write(path, func(w io.Writer) error {
		_, _ = io.WriteString(w, "half")
		return failure
	})
	if !errors.Is(err, failure) {
		t.Fatalf("a failed write returned %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "old" {
		t.Fatalf("a failed write left %q", data)
	}
	if err := Write(path, Bytes([]byte("new"))); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	info, _ := os.Stat(path)
	entries, _ := os.ReadDir(dir)
	if string(data) != "new" || info.Mode().Perm() != 0o600 || len(entries) != 1 {
		t.Fatalf("after a write: %q, mode %v, %d entries in the folder", data, info.Mode().Perm(), len(entries))
	}
}
