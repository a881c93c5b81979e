package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"cardterm/apiclient"
	"cardterm/domain/guard"
	"cardterm/domain/statement"
	"cardterm/ui/sanitize"
)

// guardOptions are guard's own flags.
type guardOptions struct {
	dryRun   bool
	interval time.Duration
	rules    string
}

// newGuardCommand is `cardterm guard`: the holder's guard rules run
// headless in the foreground until ctrl+c, or as a dry run over the
// history.
func newGuardCommand(std streams) *cobra.Command {
	var g guardOptions
	var given givenFlags
	cmd := &cobra.Command{
		Use:   "guard",
		Short: "Run the card holder's guard rules in the foreground (or a dry run)",
		Long: `Run the card holder's guard rules (the profile's guard.yaml, edited on the Card
screen with g; docs/guard-rules.md) in the foreground: every --interval it reads
the newest transactions, and each rule that matches notifies (a line here) or
freezes the card with POST /v1/card/freeze. Here nobody can be asked, so only a
rule with alone: true freezes; one that asks first is logged as not asked.
With --read-only every rule only notifies. ctrl+c ends it. A gateway that asks
to wait (429, Retry-After) is waited for.

--dry-run reads every page of the history once and prints what the rules would
have done, oldest first, sending nothing but reads.

Every action is appended to guard-actions.jsonl in the profile's folder, as the
app shows it. A malformed rules file is refused with its line and field.

` + exitCodesHelp,
		Example: `  CARDTERM_USERNAME=alice@demo.test CARDTERM_PASSWORD=demo-pass \
      cardterm guard
  cardterm guard --dry-run
  cardterm guard --read-only --interval 5s`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o, err := resolveCommandOptions(given, std)
			if err != nil {
				return err
			}
			return statusError(runGuard(o, g, std))
		},
	}
	cmd.Flags().BoolVar(&g.dryRun, "dry-run", false, "print what the rules would have done over the history, and stop")
	cmd.Flags().DurationVar(&g.interval, "interval", 10*time.Second, "how often the newest transactions are read (at least 2s)")
	cmd.Flags().StringVar(&g.rules, "rules", "", "the rules file (default: guard.yaml in the profile's folder)")
	given = addSettingFlags(cmd, gatewaySettings)
	cmd.Flags().SortFlags = false
	return cmd
}

// runGuard loads the rules, signs in and runs them.
func runGuard(o options, g guardOptions, std streams) int {
	dir := holderDir(o)
	path := g.rules
	if path == "" {
		path = guard.File(dir)
	}
	rules, err := guard.Load(path) // a *guard.FileError names the line and field
	switch {
	case err != nil:
		fmt.Fprintf(std.stderr, "cardterm: guard: %s\n", sanitize.Text(err.Error()))
		return exitUsage
	case len(rules.Rules) == 0:
		fmt.Fprintf(std.stderr, "cardterm: guard: no rules in %s: write them on the Card screen (g), or see docs/guard-rules.md\n", path)
		return exitUsage
	case g.interval < 2*time.Second:
		fmt.Fprintln(std.stderr, "cardterm guard: --interval must be at least 2s")
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	session, err := signInHolder(ctx, o, std)
	if err != nil {
		fmt.Fprintf(std.stderr, "cardterm: guard: %s\n", sanitize.Text(lookupMessage(err)))
		return exitCodeFor(err)
	}
	defer session.end()
	if g.dryRun {
		return guardDryRun(ctx, session.client, rules, std)
	}
	w := &guardWatch{client: session.client, engine: guard.NewEngine(rules, o.readOnly), log: guard.LogFile(dir),
		out: std.stdout, interval: g.interval, readOnly: o.readOnly}
	mode := ""
	if o.readOnly {
		mode = " (read-only: rules only notify)"
	}
	fmt.Fprintf(std.stderr, "Guarding with %d rules from %s%s; ctrl+c ends.\n", len(rules.Rules), path, mode)
	if err := w.run(ctx); err != nil && ctx.Err() == nil {
		fmt.Fprintf(std.stderr, "cardterm: guard: %s\n", sanitize.Text(lookupMessage(err)))
		return exitCodeFor(err)
	}
	fmt.Fprintf(std.stderr, "Stopped: %d actions.\n", w.actions)
	return exitOK
}

// guardDryRun prints what the rules would have done over every page.
func guardDryRun(ctx context.Context, client *apiclient.Client, rules guard.Rules, std streams) int {
	var history []apiclient.Transaction
	_, err := statement.Walk(ctx, client, statement.Query{}, func(x *apiclient.Transaction) error {
		history = append(history, *x)
		return nil
	}, nil)
	if err != nil {
		fmt.Fprintf(std.stderr, "cardterm: guard: %s\n", sanitize.Text(lookupMessage(err)))
		return exitCodeFor(err)
	}
	decisions := guard.DryRun(rules, history)
	for _, d := range decisions {
		fmt.Fprintln(std.stdout, decisionLine(d, "would "+d.Action))
	}
	fmt.Fprintf(std.stdout, "%d transactions read: the rules would have acted %d times.\n", len(history), len(decisions))
	return exitOK
}

// decisionLine is one decision for a terminal: when, the rule, what, and
// the payment.
func decisionLine(d guard.Decision, what string) string {
	line := fmt.Sprintf("%s  %s: %s  %s %s", d.Transaction.At.Format(time.RFC3339), d.Rule.Name, what, d.Transaction.Amount, d.Transaction.Merchant)
	if d.Why != "" {
		line += " (" + d.Why + ")"
	}
	return sanitize.Text(line)
}
