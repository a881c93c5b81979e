package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"cardterm/domain/actionlog"
)

// newSupportVerifyLogCommand is `cardterm support verify-log [FILE]`: it
// walks the support action log's chain and says whether the log is whole,
// and where it was edited.
func newSupportVerifyLogCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "verify-log [FILE]",
		Short: "Check that the support action log is whole, and say where it was edited",
		Long: `Each line of the support console's action log holds its number and the
SHA-256 of the line before it. verify-log reads the log (the one in the state
directory, or FILE) and checks every link: a line edited after the next one was
written, a line removed, added or moved, or a start cut off is named by its line
number. Exit status 0 when the log is whole, 1 otherwise.

The hash of the last line is printed: note it, and a later check shows whether
the log still holds that line unchanged (the last line itself has no successor
to vouch for it).`,
		Example: `  cardterm support verify-log
  cardterm support verify-log /audit/alice/support-actions.jsonl`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageError{"cardterm support verify-log: at most one file (try --help)"}
			}
			return nil
		},
		SilenceUsage: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			path := supportActionLog()
			if len(args) == 1 {
				path = args[0]
			}
			cmd.SilenceErrors = true
			out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
			rep, err := actionlog.VerifyFile(path)
			if err != nil {
				fmt.Fprintf(errOut, "cardterm support verify-log: %v\n", err)
				return exitStatus(exitRefused)
			}
			if rep.Whole() {
				fmt.Fprintf(out, "%s: whole: %d line(s), each holding the hash of the one before.\n", path, rep.Lines)
				if rep.Lines > 0 {
					fmt.Fprintf(out, "last line's hash: %s\n", rep.Head)
				}
				return nil
			}
			fmt.Fprintf(errOut, "%s: NOT whole: %d break(s) in the chain of %d line(s)\n", path, len(rep.Problems), rep.Lines)
			for _, p := range rep.Problems {
				fmt.Fprintln(errOut, "  "+p.String())
			}
			return exitStatus(exitRefused)
		},
	}
}
