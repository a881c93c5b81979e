package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"cardterm/domain/appdirs"
)

func helpOf(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut strings.Builder
	if code := Run(append(args, "--help"), nil, &out, &errOut); code != exitOK {
		t.Fatalf("%v --help: exit %d: %s", args, code, errOut.String())
	}
	return out.String()
}

func TestNoColorWinsOverCliColorForce(t *testing.T) {
	t.Setenv("CLICOLOR_FORCE", "1")
	t.Setenv("NO_COLOR", "")
	if help := helpOf(t); !strings.Contains(help, "\x1b[") {
		t.Fatal("CLICOLOR_FORCE=1 alone gives no colour: the test below could not fail")
	}
	for _, value := range []string{"1", "yes"} { // any value but empty
		t.Setenv("CLICOLOR_FORCE", "1")
		t.Setenv("NO_COLOR", value)
		if help := helpOf(t); strings.Contains(help, "\x1b") {
			t.Errorf("NO_COLOR=%s CLICOLOR_FORCE=1: the help has escape sequences:\n%q", value, help)
		}
		t.Setenv("CLICOLOR_FORCE", "1")
		var out, errOut strings.Builder
		Run([]string{"get", "--no-such-flag"}, nil, &out, &errOut)
		if strings.Contains(errOut.String(), "\x1b") {
			t.Errorf("NO_COLOR=%s CLICOLOR_FORCE=1: an error has escape sequences: %q", value, errOut.String())
		}
	}
}

// Every help page, the root's and each command's, has no line that ends
// in a space (fang pads its text to the terminal's width).
func TestNoHelpLineEndsInASpace(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	t.Setenv("CLICOLOR_FORCE", "")
	root := newRootCommand(streams{})
	pages := [][]string{{}}
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			path := strings.Fields(sub.CommandPath())[1:]
			pages = append(pages, path)
			walk(sub)
		}
	}
	walk(root)
	for _, forced := range []string{"", "1"} { // plain, and coloured
		t.Setenv("CLICOLOR_FORCE", forced)
		for _, args := range pages {
			for i, line := range strings.Split(helpOf(t, args...), "\n") {
				if strings.HasSuffix(line, " ") {
					t.Errorf("cardterm %s --help (CLICOLOR_FORCE=%q), line %d ends in a space: %q", strings.Join(args, " "), forced, i+1, line)
				}
			}
		}
	}
}

func TestSpaceTrimmerKeepsWhatIsNotATrailingSpace(t *testing.T) {
	var out strings.Builder
	trimmer := &spaceTrimmer{w: &out}
	for _, chunk := range []string{"a  b   ", "\n  c ", " ", "\x1b[m  \n", "prompt: "} {
		if _, err := trimmer.Write([]byte(chunk)); err != nil {
			t.Fatal(err)
		}
	}
	if err := trimmer.Flush(); err != nil {
		t.Fatal(err)
	}
	if want := "a  b\n  c  \x1b[m\nprompt: "; out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

// Without a terminal the app does not start: it says what scripts use
// instead, and exits 2 (usage), writing nothing to stdout.
func TestAppWithoutTerminalExitsTwo(t *testing.T) {
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	for _, args := range [][]string{{}, {"support"}} {
		var out, errOut strings.Builder
		code := Run(args, devNull, &out, &errOut)
		if code != exitUsage {
			t.Errorf("cardterm %v with no terminal: exit %d, want 2", args, code)
		}
		if out.Len() != 0 {
			t.Errorf("cardterm %v wrote to stdout: %q", args, out.String())
		}
		for _, want := range []string{"needs a terminal", "cardterm get", "cardterm api"} {
			if !strings.Contains(errOut.String(), want) {
				t.Errorf("cardterm %v: stderr %q lacks %q", args, errOut.String(), want)
			}
		}
	}
}

// The support console's state lives in the state folder appdirs gives
// each OS (on macOS and Windows not ~/.local/state), or under
// $XDG_STATE_HOME when it is set.
func TestSupportStateFileIsInTheStateFolder(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "")
	if got, want := supportStateFile("ck_a/b"), filepath.Join(appdirs.State(), "cardterm", "support-ck_a_b.json"); got != want {
		t.Errorf("without XDG_STATE_HOME: %s, want %s", got, want)
	}
	dir := t.TempDir()
	t.Setenv("XDG_STATE_HOME", dir)
	if got, want := supportStateFile("ck_x"), filepath.Join(dir, "cardterm", "support-ck_x.json"); got != want {
		t.Errorf("with XDG_STATE_HOME: %s, want %s", got, want)
	}
}

// The trimmer sits on every message cobra and fang print (help,
// completion scripts, listen's live lines): one help page through it.
func BenchmarkSpaceTrimmer(b *testing.B) {
	page := []byte(strings.Repeat("  some help text padded to the width of the terminal"+strings.Repeat(" ", 40)+"\n", 60))
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		trimmer := &spaceTrimmer{w: io.Discard}
		_, _ = trimmer.Write(page)
	}
}
