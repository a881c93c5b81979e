package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"cardterm/domain/recordcommand"
	"cardterm/ui/keymap"
)

// The user's files beside the config: keys.yaml and commands.yaml.
// `cardterm keys`: every action the keys run, by its stable name, with the
// keys in force (the defaults, or keys.yaml's) and where they come from.

// keysPath is $XDG_CONFIG_HOME/cardterm/keys.yaml, beside the config.
func keysPath() string { return filepath.Join(filepath.Dir(configPath()), "keys.yaml") }

// useKeysFile puts the user's keys file in force, or refuses it with its
// file, line and action (a usage error: the user fixes the file).
func useKeysFile() error {
	file, err := keymap.Load(keysPath())
	if err != nil {
		return usageError{"keys file refused: " + err.Error()}
	}
	keymap.Use(file)
	return nil
}

// commandsPath is $XDG_CONFIG_HOME/cardterm/commands.yaml, beside the
// config: the user's commands on a record (docs/commands.md).
func commandsPath() string { return filepath.Join(filepath.Dir(configPath()), "commands.yaml") }

// loadCommandsFile reads the user's commands, or refuses the file with
// its line (a usage error: the user fixes the file).
func loadCommandsFile() (*recordcommand.File, error) {
	file, err := recordcommand.Load(commandsPath())
	if err != nil {
		return nil, usageError{"commands file refused: " + err.Error()}
	}
	return file, nil
}

// keyActionJSON is one action in `cardterm keys --json`.
type keyActionJSON struct {
	Action string   `json:"action"`
	Keys   []string `json:"keys"`
	Help   string   `json:"help"`
	Title  string   `json:"title"`
	Source string   `json:"source"`
}

func newKeysCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "keys",
		Short: "List every action and the keys that run it",
		Long: `List every action the app's keys run, by its stable name (card.freeze,
global.help), with the keys in force and where they come from: "default",
or the line of the keys file that binds them.

The keys file is keys.yaml beside the config file. Each line binds an
action to a key or a list of keys, which replace its defaults:

  card.freeze: F
  global.help: ["?", f10]

An unknown action, a bad key name, or two actions on one key in one
context (a screen, or the global keys) is refused when the app starts,
with the file, the line and the action. See docs/keys.md.`,
		Example: "  cardterm keys\n  cardterm keys --json | jq '.[] | select(.source != \"default\")'",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := useKeysFile(); err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), keysJSON())
			}
			return writeKeys(cmd)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the actions as a JSON array")
	return cmd
}

func keysJSON() []keyActionJSON {
	all := keymap.All()
	out := make([]keyActionJSON, len(all))
	for i, a := range all {
		out[i] = keyActionJSON{Action: a.Name, Keys: a.Keys, Help: a.Help, Title: a.Title, Source: sourceOf(a)}
	}
	return out
}

func sourceOf(a keymap.Action) string {
	if a.Source == "" {
		return "default"
	}
	return a.Source
}

func writeKeys(cmd *cobra.Command) error {
	w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ACTION\tKEYS\tWHAT IT DOES\tFROM")
	for _, a := range keymap.All() {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", a.Name, strings.Join(a.Keys, " "), a.Title, sourceOf(a))
	}
	return w.Flush()
}
