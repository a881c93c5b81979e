package cli

import "github.com/spf13/cobra"

// newGetCommand is `cardterm get LOOKUP [ARGS]`: one read-only look-up
// printed as JSON, for scripts; with --json an error answer is printed
// too. `cardterm --json LOOKUP` is `cardterm get LOOKUP --json`.
func newGetCommand(std streams) *cobra.Command {
	var given givenFlags
	var asJSON bool
	var statementOptions *statementFlags
	var jq, view, watch string
	cmd := &cobra.Command{
		Use:   "get LOOKUP [ARGS]",
		Short: "Run one read-only look-up and print it as JSON",
		Long: `Run one read-only look-up and print the gateway's answer as JSON, every field
it sent included. The look-ups:

` + lookupUsage() + `
Look-ups marked * sign in as $CARDTERM_USERNAME with $CARDTERM_PASSWORD (on the
embedded sandbox, the first demo user) and sign out after; the others need
only the client key. No look-up asks for the secret key.

budgets (signs in *) adds this month's spending up against the budgets kept
in the profile's folder (set on the Spending screen), as JSON with the month,
each budget's limit, spent, left and percent used (docs/budgets.md).

transactions also writes statements: --all walks every page, --since and
--until (YYYY-MM-DD, UTC) ask the gateway for a date range, and --format
csv|json|jsonl writes one row per transaction (amounts signed and exact,
times in UTC; the columns are in docs/statements.md) as the pages arrive.
On a terminal a progress line on stderr says how far it is.

The answer is always JSON; with --json, an error answer is printed on stdout as
well, as the gateway sent it (its message still goes to stderr and the exit
code still says which kind), so a script can read the gateway's own fields.

` + exitCodesHelp,
		Example: `  cardterm get consent 6f1c2d...
  cardterm get audit 6f1c2d... 100 --profile acme
  CARDTERM_USERNAME=alice@demo.test CARDTERM_PASSWORD=demo-pass \
      cardterm get card
  # the error answer on stdout
  cardterm get card --json || echo "refused: exit $?"
  cardterm get card --jq .status
  cardterm --json user          # the same as: cardterm get user --json
  cardterm get transactions --view travel   # a view saved in the app
  cardterm get whitelist --view landlords   # the view's currency
  cardterm get consent --view "case 4411"   # the view's user id
  cardterm get card --watch 1   # redrawn every second, changes marked
  cardterm get budgets --json
  cardterm get transactions --since 2026-01-01 \
      --until 2026-06-30 --all --format csv > h1.csv`,
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
			o.json, o.view = asJSON, view
			if len(args) > 0 && args[0] == "budgets" {
				return statusError(runBudgets(o, args, std, cmd.CommandPath()))
			}
			if view != "" && statementOptions.given() {
				return usageError{"--view reads one page of a saved view; it does not go with the statement flags"}
			}
			if cmd.Flags().Changed("watch") {
				interval, rest, err := watchArgs(watch, args)
				if err != nil {
					return err
				}
				if statementOptions.given() || jq != "" {
					return usageError{"--watch redraws one look-up; it does not go with --jq or the statement flags"}
				}
				return statusError(runWatch(o, interval, rest, std, cmd.CommandPath()))
			}
			if statementOptions.given() {
				return statusError(runStatement(o, statementOptions, args, std, cmd.CommandPath()))
			}
			if jq != "" {
				if o.jq, err = compileJQ(jq); err != nil {
					return err
				}
			}
			return statusError(runLookup(o, args, std, cmd.CommandPath()))
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print an error answer on stdout too, as the gateway sent it")
	statementOptions = addStatementFlags(cmd)
	cmd.Flags().StringVarP(&jq, "jq", "q", "", "print what the jq `expression` selects from the answer (strings unquoted), as cardterm api --jq")
	cmd.Flags().StringVar(&view, "view", "", "the filters of the view saved under `NAME` in the app: transactions, whitelist (its currency), consent, audit (its user id), onboarding (docs/views.md)")
	cmd.Flags().StringVar(&watch, "watch", "", "read the look-up again every `INTERVAL` (seconds or a duration; 2s when left out), marking what changed; piped, one JSON line per change; ctrl+c stops")
	cmd.Flags().Lookup("watch").NoOptDefVal = defaultWatchInterval.String()
	given = addSettingFlags(cmd, gatewaySettings)
	cmd.Flags().SortFlags = false
	return cmd
}
