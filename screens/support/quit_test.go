package support_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/domain/casefile"
	"cardterm/sandbox"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
	"cardterm/screens/support"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

// consoleOf starts the console like newConsole and hands back the
// console itself, so that a test can end it as main does (Close).
func consoleOf(t *testing.T, opts support.Options) (*screentest.App, **support.Screen) {
	t.Helper()
	console := new(*support.Screen)
	if opts.StateFile == "" {
		opts.StateFile = filepath.Join(t.TempDir(), "state", "lookups.json")
	}
	if opts.ExportDir == "" {
		opts.ExportDir = t.TempDir()
	}
	build := func(d screenkit.Deps) ui.Screen { *console = support.New(d, opts); return *console }
	app := screentest.New(t, screentest.Of(signin.New), screentest.WithSupport(build, true),
		screentest.WithConfig(func(c *apiclient.Config) { c.SecretKey = "" }), screentest.WithSize(120, 40))
	return app, console
}

// q right after a change, its write not yet made (the command not run):
// Close makes it, so the change is in the case and no temporary file is
// left, 50 times over. Before, the write could be cut between the
// temporary file and its rename.
func TestSupportQuitDuringAWriteLosesNothing(t *testing.T) {
	alice := sandbox.DemoUserID("alice@demo.test")
	for try := range 50 {
		dir := t.TempDir()
		app, console := consoleOf(t, support.Options{User: alice, CasesDir: dir, Agent: "dana"})
		app.Keys("T")
		app.Type("TCK-Q")
		app.Keys("enter", "n")
		app.Type("the last words")
		// ctrl+s saves the note: its write is a command, which quitting
		// leaves unrun.
		app.Root.Update(uitest.Key("ctrl+s"))
		app.Root.Update(uitest.Key("e")) // an export asked for, not yet written
		(*console).Close()
		c, err := casefile.Load(casefile.PathFor(dir, "TCK-Q"))
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Notes) != 1 || c.Notes[0].Text != "the last words" {
			t.Fatalf("try %d: the note was lost: %+v", try, c.Notes)
		}
		if a, _ := c.LastActivity(); a.Action != "case exported" {
			t.Fatalf("try %d: the export's activity was lost; last: %+v", try, a)
		}
		if left, _ := filepath.Glob(filepath.Join(dir, ".case-*")); len(left) != 0 {
			t.Fatalf("try %d: temporary files left: %v", try, left)
		}
	}
}

// A start takes in the temporary file a quit left, and says so.
func TestSupportStartTakesInAnOrphanedWrite(t *testing.T) {
	dir := t.TempDir()
	c := casefile.New("TCK-O", sandbox.DemoClientKey, screentest.Epoch)
	if err := c.Save(casefile.PathFor(dir, "TCK-O")); err != nil {
		t.Fatal(err)
	}
	c.AddNote(casefile.Note{Time: screentest.Epoch, Agent: "dana", Text: "left in a temporary file"})
	if err := c.Save(filepath.Join(dir, ".case-4242")); err != nil {
		t.Fatal(err)
	}
	app := newConsole(t, support.Options{CasesDir: dir})
	app.Keys("m")
	app.MustShow(t, "took in the last change of case TCK-O")
	data, err := os.ReadFile(casefile.PathFor(dir, "TCK-O"))
	if err != nil {
		t.Fatal(err)
	}
	var got struct{ Notes []struct{ Text string } }
	if err := json.Unmarshal(data, &got); err != nil || len(got.Notes) != 1 || !strings.Contains(got.Notes[0].Text, "temporary file") {
		t.Fatalf("the case after the start: %s (%v)", data, err)
	}
}
