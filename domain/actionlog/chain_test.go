package actionlog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeLog appends n lines and returns the file's lines.
func writeLog(t *testing.T, n int) (string, []string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "actions.jsonl")
	log := Open(path)
	for i := range n {
		if err := log.Append(Entry{Action: ActionLookup, UserID: "u" + string(rune('a'+i)), Outcome: "ok"}); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(path)
	return path, strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

func verifyLines(t *testing.T, lines []string) Report {
	t.Helper()
	rep, err := Verify(strings.NewReader(strings.Join(lines, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestVerifyAWholeLog(t *testing.T) {
	path, lines := writeLog(t, 5)
	rep, err := VerifyFile(path)
	if err != nil || !rep.Whole() || rep.Lines != 5 || rep.Head != LineHash([]byte(lines[4])) {
		t.Fatalf("%+v %v", rep, err)
	}
}

// Each kind of tampering is found and named by its line.
func TestVerifyNamesTheLineTamperedWith(t *testing.T) {
	_, lines := writeLog(t, 5)
	edit := func(change func([]string) []string) Report {
		return verifyLines(t, change(append([]string(nil), lines...)))
	}
	cases := []struct {
		name   string
		change func([]string) []string
		line   int
		says   string
	}{
		{"an edited line", func(l []string) []string { l[2] = strings.Replace(l[2], `"uc"`, `"ux"`, 1); return l }, 3, "edited"},
		{"a removed line", func(l []string) []string { return append(l[:2], l[3:]...) }, 3, "removed"},
		{"a removed start", func(l []string) []string { return l[2:] }, 1, "removed"},
		{"an added line", func(l []string) []string { return append(l[:3], append([]string{l[1]}, l[3:]...)...) }, 4, "added or moved"},
		{"a blanked line", func(l []string) []string { l[1] = ""; return l }, 2, "empty"},
		{"a line that is not an entry", func(l []string) []string { l[3] = "hello"; return l }, 4, "not an entry"},
	}
	for _, c := range cases {
		rep := edit(c.change)
		if rep.Whole() || rep.Problems[0].Line != c.line || !strings.Contains(rep.Problems[0].Text, c.says) {
			t.Errorf("%s: %+v", c.name, rep.Problems)
		}
	}
}
