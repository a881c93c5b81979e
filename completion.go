package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Shell completion of flag values: the values a flag takes where they are
// few, and never file names for a value that is not a file.

// flagValues are the values of the flags that take one of a few.
var flagValues = map[string][]cobra.Completion{
	"environment": {"production\tthe default for a remote gateway", "staging", "sandbox"},
	"start":       {"sign-in\tthe sign-in screen (the default)", "support\tthe support console"},
}

// fileFlags are the flags whose value is a file (or holds one: api -F
// key=@FILE), where the shell's file names are right.
var fileFlags = map[string]bool{"debug": true, "body": true, "field": true}

// completeFlagValues registers, on every command of the tree, the values
// of flagValues and no file names for the other flags that take a value,
// unless the command registered its own completion.
func completeFlagValues(cmd *cobra.Command) {
	cmd.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
		if f.Value.Type() == "bool" || fileFlags[f.Name] {
			return
		}
		if _, has := cmd.GetFlagCompletionFunc(f.Name); has {
			return
		}
		values := flagValues[f.Name]
		_ = cmd.RegisterFlagCompletionFunc(f.Name, func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return values, cobra.ShellCompDirectiveNoFileComp
		})
	})
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
