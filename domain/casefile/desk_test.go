package casefile_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardterm/domain/casefile"
)

// A file of the cases folder that is not a case is named once, by its
// base name, with why it was left out: the desk shows the folder already.
func TestListNamesAFileLeftOutOnce(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"case-BROKEN.json": `{"ticket":"BROKEN", broken`,
		"case-EMPTY.json":  `{}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "case-LINK.json")); err != nil {
		t.Fatal(err)
	}
	cases, problems, err := casefile.List(dir)
	if err != nil || len(cases) != 0 || len(problems) != 3 {
		t.Fatalf("List: %d cases, problems %q, %v; want none, three", len(cases), problems, err)
	}
	for i, name := range []string{"case-BROKEN.json", "case-EMPTY.json", "case-LINK.json"} {
		p := problems[i]
		if strings.Contains(p, dir) || strings.Count(p, name) != 1 || !strings.HasPrefix(p, name) {
			t.Errorf("problem %q: want %s named once, first, without the folder", p, name)
		}
	}
}
