package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"cardterm/apiclient"
	"cardterm/domain/casefile"
	"cardterm/domain/reproduce"
	"cardterm/domain/runbook"
	"cardterm/sandbox"
	"cardterm/ui/sanitize"
)

// newSupportReproduceCommand is `cardterm support reproduce CASE`: a
// case's customer state as a sandbox fixture, with stand-ins for every
// personal value.
func newSupportReproduceCommand(std streams) *cobra.Command {
	var casesDir, output string
	var given givenFlags
	cmd := &cobra.Command{
		Use:   "reproduce CASE",
		Short: "Turn what a case saw of its customer into a sandbox fixture, without their data",
		Long: `Writes a sandbox fixture that puts the case's customer state on one of the
sandbox's demo users: the consent sets and audit trail (read again with
the client key, as an export does), the card and the verification state
the case kept from an approved session. Every id is replaced by a stable
stand-in (the same id always gets the same one), IP addresses, user agents
and the card holder's name are left out, and the customer's name, e-mail,
phone and address are never read. Load it with cardterm sandbox --fixture
FILE to reproduce the ticket. CASE is a case file or a ticket of the cases
folder. The fixture is for the sandbox's demo tenant: run it with the
sandbox's client key (the default) against the gateway the case was
worked on.`,
		Example: `  cardterm support reproduce TCK-1234 --output repro.json
  cardterm sandbox --fixture repro.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o, err := resolveCommandOptions(given, std)
			if err != nil {
				return err
			}
			return runReproduce(o, args[0], supportCasesDir(casesDir), output, std)
		},
	}
	cmd.Flags().StringVar(&casesDir, "cases-dir", "", "the cases folder a ticket is looked up in (default: cardterm/cases in the XDG data folder)")
	cmd.Flags().StringVarP(&output, "output", "o", "", "write the fixture to FILE (default: stdout)")
	given = addSettingFlags(cmd, gatewaySettings)
	return cmd
}

func runReproduce(o options, caseArg, casesDir, output string, std streams) error {
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
	o.noPrompt, o.support = true, true
	o.us = o.us || lastRegion(c, user) == "US"
	gw, err := chooseGateway(o, nil, std.stderr)
	if err != nil {
		return err
	}
	defer gw.close()
	gw.cfg.SecretKey = ""
	if c.Tenant != "" && c.Tenant != gw.cfg.ClientKey {
		return usageError{"cardterm support reproduce: case " + sanitize.Text(c.Ticket) + " belongs to the tenant " + sanitize.Text(c.Tenant) + ", not " + gw.cfg.ClientKey}
	}
	client := apiclient.New(gw.cfg)
	ctx := context.Background()
	src := reproduce.Source{Case: c, UserID: user}
	if src.Status, err = client.UserConsent(ctx, user, true); err != nil && !apiclient.IsNotFound(err) {
		return err
	}
	trail, err := runbook.ReadAudit(ctx, client, user)
	if err != nil && !apiclient.IsNotFound(err) {
		return err
	}
	src.Audit = trail.Records
	repro, said := reproduce.Build(src, gw.cfg.ClientKey, gw.cfg.US)
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
		sanitize.Text(c.Ticket), stand.Username, stand.ID, sanitize.Text(strings.Join(said, "; ")))
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
