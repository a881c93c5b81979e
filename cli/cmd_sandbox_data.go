package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"cardterm/domain/atomicfile"
	"cardterm/sandbox"
	"cardterm/ui/sanitize"
)

// The data directory commands work on a DIR no running sandbox has open
// (the store is locked while one runs: they say so and change nothing).

// newSandboxResetCommand is `cardterm sandbox reset --data DIR`.
func newSandboxResetCommand() *cobra.Command {
	var given givenFlags
	cmd := &cobra.Command{
		Use:     "reset",
		Short:   "Forget every change kept in a data directory: back to the seed",
		Example: `  cardterm sandbox reset --data ./.sandbox`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withStore(cmd, given, func(st *sandbox.Store) error {
				if err := st.Reset(); err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "Reset %s: the sandbox starts from its seed.\n", st.Path())
				return nil
			})
		},
	}
	given = dataFlag(cmd)
	return cmd
}

// newSandboxExportCommand is `cardterm sandbox export FILE --data DIR`.
func newSandboxExportCommand() *cobra.Command {
	var given givenFlags
	cmd := &cobra.Command{
		Use:   "export FILE",
		Short: "Write a data directory's state as a JSON fixture (- for stdout)",
		Long: `Write what a data directory holds beyond the seed (users as requests left them,
whitelist entries, webhooks with their signing keys and deliveries, consent data,
PINs set on the hosted page) as a JSON fixture to keep in a repository; import
puts it back. The shape is documented in the README (format "cardterm-sandbox",
version 1). The file holds the sandbox's own keys and PINs: sandbox values.`,
		Example: `  cardterm sandbox export testdata/sandbox.json --data ./.sandbox`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withStore(cmd, given, func(st *sandbox.Store) error {
				if args[0] == "-" {
					return st.Export(cmd.OutOrStdout())
				}
				return atomicfile.Write(args[0], st.Export)
			})
		},
	}
	given = dataFlag(cmd)
	return cmd
}

// newSandboxImportCommand is `cardterm sandbox import FILE --data DIR`.
func newSandboxImportCommand() *cobra.Command {
	var given givenFlags
	cmd := &cobra.Command{
		Use:   "import FILE",
		Short: "Replace a data directory's state with a JSON fixture (- for stdin)",
		Long: `Check a fixture written by export (or by hand, in the same shape) and make it the
data directory's whole state. A bad file is refused with the path of the part at
fault and why (e.g. users[0].card.status: must be ACTIVE, FROZEN or BLOCKED), and
the directory is left as it was.`,
		Example: `  cardterm sandbox import testdata/sandbox.json --data ./.sandbox`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var in io.Reader = cmd.InOrStdin()
			name := "stdin"
			if args[0] != "-" {
				f, err := os.Open(args[0])
				if err != nil {
					return err
				}
				defer f.Close()
				in, name = f, args[0]
			}
			return withStore(cmd, given, func(st *sandbox.Store) error {
				if err := st.Import(in, name); err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "Imported %s into %s.\n", name, st.Path())
				return nil
			})
		},
	}
	given = dataFlag(cmd)
	return cmd
}

// dataFlag adds the settings of cardterm sandbox: --data (which
// $CARDTERM_SANDBOX_DATA or the profile's sandbox_data may give instead)
// and --profile.
func dataFlag(cmd *cobra.Command) givenFlags {
	cmd.SilenceUsage = true
	return addSettingFlags(cmd, sandboxSettings)
}

// withStore opens the data directory the settings name, runs do and
// closes it. A directory that does not exist yet is not created: there is
// nothing in it to use.
func withStore(cmd *cobra.Command, given givenFlags, do func(*sandbox.Store) error) error {
	dir, err := dataDirectory(cmd, given)
	if err != nil {
		return err
	}
	st, err := sandbox.OpenStore(dir)
	if err != nil {
		return storeError{err}
	}
	err = do(st)
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	return err
}

// storeError is a data directory's refusal made safe for a terminal: it
// may quote bytes of a damaged file.
type storeError struct{ err error }

func (e storeError) Error() string { return sanitize.Text(e.err.Error()) }
func (e storeError) Unwrap() error { return e.err }

// dataDirectory is the data directory the settings name (--data,
// $CARDTERM_SANDBOX_DATA or the profile), which must exist.
func dataDirectory(cmd *cobra.Command, given givenFlags) (string, error) {
	settings, err := resolveCommandOptions(given, streams{stdout: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr()})
	if err != nil {
		return "", err
	}
	dir := settings.sandboxData
	if dir == "" {
		return "", usageError{"no data directory: give --data DIR (or $" + envSandboxData + ", or sandbox_data in the profile)"}
	}
	if _, err := os.Stat(dir); err != nil {
		return "", fmt.Errorf("data directory %s: %w", dir, err)
	}
	return dir, nil
}
