package sandbox

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// transactionPageSize is how many transactions one page of the list holds.
const transactionPageSize = 50

// cardTransactions: GET /v1/card/transactions?dateFrom&dateTo&searchKey&
// mccCategories&page. Newest first, transactionPageSize a page, page from 0; a page
// past the end is an empty list. 404 when the user never had a card.
func (s *Server) cardTransactions(c *call) {
	q := c.r.URL.Query()
	page := 0
	if v := strings.TrimSpace(q.Get("page")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			c.fail(http.StatusUnprocessableEntity, "page must be a whole number from 0")
			return
		}
		page = n
	}
	from, to := strings.TrimSpace(q.Get("dateFrom")), strings.TrimSpace(q.Get("dateTo"))
	if (from == "") != (to == "") {
		c.fail(http.StatusUnprocessableEntity, "dateFrom and dateTo must be given together")
		return
	}
	if from != "" {
		tf, errF := time.Parse(time.DateOnly, from)
		tt, errT := time.Parse(time.DateOnly, to)
		switch {
		case errF != nil:
			c.fail(http.StatusUnprocessableEntity, "dateFrom must be a date as YYYY-MM-DD")
			return
		case errT != nil:
			c.fail(http.StatusUnprocessableEntity, "dateTo must be a date as YYYY-MM-DD")
			return
		case tt.Before(tf):
			c.fail(http.StatusUnprocessableEntity, "dateTo must not be before dateFrom")
			return
		}
	}
	cats := map[string]bool{}
	for _, v := range q["mccCategories"] {
		for _, part := range strings.Split(v, ",") {
			if part = strings.TrimSpace(part); part != "" {
				cats[strings.ToUpper(part)] = true
			}
		}
	}
	search := strings.ToLower(strings.TrimSpace(q.Get("searchKey")))

	s.mu.Lock()
	s.expireUserAuthorizationsLocked(c.be, c.user)
	username, hasCard, seedHidden := c.user.Username, c.user.Card != nil, c.user.noSeededTransactions
	// What the sandbox added while it runs, newest last: simulated card
	// activity (simulate.go) and appended transactions
	// (transactions_append.go), in time order.
	appended, earlier := slices.Clone(c.user.simulated), c.user.earlierTransactions
	appended = append(appended, c.user.appendedTransactions...)
	s.mu.Unlock()
	slices.SortStableFunc(appended, func(a, b transactionRecord) int { return strings.Compare(a.DateTime, b.DateTime) })
	seeded := seededTransactions(username)
	if seedHidden {
		seeded = nil
	}
	if !hasCard && len(seeded)+len(appended)+len(earlier) == 0 {
		c.fail(http.StatusNotFound, "Card not found")
		return
	}
	skip := page * transactionPageSize
	out := make([]transactionRecord, 0, transactionPageSize)
	transactionsOf(appended, seeded, earlier, func(t *transactionRecord) bool {
		day := t.DateTime[:10]
		switch {
		case from != "" && (day < from || day > to):
			return true
		case len(cats) > 0 && !cats[strings.ToUpper(t.MCCCategory)]:
			return true
		case search != "" && !strings.Contains(strings.ToLower(t.MerchantNameLocation), search) && t.MCC != search:
			return true
		}
		if skip > 0 {
			skip--
			return true
		}
		out = append(out, *t)
		return len(out) < transactionPageSize
	})
	answerInShape(s, c, out, altTransactions)
}
