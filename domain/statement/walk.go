package statement

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"time"

	"cardterm/apiclient"
	"cardterm/domain/ledger"
)

// Query is what a statement holds: the gateway's filters (dates, search,
// categories; Page is ignored, every page is read) and, optionally, a
// test of its own on each transaction (the screen's quick filter).
type Query struct {
	Filter apiclient.TransactionFilter
	// Keep, when set, keeps only the transactions it answers true for.
	Keep func(*apiclient.Transaction) bool
	// MaxPages bounds the walk; 0 means DefaultMaxPages.
	MaxPages int
	// Notes, when set, gives each transaction's note and tags for their
	// columns (domain/notes).
	Notes func(id string) (note, tags string)
}

// DefaultMaxPages bounds a walk whose gateway never sends an empty page:
// a million transactions at the sandbox's page size, far past any real
// statement, reached in minutes rather than never.
const DefaultMaxPages = 100_000

// ErrStopped is what a walk that could not reach the end of the list
// wraps (errors.Is): the gateway sent a page it had sent before, or the
// page cap was reached. What was read before it was handed on.
var ErrStopped = errors.New("the walk stopped before the end of the list")

// stopped is ErrStopped with the reason, as a user reads it.
func stopped(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrStopped, fmt.Sprintf(format, args...))
}

// Progress is how far a walk is: pages and rows read, the day of the
// oldest transaction reached (the list is newest first) and, when the
// query has a date range, the part of it covered (0 to 1; -1 without a
// range, where the total is not known before the end).
type Progress struct {
	Pages, Rows, Kept int
	Reached           string
	Fraction          float64
}

// Walk reads every page of the query's list, newest first, and calls each
// with every transaction kept, read in its gateway's shape
// (ledger.AdoptTransactionShape). One page is held at a time. It stops
// at the first empty page, at each's first error, or when the context
// ends; progress (which may be nil) is called after each page. A gateway
// that ignores the page asked, or never sends an empty page, cannot keep
// it going: a page whose body repeats any page before it (ids or none),
// and the page cap, stop it with ErrStopped, before that page is used.
func Walk(ctx context.Context, client *apiclient.Client, q Query, each func(*apiclient.Transaction) error, progress func(Progress)) (Progress, error) {
	f := q.Filter
	f.Page = 0
	p := Progress{Fraction: -1}
	from, to, ranged := dateRange(f)
	maxPages := q.MaxPages
	if maxPages <= 0 {
		maxPages = DefaultMaxPages
	}
	seen := map[[sha256.Size]byte]int{} // a page's digest → its number
	for {
		if err := ctx.Err(); err != nil {
			return p, err
		}
		if p.Pages >= maxPages {
			return p, stopped("%d pages read and the gateway still sends more; this is the most a walk reads", maxPages)
		}
		page, err := client.Transactions(ctx, f)
		if err != nil {
			return p, fmt.Errorf("page %d: %w", f.Page+1, err)
		}
		list := page.Transactions
		if len(list) == 0 {
			break
		}
		if before, ok := seen[page.Digest]; ok {
			return p, stopped("the gateway answered page %d with page %d again (it may ignore ?page)", f.Page+1, before+1)
		}
		seen[page.Digest] = f.Page
		if err := walkPage(q, list, each, &p); err != nil {
			return p, err
		}
		p.Pages++
		if ranged {
			p.Fraction = covered(from, to, p.Reached)
		}
		if progress != nil {
			progress(p)
		}
		f.Page++
	}
	if ranged {
		p.Fraction = 1
	}
	return p, nil
}

// walkPage hands each kept transaction of one page on, counting.
func walkPage(q Query, list []apiclient.Transaction, each func(*apiclient.Transaction) error, p *Progress) error {
	for i := range list {
		x := &list[i]
		ledger.AdoptTransactionShape(x)
		p.Rows++
		if len(x.DateTime) >= 10 {
			p.Reached = x.DateTime[:10]
		}
		if q.Keep != nil && !q.Keep(x) {
			continue
		}
		p.Kept++
		if err := each(x); err != nil {
			return err
		}
	}
	return nil
}

// dateRange is the query's dates, when it has both.
func dateRange(f apiclient.TransactionFilter) (from, to time.Time, ok bool) {
	from, err1 := time.Parse(time.DateOnly, f.DateFrom)
	to, err2 := time.Parse(time.DateOnly, f.DateTo)
	return from, to.AddDate(0, 0, 1), err1 == nil && err2 == nil
}

// covered is the part of [from, to) walked once the day reached is the
// oldest read.
func covered(from, to time.Time, reached string) float64 {
	day, err := time.Parse(time.DateOnly, reached)
	if err != nil || !to.After(from) {
		return -1
	}
	part := float64(to.Sub(day)) / float64(to.Sub(from))
	return min(max(part, 0), 1)
}

// Summary is what an export wrote.
type Summary struct {
	Progress
	// Totals are the signed amounts per currency of the rows written.
	Totals ledger.Totals
}

// Export writes the query's statement in format to out, page by page.
func Export(ctx context.Context, client *apiclient.Client, q Query, out io.Writer, format Format, progress func(Progress)) (Summary, error) {
	w := NewWriter(out, format)
	w.Notes = q.Notes
	p, err := Walk(ctx, client, q, w.Write, progress)
	if closeErr := w.Close(); err == nil {
		err = closeErr
	}
	return Summary{Progress: p, Totals: w.Totals}, err
}

// dayOf is the YYYY-MM-DD a transaction's time starts with, when it is a
// real day: Reached is drawn in progress lines and headings, so the
// gateway's text never goes there unchecked.
func dayOf(dateTime string) (string, bool) {
	if len(dateTime) < 10 {
		return "", false
	}
	if _, err := time.Parse(time.DateOnly, dateTime[:10]); err != nil {
		return "", false
	}
	return dateTime[:10], true
}
