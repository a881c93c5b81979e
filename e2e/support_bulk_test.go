package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardterm/sandbox"
)

// The command end to end on a sandbox: one CSV line per id, a bad
// --format refused, a second run with --output adds nothing twice.
func TestSupportBulkCommand(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	dir := t.TempDir()
	ids := filepath.Join(dir, "ids.txt")
	alice := sandbox.DemoUserID("alice@demo.test")
	if err := os.WriteFile(ids, []byte("# three ids\n"+alice+"\nno-such-user\nalice@demo.test\n"+alice+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.csv")
	args := []string{"support", "bulk", ids, "--output", out, "--base-url", sb.URL, "--client-key", sandbox.DemoClientKey}
	if _, errOut, code := sealedRun(t, nil, args...); code != 0 || !strings.Contains(errOut, "3 of 3 id(s) written (1 complete, 1 not found, 1 malformed)") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if _, errOut, code := sealedRun(t, nil, args...); code != 0 || !strings.Contains(errOut, "0 of 3 id(s) written, 3 already in") {
		t.Fatalf("the second run: %d %s", code, errOut)
	}
	data, _ := os.ReadFile(out)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 4 || lines[0] != "id,kind,region,status,missing,sets,detail" || !strings.HasPrefix(lines[1], alice+",user,EU,complete,,1,") {
		t.Fatalf("the file:\n%s", data)
	}
	if _, errOut, code := sealedRun(t, nil, "support", "bulk", ids, "--format", "xml"); code != exitUsage || !strings.Contains(errOut, "csv or jsonl") {
		t.Fatalf("a bad format: %d %s", code, errOut)
	}
}
