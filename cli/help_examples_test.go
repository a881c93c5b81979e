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
