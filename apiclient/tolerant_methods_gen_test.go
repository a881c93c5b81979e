package apiclient

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestTolerantMethodsAreUpToDate runs tolerantgen on the package as it is
// and fails when tolerant_methods_gen.go differs: a record type added,
// removed or given a hand-written method without `go generate ./apiclient`.
// As tolerantgen writes both methods for every tolerant record, this is
// also what keeps a record from lacking them.
func TestTolerantMethodsAreUpToDate(t *testing.T) {
	goCommand, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command to run tolerantgen with (go test puts it on PATH): %v", err)
	}
	fresh := filepath.Join(t.TempDir(), "tolerant_methods_gen.go")
	if out, err := exec.Command(goCommand, "run", "./internal/tolerantgen", "-o", fresh).CombinedOutput(); err != nil {
		t.Fatalf("tolerantgen: %v\n%s", err, out)
	}
	want, err := os.ReadFile(fresh)
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("tolerant_methods_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, want) {
		t.Fatal("tolerant_methods_gen.go is out of date: run go generate ./apiclient")
	}
}
