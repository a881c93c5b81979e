package cli

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"cardterm/domain/casefile"
	"cardterm/domain/reproduce"
	"cardterm/sandbox"
	"cardterm/ui/sanitize"
)

// newSupportReproduceCommand is `cardterm support reproduce CASE`: a
// case's customer state as a sandbox fixture, with stand-ins for every
// personal value. It reads the case alone: no gateway is asked.
func newSupportReproduceCommand(std streams) *cobra.Command {
	var casesDir, output string
	cmd := &cobra.Command{
		Use:   "reproduce CASE",
		Short: "Turn what a case saw of its customer into a sandbox fixture, without their data",
		Long: `Writes a sandbox fixture that puts the case's customer state on a user of
the sandbox's own demo tenant, from what the case recorded alone: the
consent sets and audit records, the card, the verification state, the
wallets (internal, linked, external, with balances, currencies and
networks) and the card transactions (amounts, currencies, statuses, MCCs,
dates and merchants) kept with ctrl+k in a customer-approved session;
the card and the verification state also as a runbook's facts kept them.

Nothing is sent to any gateway, so a case of any tenant, gateway or
region (EU or US) is reproduced; the customer's tenant ids and keys are
not copied. Every id is replaced by a stable stand-in (the same id always
gets the same one), wallet addresses by addresses of the same format,
merchant text loses any card number, e-mail or name of the customer, and
IP addresses, user agents, the card holder's name, e-mail, phone and
address are left out. The command says which parts the case did not hold
and how to gather them; a case holding none of them writes no fixture
(exit 1). Load the fixture with cardterm sandbox --fixture
FILE. CASE is a case file or a ticket of the cases folder.`,
		Example: `  cardterm support reproduce TCK-1234 --output repro.json
  cardterm sandbox --fixture repro.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReproduce(args[0], supportCasesDir(casesDir), output, std)
		},
	}
	cmd.Flags().StringVar(&casesDir, "cases-dir", "", "the cases folder a ticket is looked up in (default: cardterm/cases in the XDG data folder)")
	cmd.Flags().StringVarP(&output, "output", "o", "", "write the fixture to FILE (default: stdout)")
	return cmd
}

func runReproduce(caseArg, casesDir, output string, std streams) error {
	path := caseArg
	if _, err := os.Stat(path); err != nil {
		path = casefile.PathFor(casesDir, caseArg)
	}
	c, err := casefile.Load(path)
	if err != nil {
		return err
	}
	user := c.Customer()
	if user == "" {
		return usageError{"cardterm support reproduce: case " + sanitize.Text(c.Ticket) + " has no user look-up: there is no customer to reproduce"}
	}
	repro, report := reproduce.Build(c, lastRegion(c, user) == "US")
	if len(report.Held) == 0 {
		// A fixture of nothing would start the demo user as it is and
		// pass for a reproduction: say what to gather instead.
		for _, missing := range report.Missing {
			fmt.Fprintf(std.stderr, "cardterm: not in the case: %s\n", sanitize.Text(missing))
		}
		return fmt.Errorf("case %s holds nothing of its customer's state to reproduce; no fixture written", sanitize.Text(c.Ticket))
	}
	repro.Avoid = []string{user}
	var buf bytes.Buffer
	stand, err := sandbox.WriteRepro(&buf, repro)
	if err != nil {
		return err
	}
	if output == "" || output == "-" {
		_, err = std.stdout.Write(buf.Bytes())
	} else {
		err = os.WriteFile(output, buf.Bytes(), 0o600)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(std.stderr, "cardterm: case %s reproduced on the sandbox's demo user %s (%s): %s\n",
		sanitize.Text(c.Ticket), stand.Username, stand.ID, sanitize.Text(strings.Join(report.Held, "; ")))
	for _, missing := range report.Missing {
		fmt.Fprintf(std.stderr, "cardterm: not in the case: %s\n", sanitize.Text(missing))
	}
	return nil
}

// lastRegion is the region the case last looked the user up in.
func lastRegion(c *casefile.Case, user string) string {
	for i := len(c.Lookups) - 1; i >= 0; i-- {
		if c.Lookups[i].ID == user {
			return c.Lookups[i].Region
		}
	}
	return ""
}
