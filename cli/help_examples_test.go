package cli

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"
)

// maxExampleWidth is the widest example line --help draws whole on an
// 80-column terminal: fang cuts a longer one with "…" (its code block
// takes the terminal's width, at most 120, less its padding), and a cut
// example fails when pasted. A longer command is continued with \.
const maxExampleWidth = 72

func TestNoHelpExampleIsCut(t *testing.T) {
	var walk func(cmd *cobra.Command)
	walk = func(cmd *cobra.Command) {
		for _, line := range strings.Split(cmd.Example, "\n") {
			if w := ansi.StringWidth(line); w > maxExampleWidth {
				t.Errorf("%s: an example line of %d columns (at most %d; continue it with \\):\n%s", cmd.CommandPath(), w, maxExampleWidth, line)
			}
			if strings.Contains(line, "…") {
				t.Errorf("%s: an example holds …, which cannot be pasted:\n%s", cmd.CommandPath(), line)
			}
		}
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
	}
	walk(newRootCommand(streams{stdout: &strings.Builder{}, stderr: &strings.Builder{}}))
}

// Forced colour into a pipe (CLICOLOR_FORCE=1 cardterm --help | less -R):
// no background can be learnt, so the text keeps the terminal's own
// colour; no black or white text, no background, yet colour for the
// commands and flags.
func TestForcedColourHelpReadsOnAnyBackground(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	t.Setenv("CLICOLOR_FORCE", "1")
	t.Setenv("TERM", "xterm-256color")
	var out, errOut strings.Builder
	if code := Run([]string{"--help"}, nil, &out, &errOut); code != exitOK {
		t.Fatalf("--help: exit %d: %s", code, errOut.String())
	}
	help := out.String()
	if !strings.Contains(help, "\x1b[") {
		t.Fatalf("CLICOLOR_FORCE=1 gave no colour:\n%.300q", help)
	}
	for _, unreadable := range []string{"\x1b[30m", "\x1b[37m", "\x1b[97m", "\x1b[38;5;0m", "\x1b[38;5;15m", "\x1b[38;2;0;0;0m", "\x1b[4", "\x1b[10", "\x1b[48"} {
		if strings.Contains(help, unreadable) {
			t.Errorf("forced-colour help holds %q, unreadable on one background or the other", unreadable)
		}
	}
}
