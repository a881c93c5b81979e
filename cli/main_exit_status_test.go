package cli

import (
	"errors"
	"testing"

	"github.com/spf13/cobra"
)

// A command that has said why it failed ends without an error for fang
// (whose error path queries the terminal), its status kept for run; any
// other error still goes to fang.
func TestExitStatusIsKeptOutOfFangsErrorPath(t *testing.T) {
	var said exitStatus
	root := &cobra.Command{Use: "cardterm", SilenceErrors: true, SilenceUsage: true}
	root.AddCommand(
		&cobra.Command{Use: "said", RunE: func(*cobra.Command, []string) error { return exitStatus(exitInterrupted) }},
		&cobra.Command{Use: "other", RunE: func(*cobra.Command, []string) error { return errors.New("boom") }},
	)
	keepExitStatus(root, &said)
	root.SetArgs([]string{"said"})
	if err := root.Execute(); err != nil || said != exitInterrupted {
		t.Fatalf("said: error %v, status %d; want no error and %d", err, said, exitInterrupted)
	}
	root.SetArgs([]string{"other"})
	if err := root.Execute(); err == nil {
		t.Fatal("another error was swallowed")
	}
	if code := Run([]string{"get", "nope"}, nil, discard{}, discard{}); code != exitUsage {
		t.Fatalf("a look-up's usage error exits %d, want %d", code, exitUsage)
	}
}

// discard is an io.Writer that keeps nothing.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
