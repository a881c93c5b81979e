package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"cardterm/apiclient"
	"cardterm/domain/ledger"
	"cardterm/domain/notes"
	"cardterm/domain/statement"
	"cardterm/ui/sanitize"
)

// statementFlags are get's flags for a statement of card transactions:
// `cardterm get transactions --since DATE --until DATE --all --format csv`.
type statementFlags struct {
	since, until, format string
	all                  bool
}

// addStatementFlags adds them to get.
func addStatementFlags(cmd *cobra.Command) *statementFlags {
	var s statementFlags
	cmd.Flags().StringVar(&s.since, "since", "", "transactions: from this day (YYYY-MM-DD, UTC)")
	cmd.Flags().StringVar(&s.until, "until", "", "transactions: up to this day included (YYYY-MM-DD, UTC; default today)")
	cmd.Flags().BoolVar(&s.all, "all", false, "transactions: walk every page and write every row")
	cmd.Flags().StringVar(&s.format, "format", "", "transactions: write rows as csv, json or jsonl (docs/statements.md) instead of the gateway's JSON")
	return &s
}

// given reports whether any statement flag was given.
func (s *statementFlags) given() bool {
	return s.since != "" || s.until != "" || s.all || s.format != ""
}

// runStatement is `cardterm get transactions` with a statement flag: the
// rows of one page (PAGE, default 1) or, with --all, of every page,
// written to stdout as they arrive. On a terminal a progress line on
// stderr says how far it is; a summary line there says what was written.
func runStatement(o options, s *statementFlags, args []string, std streams, command string) int {
	usage := func(msg string) int {
		return lookupFailed(std.stderr, command, "", usageError{msg})
	}
	if len(args) == 0 || args[0] != "transactions" {
		return usage("--since, --until, --all and --format go with the transactions look-up")
	}
	page, err := optionalInt(args[1:], "PAGE", 1)
	switch {
	case err != nil:
		return usage(lookupMessage(err))
	case len(args) > 2:
		return usage(fmt.Sprintf("transactions takes [PAGE], not %q", strings.Join(args[1:], " ")))
	case s.all && len(args) == 2:
		return usage("--all reads every page: give no PAGE with it")
	}
	format := statement.JSON
	if s.format != "" {
		if format, err = statement.ParseFormat(s.format); err != nil {
			return usage("--format: " + err.Error())
		}
	}
	filter := apiclient.TransactionFilter{DateFrom: s.since, DateTo: s.until, Page: page - 1}
	if s.since != "" && s.until == "" {
		filter.DateTo = time.Now().UTC().Format(time.DateOnly)
	}
	if s.until != "" && s.since == "" {
		return usage("--until needs --since (the gateway takes both dates together)")
	}
	if errs := filter.Validate(); len(errs) > 0 {
		names := map[string]string{"dateFrom": "--since", "dateTo": "--until"}
		flags := strings.NewReplacer("the from date", "--since", "the to date", "--until")
		return usage(names[errs[0].Field] + " " + flags.Replace(errs[0].Message))
	}

	o.noPrompt, o.secrets = true, nil
	gw, err := chooseGateway(o, std.stdin, std.stderr)
	if err != nil {
		return usage(err.Error())
	}
	defer gw.close()
	client := apiclient.New(gw.cfg)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fail := func(err error) int { return lookupFailed(std.stderr, command, "transactions", err) }
	user, signOut, err := signIn(ctx, client, gw, "transactions")
	if err != nil {
		return fail(err)
	}
	defer signOut()

	if err := writeStatement(ctx, client, o, user, s.all, filter, format, std); err != nil {
		return fail(err)
	}
	return exitOK
}

// writeStatement writes the rows of one page or, with all, of every
// page, the holder's notes and tags in their columns (domain/notes); on
// a terminal a progress line, then a summary, go to stderr.
func writeStatement(ctx context.Context, client *apiclient.Client, o options, user string, all bool, filter apiclient.TransactionFilter, format statement.Format, std streams) error {
	book, err := notes.Load(notes.File(holderDir(o), user))
	if err != nil {
		return err
	}
	progress := newProgressLine(std.stderr)
	var sum statement.Summary
	if all {
		sum, err = statement.Export(ctx, client, statement.Query{Filter: filter, Notes: book.Columns}, std.stdout, format, progress.show)
	} else {
		sum, err = onePage(ctx, client, filter, std.stdout, format, book.Columns)
	}
	progress.clear()
	if err != nil {
		return err
	}
	if progress.on {
		fmt.Fprintf(std.stderr, "%d transactions from %d pages; amounts %s\n", sum.Kept, sum.Pages, orNone(sum.Totals.String()))
	}
	return nil
}

// onePage writes the rows of the filter's page.
func onePage(ctx context.Context, client *apiclient.Client, filter apiclient.TransactionFilter, out io.Writer, format statement.Format, notes func(id string) (string, string)) (statement.Summary, error) {
	w := statement.NewWriter(out, format)
	w.Notes = notes
	page, err := client.Transactions(ctx, filter)
	if err != nil {
		return statement.Summary{}, err
	}
	for i := range page.Transactions {
		x := &page.Transactions[i]
		ledger.AdoptTransactionShape(x)
		if err := w.Write(x); err != nil {
			return statement.Summary{}, err
		}
	}
	err = w.Close()
	return statement.Summary{Progress: statement.Progress{Pages: 1, Rows: w.Rows(), Kept: w.Rows()}, Totals: w.Totals}, err
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// progressLine is the line a statement keeps up to date on a terminal's
// stderr: rows, pages, the day reached, the part of the range covered.
// Off when stderr is not a terminal (a script's log stays clean).
type progressLine struct {
	out  io.Writer
	on   bool
	last time.Time
}

func newProgressLine(stderr io.Writer) *progressLine {
	return &progressLine{out: stderr, on: isTerminal(stderr)}
}

// show rewrites the line, at most ten times a second.
func (p *progressLine) show(at statement.Progress) {
	if !p.on || time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last = time.Now()
	line := fmt.Sprintf("%d transactions, %d pages", at.Kept, at.Pages)
	if at.Reached != "" {
		line += ", back to " + sanitize.Bounded(at.Reached, 32)
	}
	if at.Fraction >= 0 {
		line += fmt.Sprintf(" (%d%%)", int(at.Fraction*100))
	}
	fmt.Fprintf(p.out, "\r\x1b[2K%s", line)
}

// clear takes the line away.
func (p *progressLine) clear() {
	if p.on && !p.last.IsZero() {
		fmt.Fprint(p.out, "\r\x1b[2K")
	}
}
