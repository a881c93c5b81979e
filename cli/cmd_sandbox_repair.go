package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"cardterm/sandbox"
)

// newSandboxRepairCommand is `cardterm sandbox repair --data DIR`: what a
// start refuses in the journals is mended by keeping the sound frames
// before the first damage and setting the rest aside, with a report.
func newSandboxRepairCommand() *cobra.Command {
	var given givenFlags
	cmd := &cobra.Command{
		Use:   "repair",
		Short: "Keep a data directory's sound journal frames and set the damaged rest aside",
		Long: `A sandbox refuses to start on a data directory whose journal holds a damaged frame
(other than a torn last frame, the write a crash cut short), naming the file, the
byte offset and why, and changes nothing. repair keeps every sound frame before
the first damage and moves the rest (the damaged journal's tail, every later
journal) to DIR/set-aside/<time>/, with REPORT.txt; nothing is deleted. It mends
journals only: a damaged database, a foreign file or a folder others may write to
is refused with the reason, as the start refuses it. No sandbox may have DIR open.
The store format and its checks are described in docs/sandbox-store.md.`,
		Example: `  cardterm sandbox repair --data ./.sandbox`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir, err := dataDirectory(cmd, given)
			if err != nil {
				return err
			}
			report, err := sandbox.Repair(dir, time.Now())
			if err != nil {
				return err
			}
			fmt.Fprint(cmd.OutOrStdout(), report.String())
			return nil
		},
	}
	given = dataFlag(cmd)
	return cmd
}
