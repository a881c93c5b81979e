package transactions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
	"cardterm/ui/uitest"
)

// notesApp signs alice in on the Transactions screen, the holder's data
// in dir.
func notesApp(t *testing.T, dir string, opts ...screentest.Option) *screentest.App {
	t.Helper()
	a := screentest.New(t, screentest.Of(signin.New), append([]screentest.Option{screentest.WithScreen(screentest.Of(New)),
		screentest.WithHolderDir(dir), screentest.WithSize(120, 40)}, opts...)...)
	a.SignInDirectly("alice@demo.test")
	a.Open(screenkit.TransactionsScreen)
	return a
}

// t writes a note and tags on a transaction (a layer); they show in the
// detail, survive a restart, # lists the tag from every page, and the
// export carries both as columns.
func TestNotesAndTagsSurviveAndExport(t *testing.T) {
	dir := t.TempDir()
	a := notesApp(t, dir)
	a.Keys("down", "t")
	if top, open := a.UI().TopLayer(); !open {
		t.Fatalf("t opened no layer (%T)", top)
	}
	a.Type("team lunch")
	a.Keys("tab")
	a.Type("#Work, bad/tag")
	a.Keys("ctrl+s")
	a.MustShow(t, `tag "bad/tag" must be letters`)
	for range len("bad/tag") + 2 {
		a.Keys("backspace")
	}
	a.Type(" team")
	a.Keys("ctrl+s")
	if _, open := a.UI().TopLayer(); open || !strings.Contains(a.Notice(), "note saved") {
		t.Fatalf("the note form is still open; notice %q", a.Notice())
	}
	a.MustShow(t, "Note", "team lunch", "#work #team")

	// A restart: a new app on the same folder.
	b := notesApp(t, dir)
	b.Keys("down")
	b.MustShow(t, "team lunch", "#work #team")
	b.Keys("#", "right", "ctrl+s")
	s := b.Screen()
	if !strings.Contains(s, "#team from every page") || strings.Count(s, "2026-") > 4 {
		t.Fatalf("the tag's list:\n%s", s)
	}
	uitest.Golden(t, "tag-list-120x40", b.UI().BodyView())

	path := filepath.Join(t.TempDir(), "tagged.csv")
	b.Keys("x", "ctrl+u")
	b.Type(path)
	b.Keys("enter")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no export: %v (notice %q)", err, b.Notice())
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[0], ",note,tags") || !strings.HasSuffix(lines[1], ",team lunch,work team") {
		t.Fatalf("the export:\n%s", data)
	}
}

// The note form at 80x24 and 200x60 (reviewed goldens).
func TestNoteFormGoldens(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {200, 60}} {
		a := notesApp(t, t.TempDir(), screentest.WithSize(size[0], size[1]), screentest.WithNoColor(true))
		a.Keys("t")
		uitest.Golden(t, map[int]string{80: "80x24", 200: "200x60"}[size[0]], a.UI().BodyView())
	}
}
