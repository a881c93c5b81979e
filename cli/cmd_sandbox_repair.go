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
		Long: `A sandbox refuses a damaged data directory, naming the file, the byte offset and
page of the damage and why, and changes nothing. repair runs bbolt's consistency
check, reads every record it can (each against its checksum; a damaged page is
read around) into a fresh DIR/sandbox.db, and moves the file as it was to
DIR/set-aside/<time>/ with REPORT.txt: what was damaged, lost and kept. Nothing is
deleted; a sound store is left as it is. A foreign file or a folder others may
write to is refused as the start refuses it, and no sandbox may have DIR open.
See docs/sandbox-store.md.`,
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
