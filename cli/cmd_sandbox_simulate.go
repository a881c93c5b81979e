package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"cardterm/apiclient"
	"cardterm/ui/sanitize"
)

// newSandboxSimulateCommand is `cardterm sandbox simulate`: card activity
// made to happen on a running sandbox (POST /sandbox/simulate), one step
// from the flags or a scenario file played with its delays.
func newSandboxSimulateCommand() *cobra.Command {
	var in apiclient.SimulateRequest
	var scenario string
	var asJSON bool
	var given givenFlags
	cmd := &cobra.Command{
		Use:   "simulate authorization|decline|clearing|refund|increment|reversal|atm | --scenario FILE",
		Short: "Make card activity happen on the sandbox: authorizations, clearings, reversals, refunds, ATM",
		Long: `Ask a running sandbox gateway to make one step of card activity happen on a user's
card, as a card network would: the record joins the user's transactions (GET
/v1/card/transactions, cardterm get transactions) and the matching event goes,
signed, to every active webhook subscribed to it (cardterm listen on the sandbox
subscribes to all of them).

  authorization  a pending debit (transaction.authorized); declined instead with
                 CARD_FROZEN or CARD_BLOCKED when the card is not ACTIVE
  decline        a declined authorization (transaction.declined), --reason
                 saying why (default INSUFFICIENT_FUNDS)
  increment      adds --amount to a pending authorization (a hotel, a fuel pump):
                 an INCREMENTAL_AUTHORIZATION, sent as transaction.authorized
  clearing       settles a pending authorization (transaction.cleared): its own
                 record, authorizationId naming the authorization, which turns
                 CONFIRMED; --authorization ID, default the user's latest; all
                 that is left or a part (--amount), again until all is cleared
  reversal       the merchant cancels a pending authorization: a REVERSAL that
                 releases the whole hold (transaction.reversed), the
                 authorization REVERTED; --reason (default MERCHANT_CANCELLED)
  refund         gives back a cleared authorization, all or --amount of what is
                 left (transaction.refunded), a CREDIT naming its authorization
  atm            a cash withdrawal: an authorization with MCC 6011, channel ATM
                 and a 2.50 EUR fee, cleared like any other

A payment in CHF, GBP or USD is billed in EUR at the seed's rates plus 1.5 %. A
pending authorization expires after 7 days on the sandbox's clock (cardterm sandbox
clock +8d) into a REVERSAL with reason EXPIRED.

--scenario FILE plays a YAML list of steps with delays, for demos:

  user: alice@demo.test          # the steps' user unless one names another
  steps:
    - type: authorization
      name: coffee               # later steps refer to it by this name
      amount: 12.50
      currency: EUR
      merchant: Coffee Corner
      mcc: "5814"
    - type: clearing
      authorization: coffee
      after: 2s                  # wait this long before the step
    - type: decline
      amount: 99
      reason: INSUFFICIENT_FUNDS
      after: 1s
    - type: authorization
      name: hotel
      amount: 200
    - type: clock                # moves the sandbox's clock: the hotel's hold expires
      advance: 8d

The sandbox and the tenant come from the settings, as for sandbox trigger: by
default the sandbox at ` + defaultSandboxURL + ` and its demo tenant. Sandbox only.`,
		Example: `  cardterm sandbox simulate authorization --user alice@demo.test \
      --amount 12.50 --currency EUR --merchant "Coffee Corner" \
      --mcc 5814
  cardterm sandbox simulate clearing --user alice@demo.test
  cardterm sandbox simulate decline --user alice@demo.test --amount 80 \
      --reason INSUFFICIENT_FUNDS
  cardterm sandbox simulate refund --user alice@demo.test --amount 2.50
  cardterm sandbox simulate atm --user alice@demo.test --amount 100
  cardterm sandbox simulate reversal --user alice@demo.test
  cardterm sandbox simulate --scenario demo-payments.yaml`,
		Args:      cobra.MaximumNArgs(1),
		ValidArgs: apiclient.SimulateTypes,
		RunE: func(cmd *cobra.Command, args []string) error {
			var steps []scenarioStep
			switch {
			case scenario != "" && len(args) > 0:
				return usageError{"give a step type or --scenario FILE, not both"}
			case scenario != "":
				var err error
				if steps, err = readScenario(scenario); err != nil {
					return err
				}
			case len(args) == 0:
				return usageError{"name the step (" + strings.Join(apiclient.SimulateTypes, ", ") + ") or give --scenario FILE"}
			default:
				in.Type = args[0]
				steps = []scenarioStep{{request: in}}
			}
			client, baseURL, closeLog, err := sandboxClientFor(cmd, given)
			if err != nil {
				return err
			}
			defer closeLog()
			return playScenario(cmd.Context(), client, steps, func(res apiclient.SimulateResult) {
				printSimulated(cmd.OutOrStdout(), res, asJSON)
			}, cmd.ErrOrStderr(), func(err error) error { return sandboxToolError(err, baseURL) })
		},
	}
	cmd.SilenceUsage = true
	f := cmd.Flags()
	f.StringVar(&in.User, "user", "", "user id or username whose card pays (default: the tenant's first demo user)")
	f.StringVar(&in.Amount, "amount", "", "amount in --currency, such as 12.50 (a clearing defaults to its authorization's, a refund to what is left)")
	f.StringVar(&in.Currency, "currency", "", "currency of the amount: EUR (default), CHF, GBP or USD")
	f.StringVar(&in.Merchant, "merchant", "", "merchant name and location, such as \"Coffee Corner, Paris FR\"")
	f.StringVar(&in.MCC, "mcc", "", "merchant category code, four digits (5814 fast food, 5411 groceries)")
	f.StringVar(&in.Reason, "reason", "", "a decline's or reversal's reason, such as INSUFFICIENT_FUNDS, LIMIT_EXCEEDED, MERCHANT_CANCELLED")
	f.StringVar(&in.AuthorizationID, "authorization", "", "the authorization a clearing, increment, reversal or refund refers to (default: the user's latest)")
	f.StringVar(&scenario, "scenario", "", "YAML file of steps to play in order, with delays")
	f.BoolVar(&asJSON, "json", false, "print each answer as the sandbox sent it, indented as every --json output is")
	_ = cmd.MarkFlagFilename("scenario", "yaml", "yml")
	given = addSettingFlags(cmd, gatewaySettings)
	return cmd
}

// printSimulated says what a step made: one line and where its event went,
// or the sandbox's answer, its fields in the order sent, indented as
// writeJSON indents (a scenario prints one answer after another).
func printSimulated(out io.Writer, res apiclient.SimulateResult, asJSON bool) {
	if asJSON {
		var indented bytes.Buffer
		if json.Indent(&indented, res.Raw, "", "  ") != nil {
			indented.Reset() // not the sandbox's answer: the fields read from it
			b, _ := json.MarshalIndent(res, "", "  ")
			indented.Write(b)
		}
		_, _ = out.Write(append(sanitize.JSON(indented.Bytes()), '\n'))
		return
	}
	t := res.Transaction
	what := strings.ToLower(sanitize.Text(t.TransactionType))
	if t.Status == "DECLINED" {
		what = "decline"
	}
	fmt.Fprintf(out, "%s %s: %s %s %s at %s, %s", capitalize(what), sanitize.Text(t.ID), sanitize.Text(t.Sign), sanitize.Text(t.TransactionAmount),
		sanitize.Text(t.TransactionCurrency), sanitize.Text(t.Merchant), sanitize.Text(t.Status))
	if t.DeclineReason != nil {
		fmt.Fprintf(out, " (%s)", sanitize.Text(*t.DeclineReason))
	}
	if t.AuthorizationID != "" {
		fmt.Fprintf(out, ", of authorization %s", sanitize.Text(t.AuthorizationID))
	}
	fmt.Fprintln(out)
	if len(res.Deliveries) == 0 {
		fmt.Fprintf(out, "  %s (event %s): no active webhook is subscribed to it\n", sanitize.Text(res.EventType), sanitize.Text(res.EventID))
		return
	}
	fmt.Fprintf(out, "  %s (event %s) sent to %d webhook(s):\n", sanitize.Text(res.EventType), sanitize.Text(res.EventID), len(res.Deliveries))
	for _, d := range res.Deliveries {
		fmt.Fprintf(out, "    %s  %s\n", sanitize.Text(d.Name), sanitize.Text(d.URL))
	}
}

// capitalize upper-cases the first letter of an ASCII word.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
