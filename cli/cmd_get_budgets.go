package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"cardterm/apiclient"
	"cardterm/domain/budget"
	"cardterm/domain/statement"
)

// budgetsReport is what `get budgets --json` prints.
type budgetsReport struct {
	Month   string            `json:"month"`
	Budgets []budget.Progress `json:"budgets"`
}

// runBudgets is `cardterm get budgets`: this month's spending against
// each budget kept in the profile's folder, read over every page of this
// month's transactions, as JSON like every look-up (--json changes
// nothing: there is no gateway answer of its own to print).
func runBudgets(o options, args []string, std streams, command string) int {
	if len(args) > 1 {
		return lookupFailed(std.stderr, command, "", usageError{fmt.Sprintf("budgets takes no arguments, not %q", args[1])})
	}
	book, err := budget.Load(budget.File(holderDir(o)))
	if err != nil {
		return lookupFailed(std.stderr, command, "budgets", asUsage(err))
	}
	now := time.Now().UTC()
	report := budgetsReport{Month: budget.Month(now), Budgets: []budget.Progress{}}
	if len(book.Budgets) > 0 {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		if report.Budgets, err = measureBudgets(ctx, o, std, book, now); err != nil {
			return lookupFailed(std.stderr, command, "budgets", err)
		}
	}
	out, _ := json.MarshalIndent(report, "", "  ")
	_, _ = std.stdout.Write(append(out, '\n'))
	return exitOK
}

// measureBudgets signs in and adds this month's transactions up.
func measureBudgets(ctx context.Context, o options, std streams, book budget.Book, now time.Time) ([]budget.Progress, error) {
	session, err := signInHolder(ctx, o, std)
	if err != nil {
		return nil, err
	}
	defer session.end()
	month := budget.Month(now)
	tracker := budget.NewTracker(book, month)
	filter := apiclient.TransactionFilter{DateFrom: month + "-01", DateTo: now.Format(time.DateOnly)}
	_, err = statement.Walk(ctx, session.client, statement.Query{Filter: filter}, func(x *apiclient.Transaction) error {
		tracker.Count(x)
		return nil
	}, nil)
	return tracker.Progress(), err
}
