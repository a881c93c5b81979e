package cli

import (
	"github.com/spf13/cobra"
)

// newSupportCommand is `cardterm support [USER_ID | --onboarding ID]`: the
// support console, consents and audit trails with the client key alone.
func newSupportCommand(std streams) *cobra.Command {
	var given givenFlags
	var onboarding, caseFile, casesDir string
	cmd := &cobra.Command{
		Use:   "support [USER_ID | --onboarding ID]",
		Short: "The support console: a customer's consents and audit trail, no customer sign-in",
		Long: `The support console looks up any customer's consent status, consent sets,
audit trail and onboarding sets with the tenant's client key alone; no
customer signs in. Actions that need the secret key (revoke, link) ask for
it, or are hidden in read-only mode; each one is appended to the action log
in the state directory with the agent and the case's ticket. Exports read
the case again from the gateway. With the customer's approval (ctrl+o: the
customer signs in on their own device), the customer's own screens open
read-only until the session is revoked.

It opens on the desk's queue: every case of the cases folder (which a
team may share with --cases-dir), with owner, status, priority and when
it is due (the profile's response-times); t takes a case, h hands it
over, s and p change its status and priority, enter opens it. Two agents
writing one case merge; nothing either wrote is lost. See also
"support handover", "support bulk" and "support reproduce".

Setting a ticket (T) opens its case, kept in the data folder: look-ups,
notes (n), evidence (ctrl+k, with the request and the SHA-256 of the
answer), runbooks (B) and exports (e). --case FILE opens a case file, from
another agent too, and goes on where it stopped (docs/support-cases.md).

A profile with "start: support" opens the console without this command.`,
		Example: `  cardterm support --base-url https://gateway.example.com \
      --client-key ck_live_... --read-only
  cardterm support --profile acme 6f1c2d...
  cardterm support --onboarding onb_123
  cardterm support --agent eli \
      --case ~/.local/share/cardterm/cases/case-TCK-1234.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageError{"cardterm support: at most one user id (try --help)"}
			}
			if len(args) == 1 && onboarding != "" {
				return usageError{"cardterm support: a user id or --onboarding, not both"}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o, err := resolveCommandOptions(given, std)
			if err != nil {
				return err
			}
			o.support, o.supportOnboarding = true, onboarding
			o.supportCase, o.supportCasesDir = caseFile, casesDir
			if len(args) == 1 {
				o.supportUser = args[0]
			}
			return runApp(o, std)
		},
	}
	cmd.AddCommand(newSupportVerifyLogCommand(), newSupportHandoverCommand(std), newSupportBulkCommand(std), newSupportReproduceCommand(std))
	cmd.Flags().StringVar(&onboarding, "onboarding", "", "look up this onboarding id")
	cmd.Flags().StringVar(&caseFile, "case", "", "open this case file and go on with its last look-up")
	cmd.Flags().StringVar(&casesDir, "cases-dir", "", "keep case files here (default: cardterm/cases in the XDG data folder)")
	given = addSettingFlags(cmd, appSettings)
	cmd.Flags().SortFlags = false
	return cmd
}
