package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Shell completion of flag values: the settings complete their own
// (settings.go: choices, switches, profile names, files for a FILE); every
// other flag that takes a value completes no file names unless its value
// is a file.

// fileFlags are the flags whose value is a file (or holds one: api -F
// key=@FILE), where the shell's file names are right.
var fileFlags = map[string]bool{"debug": true, "body": true, "field": true}

// completeFlagValues registers, on every command of the tree, no file
// names for the flags that take a value that is not a file, and for the
// arguments, unless the command registered its own completion.
func completeFlagValues(cmd *cobra.Command) {
	cmd.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
		if f.Value.Type() == "bool" || fileFlags[f.Name] {
			return
		}
		if _, has := cmd.GetFlagCompletionFunc(f.Name); has {
			return
		}
		_ = cmd.RegisterFlagCompletionFunc(f.Name, cobra.NoFileCompletions)
	})
	// No command takes a file as an argument: no file names there either.
	if cmd.ValidArgsFunction == nil && len(cmd.ValidArgs) == 0 {
		cmd.ValidArgsFunction = cobra.NoFileCompletions
	}
	for _, sub := range cmd.Commands() {
		completeFlagValues(sub)
	}
}

// completeRootArgs completes the root's arguments: look-up names after
// --json, else nothing (cobra offers the commands itself), never files.
func completeRootArgs(cmd *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if asJSON, _ := cmd.Flags().GetBool("json"); asJSON && len(args) == 0 {
		return lookupNames(), cobra.ShellCompDirectiveNoFileComp
	}
	return nil, cobra.ShellCompDirectiveNoFileComp
}
