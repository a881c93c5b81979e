package cli

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"cardterm/domain/savedview"
	"cardterm/theme"
)

// Shell completion of flag values: the settings complete their own
// (settings.go: choices, switches, profile names, files for a FILE); every
// other flag that takes a value completes no file names unless its value
// is a file.

// fileFlag reports whether the flag's value is a file (or holds one: api
// -F key=@FILE), where the shell's file names are right; dirFlag, a
// directory. (Switches and a function, not package maps, which are built
// before main on every start.)
func fileFlag(name string) bool {
	switch name {
	case "debug", "body", "field", "input":
		return true
	}
	return false
}

func dirFlag(name string) bool { return name == "data" }

// completeFlagValues registers, on every command of the tree, directory
// names for a directory flag and no file names for the flags that take a
// value that is not a file, and for the arguments of a command that takes
// no FILE (sandbox export FILE does), unless the command registered its
// own completion.
func completeFlagValues(cmd *cobra.Command) {
	cmd.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
		if f.Value.Type() == "bool" || fileFlag(f.Name) {
			return
		}
		if _, has := cmd.GetFlagCompletionFunc(f.Name); has {
			return
		}
		if complete := ownCompletion(f.Name); complete != nil {
			_ = cmd.RegisterFlagCompletionFunc(f.Name, complete)
			return
		}
		if dirFlag(f.Name) {
			_ = cmd.RegisterFlagCompletionFunc(f.Name, cobra.FixedCompletions(nil, cobra.ShellCompDirectiveFilterDirs))
			return
		}
		_ = cmd.RegisterFlagCompletionFunc(f.Name, cobra.NoFileCompletions)
	})
	takesFile := strings.Contains(cmd.Use, "FILE")
	if cmd.ValidArgsFunction == nil && len(cmd.ValidArgs) == 0 && !takesFile {
		cmd.ValidArgsFunction = cobra.NoFileCompletions
	}
	for _, sub := range cmd.Commands() {
		completeFlagValues(sub)
	}
}

// ownCompletion completes a flag whose values come from cardterm's own
// lists: the built-in themes (or a theme file), the saved views; nil for
// another flag.
func ownCompletion(flag string) cobra.CompletionFunc {
	switch flag {
	case "theme":
		return completeThemes
	case "view":
		return completeViews
	}
	return nil
}

func completeThemes(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	var names []cobra.Completion
	for _, t := range theme.BuiltIn {
		names = append(names, t.Name)
	}
	return names, cobra.ShellCompDirectiveDefault // or a theme file
}

func completeViews(cmd *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	profile, _ := cmd.Flags().GetString("profile")
	views, _ := viewStore(options{profile: profile, profileInUse: profile != ""}).Load()
	screen := "transactions"
	if len(args) > 0 {
		if viewed, ok := viewScreen(args[0]); ok {
			screen = viewed
		}
	}
	return savedview.Names(views, screen), cobra.ShellCompDirectiveNoFileComp
}

// completeRootArgs completes the root's arguments: look-up names after
// --json, else nothing (cobra offers the commands itself), never files.
func completeRootArgs(cmd *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if asJSON, _ := cmd.Flags().GetBool("json"); asJSON && len(args) == 0 {
		return lookupNames(), cobra.ShellCompDirectiveNoFileComp
	}
	return nil, cobra.ShellCompDirectiveNoFileComp
}
