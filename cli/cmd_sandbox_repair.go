package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"cardterm/sandbox"
	"cardterm/ui/sanitize"
)

// newSandboxRepairCommand is `cardterm sandbox repair --data DIR`: what a
// start refuses as damage is mended by copying what can be read into a
// fresh database and setting the damaged file aside, with a report.
func newSandboxRepairCommand() *cobra.Command {
	var given givenFlags
	cmd := &cobra.Command{
		Use:   "repair",
		Short: "Copy what can be read of a damaged data directory into a fresh store, set the rest aside",
		Long: `A sandbox refuses to start on a damaged data directory, naming the file, the byte
offset and page of the damage and why, and changes nothing. repair runs bbolt's
consistency check, reads every record it can (each checked against its checksum;
a damaged page is read around) and writes what it read into a fresh DIR/sandbox.db.
The file as it was moves to DIR/set-aside/<time>/ with REPORT.txt, which says what
was damaged, lost and kept; nothing is deleted. A sound store is left as it is. A foreign file or a folder others may write to is refused with the reason, as
the start refuses it. No sandbox may have DIR open. The store format and its checks
are described in docs/sandbox-store.md.`,
		Example: `  cardterm sandbox repair --data ./.sandbox`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir, err := dataDirectory(cmd, given)
			if err != nil {
				return err
			}
			report, err := sandbox.Repair(dir, time.Now())
			if err != nil {
				return storeError{err}
			}
			fmt.Fprint(cmd.OutOrStdout(), sanitize.Multiline(report.String()))
			return nil
		},
	}
	given = dataFlag(cmd)
	return cmd
}
