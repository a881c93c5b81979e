package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"time"

	"cardterm/apiclient"
	"cardterm/domain/guard"
	"cardterm/domain/ledger"
)

// guardWatch is `cardterm guard` running: it reads the first page every
// interval, hands what is new to the rules, oldest first, and does what
// they decide.
type guardWatch struct {
	client   *apiclient.Client
	engine   *guard.Engine
	log      string
	out      io.Writer
	interval time.Duration
	readOnly bool
	seen     map[string]bool
	actions  int
}

// maxGuardWait is the longest a failed read waits before the next.
const maxGuardWait = 10 * time.Minute

// run watches until ctx ends. The first read only learns what is there.
func (w *guardWatch) run(ctx context.Context) error {
	wait := w.interval
	for {
		err := w.read(ctx)
		switch {
		case err == nil:
			wait = w.interval
		case apiclient.IsUnauthorized(err), ctx.Err() != nil:
			return err
		default:
			// A gateway in trouble is not pressed: twice the wait each
			// time, or what it asked for.
			wait = min(wait*2, maxGuardWait)
			var e *apiclient.Error
			if errors.As(err, &e) && e.RetryAfter > wait {
				wait = min(e.RetryAfter, maxGuardWait)
			}
			slog.Warn("guard: reading transactions failed", "err", err, "next", wait)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
	}
}

// read takes the newest page and acts on what is new.
func (w *guardWatch) read(ctx context.Context) error {
	page, err := w.client.Transactions(ctx, apiclient.TransactionFilter{})
	if err != nil {
		return err
	}
	baseline := w.seen == nil
	if baseline {
		w.seen = map[string]bool{}
	}
	var fresh []*apiclient.Transaction
	for i := range page.Transactions {
		x := &page.Transactions[i]
		ledger.AdoptTransactionShape(x)
		if x.ID == "" || w.seen[x.ID] {
			continue
		}
		w.seen[x.ID] = true
		if !baseline {
			fresh = append(fresh, x)
		}
	}
	slices.Reverse(fresh) // the list is newest first
	for _, x := range fresh {
		for _, d := range w.engine.Observe(x) {
			w.act(ctx, d)
		}
	}
	return nil
}

// act does one decision and logs it.
func (w *guardWatch) act(ctx context.Context, d guard.Decision) {
	outcome := "notified"
	if d.Action == guard.Freeze {
		outcome = w.freeze(ctx, d)
	}
	w.actions++
	fmt.Fprintln(w.out, decisionLine(d, outcome))
	if err := guard.Append(w.log, guard.EntryOf(d, time.Now(), outcome)); err != nil {
		slog.Warn("guard: the action log could not be written", "err", err)
	}
}

// freeze freezes the card for a rule that acts alone, unless it is
// frozen already (read first: the holder may have unfrozen it since).
func (w *guardWatch) freeze(ctx context.Context, d guard.Decision) string {
	if !d.Alone {
		return "not asked: the rule asks first (the app asks; alone: true acts here)"
	}
	card, err := w.client.CardStatus(ctx)
	switch {
	case err != nil:
		return "failed: " + apiclient.ErrorMessage(err)
	case card.Status == apiclient.CardFrozen:
		return "not sent: the card is already frozen"
	}
	if err := w.client.FreezeCard(ctx); err != nil {
		return "failed: " + apiclient.ErrorMessage(err)
	}
	return "froze the card"
}
