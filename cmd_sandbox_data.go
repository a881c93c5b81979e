package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"cardterm/apiclient/sandbox"
)

// The data directory commands work on a DIR no running sandbox has open
// (the store is locked while one runs: they say so and change nothing).

// newSandboxResetCommand is `cardterm sandbox reset --data DIR`.
func newSandboxResetCommand() *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:     "reset",
		Short:   "Forget every change kept in a data directory: back to the seed",
		Example: `  cardterm sandbox reset --data ./.sandbox`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withStore(dir, func(st *sandbox.Store) error {
				if err := st.Reset(); err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "Reset %s: the sandbox starts from its seed.\n", st.Path())
				return nil
			})
		},
	}
	dataFlag(cmd, &dir)
	return cmd
}

// newSandboxExportCommand is `cardterm sandbox export FILE --data DIR`.
func newSandboxExportCommand() *cobra.Command {
	var dir string
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
			return withStore(dir, func(st *sandbox.Store) error {
				if args[0] == "-" {
					return st.Export(cmd.OutOrStdout())
				}
				return writeFileAtomically(args[0], st.Export)
			})
		},
	}
	dataFlag(cmd, &dir)
	return cmd
}

// newSandboxImportCommand is `cardterm sandbox import FILE --data DIR`.
func newSandboxImportCommand() *cobra.Command {
	var dir string
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
			return withStore(dir, func(st *sandbox.Store) error {
				if err := st.Import(in, name); err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "Imported %s into %s.\n", name, st.Path())
				return nil
			})
		},
	}
	dataFlag(cmd, &dir)
	return cmd
}

// dataFlag adds the required --data flag.
func dataFlag(cmd *cobra.Command, dir *string) {
	cmd.Flags().StringVar(dir, "data", "", "the sandbox's data directory (as given to cardterm sandbox --data)")
	_ = cmd.MarkFlagRequired("data")
	cmd.SilenceUsage = true
}

// withStore opens the data directory, runs do and closes it. A directory
// that does not exist yet is not created: there is nothing in it to use.
func withStore(dir string, do func(*sandbox.Store) error) error {
	if _, err := os.Stat(dir); err != nil {
		return fmt.Errorf("data directory %s: %w", dir, err)
	}
	st, err := sandbox.OpenStore(dir)
	if err != nil {
		return err
	}
	err = do(st)
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeFileAtomically writes path through a temporary file in the same
// directory, synced and renamed, so a reader never sees half a file.
func writeFileAtomically(path string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
