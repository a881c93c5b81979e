package apiclient_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

func sandboxOptions() sandbox.Options { return sandbox.Options{} }

func asErr(err error, e **apiclient.Error) bool { return errors.As(err, e) }

func TestTransactionsAgainstSandbox(t *testing.T) {
	ctx := context.Background()
	g := newGateway(t, sandboxOptions())
	c := g.client()
	login(t, c, "alice@demo.test")
	p0, err := c.Transactions(ctx, apiclient.TransactionFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p0.Transactions) != 50 || p0.Page != 0 {
		t.Fatalf("page 0: %d", len(p0.Transactions))
	}
	first := p0.Transactions[0]
	if first.ID == "" || first.DateTime == "" || first.MCCCategory == "" || first.TransactionAmount == "" || first.Extra["channel"] == nil {
		t.Fatalf("fields: %+v", first)
	}
	p1, err := c.Transactions(ctx, apiclient.TransactionFilter{Page: 1})
	if err != nil || p1.Transactions[0].ID == first.ID || p1.Page != 1 {
		t.Fatalf("page 1: %v", err)
	}
	f, err := c.Transactions(ctx, apiclient.TransactionFilter{MCCCategories: []string{"TRAVEL"}, DateFrom: "2026-06-01", DateTo: "2026-11-30", SearchKey: "a"})
	if err != nil || len(f.Transactions) == 0 {
		t.Fatalf("filtered: %v", err)
	}
	for _, x := range f.Transactions {
		if x.MCCCategory != "TRAVEL" || x.DateTime[:10] < "2026-06-01" {
			t.Fatalf("filter ignored: %+v", x)
		}
	}
	_, err = c.Transactions(ctx, apiclient.TransactionFilter{DateFrom: "2026-01-01"})
	wantError(t, err, 422, "dateFrom and dateTo must be given together")

	nora := g.client()
	login(t, nora, "nora@demo.test")
	_, err = nora.Transactions(ctx, apiclient.TransactionFilter{})
	wantError(t, err, 404, "Card not found")
}

func TestTransactionsTolerantShapes(t *testing.T) {
	var query string
	body := ""
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		query = r.URL.RawQuery
		_, _ = w.Write([]byte(body))
	}))
	defer hs.Close()
	c := apiclient.New(apiclient.Config{BaseURL: hs.URL, ClientKey: "k"})
	ctx := context.Background()

	body = `{"data":[{"id":"t1","transactionAmount":12.5,"status":"SETTLED_LATER","surprise":{"a":1}}, 7],"total":1}`
	p, err := c.Transactions(ctx, apiclient.TransactionFilter{MCCCategories: []string{"A", " ", "B"}, SearchKey: " x ", Page: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Transactions) != 1 || p.Transactions[0].TransactionAmount != "12.5" || p.Transactions[0].Status != "SETTLED_LATER" ||
		string(p.Transactions[0].Extra["surprise"]) != `{"a":1}` || string(p.Extra["total"]) != "1" {
		t.Fatalf("%+v", p)
	}
	for _, want := range []string{"mccCategories=A%2CB", "searchKey=x", "page=2"} {
		if !strings.Contains(query, want) {
			t.Errorf("query %q lacks %q", query, want)
		}
	}
	if strings.Contains(query, "dateFrom") {
		t.Errorf("no dates were given: %q", query)
	}
	body = `{"nothing":true}`
	if _, err := c.Transactions(ctx, apiclient.TransactionFilter{}); err == nil {
		t.Fatal("an object without a list must fail")
	}
	body = `[]`
	if p, err := c.Transactions(ctx, apiclient.TransactionFilter{}); err != nil || len(p.Transactions) != 0 {
		t.Fatal("empty page")
	}
}

func TestTransactionFilterValidate(t *testing.T) {
	for _, tc := range []struct {
		f    apiclient.TransactionFilter
		want string
	}{
		{apiclient.TransactionFilter{}, ""},
		{apiclient.TransactionFilter{DateFrom: "2026-01-01", DateTo: "2026-01-31"}, ""},
		{apiclient.TransactionFilter{DateFrom: "2026-01-01"}, "dateTo"},
		{apiclient.TransactionFilter{DateTo: "2026-01-01"}, "dateFrom"},
		{apiclient.TransactionFilter{DateFrom: "2026-02-01", DateTo: "2026-01-01"}, "dateTo"},
		{apiclient.TransactionFilter{DateFrom: "01/02/2026", DateTo: "2026-01-01"}, "dateFrom"},
		{apiclient.TransactionFilter{Page: -1}, "page"},
	} {
		var got []string
		for _, e := range tc.f.Validate() {
			got = append(got, e.Field)
		}
		if strings.Join(got, ",") != tc.want {
			t.Errorf("%+v: %v, want %q", tc.f, got, tc.want)
		}
	}
}

// The messages name the other date in words a form or a command can
// show, not by its query parameter.
func TestTransactionFilterMessagesNameNoParameter(t *testing.T) {
	for _, f := range []apiclient.TransactionFilter{
		{DateFrom: "2026-01-01"}, {DateTo: "2026-01-01"}, {DateFrom: "2026-02-01", DateTo: "2026-01-01"},
	} {
		for _, e := range f.Validate() {
			if strings.Contains(e.Message, "dateFrom") || strings.Contains(e.Message, "dateTo") {
				t.Errorf("%+v: %s %q names a query parameter", f, e.Field, e.Message)
			}
		}
	}
}
