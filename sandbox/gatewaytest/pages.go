// Package gatewaytest holds gateways for tests that a careful client must
// survive: a strict one that fails the test on any request outside the
// gateway interface (strict.go), one whose transaction pages never end
// (pages.go) and one that asks a client to wait (retry_after.go). Each
// wraps a real gateway's handler (the sandbox's) and answers over HTTP.
// SetPINInBrowser (hosted_pin.go) uses the hosted set-PIN page as a
// browser does.
package gatewaytest

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
)

// transactionsPath is the list the statement walks page by page.
const transactionsPath = "/v1/card/transactions"

// RepeatingPages answers every page of the transaction list with the same
// three transactions, whatever ?page asks (a gateway that ignores it),
// with ids or, when withIDs is false, without any; every other request
// goes to next. Served counts the pages it answered.
type RepeatingPages struct {
	Next    http.Handler
	WithIDs bool
	served  atomic.Int64
}

func (g *RepeatingPages) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet || r.URL.Path != transactionsPath {
		g.Next.ServeHTTP(w, r)
		return
	}
	g.served.Add(1)
	w.Header().Set("Content-Type", "application/json")
	var rows []string
	for i := 1; i <= 3; i++ {
		id := ""
		if g.WithIDs {
			id = fmt.Sprintf(`"id":"tx-%d",`, i)
		}
		rows = append(rows, fmt.Sprintf(`{%s"dateTime":"2030-05-0%dT10:00:00Z","sign":"DEBIT","merchantNameLocation":"Shop %d",`+
			`"transactionAmount":"1.0%d","transactionCurrency":"EUR","billingAmount":"1.0%d","billingCurrency":"EUR","status":"CONFIRMED"}`, id, i, i, i, i))
	}
	fmt.Fprint(w, "["+strings.Join(rows, ",")+"]")
}

// Served is how many pages of the list were answered.
func (g *RepeatingPages) Served() int64 { return g.served.Load() }

// EndlessPages answers each page of the transaction list with a new
// transaction, for ever: no page is ever empty or repeated. Every other
// request goes to Next.
type EndlessPages struct {
	Next   http.Handler
	served atomic.Int64
}

func (g *EndlessPages) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet || r.URL.Path != transactionsPath {
		g.Next.ServeHTTP(w, r)
		return
	}
	n := g.served.Add(1)
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `[{"id":"tx-%d","dateTime":"2030-05-01T10:00:00Z","sign":"DEBIT","transactionAmount":"1.00","transactionCurrency":"EUR","status":"CONFIRMED"}]`, n)
}

// Served is how many pages of the list were answered.
func (g *EndlessPages) Served() int64 { return g.served.Load() }
