package main

import "github.com/spf13/cobra"

// newGetCommand is `cardterm get LOOKUP [ARGS]`: one read-only look-up
// printed as JSON, for scripts; `cardterm --json LOOKUP` is the same.
func newGetCommand(std streams) *cobra.Command {
	var given givenFlags
	cmd := &cobra.Command{
		Use:   "get LOOKUP [ARGS]",
		Short: "Run one read-only look-up and print it as JSON",
		Long: `Run one read-only look-up and print the gateway's answer as JSON, every field
it sent included. The look-ups:

` + lookupUsage() + `
Look-ups marked * sign in as $CARDTERM_USERNAME with $CARDTERM_PASSWORD (on the
embedded sandbox, the first demo user) and sign out after; the others need
only the client key. No look-up asks for the secret key.

` + exitCodesHelp,
		Example: `  cardterm get consent 6f1c2d...
  cardterm get audit 6f1c2d... 100 --profile acme
  CARDTERM_USERNAME=alice@demo.test CARDTERM_PASSWORD=demo-pass cardterm get card
  cardterm --json user          # the same as: cardterm get user`,
		// runLookup says what is missing, with the list of look-ups.
		Args: cobra.ArbitraryArgs,
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return lookupNames(), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o, err := resolveCommandOptions(given, std)
			if err != nil {
				return err
			}
			o.json, o.noPrompt = true, true
			return statusError(runLookup(o, args, std.stdin, std.stdout, std.stderr))
		},
	}
	given = addSettingFlags(cmd, gatewaySettings)
	cmd.Flags().SortFlags = false
	return cmd
}
