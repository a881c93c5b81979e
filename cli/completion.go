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

// fileFlags are the flags whose value is a file (or holds one: api -F
// key=@FILE), where the shell's file names are right; dirFlags, a
// directory's.
var (
	fileFlags = map[string]bool{"debug": true, "body": true, "field": true, "input": true}
	dirFlags  = map[string]bool{"data": true}
)

// completeFlagValues registers, on every command of the tree, directory
// names for a directory flag and no file names for the flags that take a
// value that is not a file, and for the arguments of a command that takes
// no FILE (sandbox export FILE does), unless the command registered its
// own completion.
func completeFlagValues(cmd *cobra.Command) {
	cmd.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
		if f.Value.Type() == "bool" || fileFlags[f.Name] {
			return
		}
		if _, has := cmd.GetFlagCompletionFunc(f.Name); has {
			return
		}
		if complete, ok := ownCompletions[f.Name]; ok {
			_ = cmd.RegisterFlagCompletionFunc(f.Name, complete)
			return
		}
		if dirFlags[f.Name] {
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

// ownCompletions complete the flags whose values come from cardterm's own
// lists: the built-in themes (or a theme file), the saved views.
var ownCompletions = map[string]cobra.CompletionFunc{
	"theme": func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		var names []cobra.Completion
		for _, t := range theme.BuiltIn {
			names = append(names, t.Name)
		}
		return names, cobra.ShellCompDirectiveDefault // or a theme file
	},
	"view": func(cmd *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		profile, _ := cmd.Flags().GetString("profile")
		views, _ := viewStore(options{profile: profile, profileInUse: profile != ""}).Load()
		screen := "transactions"
		if len(args) > 0 && viewsByLookup[args[0]] != "" {
			screen = viewsByLookup[args[0]]
		}
		return savedview.Names(views, screen), cobra.ShellCompDirectiveNoFileComp
	},
}

// completeRootArgs completes the root's arguments: look-up names after
// --json, else nothing (cobra offers the commands itself), never files.
func completeRootArgs(cmd *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if asJSON, _ := cmd.Flags().GetBool("json"); asJSON && len(args) == 0 {
		return lookupNames(), cobra.ShellCompDirectiveNoFileComp
	}
	return nil, cobra.ShellCompDirectiveNoFileComp
}
