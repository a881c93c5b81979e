package sandbox

import (
	"encoding/json"
	"strings"
	"testing"
)

func transactionList(t *testing.T, e *env, tok, query string) []transactionRecord {
	t.Helper()
	r := e.do("GET", "/v1/card/transactions"+query, bearer(tok), nil)
	want(t, r, 200, "")
	var out []transactionRecord
	if err := json.Unmarshal(r.Raw, &out); err != nil {
		t.Fatalf("%s: %v", r.Raw, err)
	}
	return out
}

func TestTransactionsSeedAndPaging(t *testing.T) {
	e := newEnv(t, Options{})
	tok, _ := e.login("alice@demo.test")
	all := seededTransactions("alice@demo.test")
	if len(all) < 200 || len(all) > 400 {
		t.Fatalf("%d seeded", len(all))
	}
	statuses, cats := map[string]int{}, map[string]int{}
	for i, x := range all {
		statuses[x.Status]++
		cats[x.MCCCategory]++
		if i > 0 && x.DateTime > all[i-1].DateTime {
			t.Fatal("not newest first")
		}
		if x.Status == "DECLINED" && x.DeclineReason == nil {
			t.Fatal("declined without a reason")
		}
	}
	for _, s := range []string{"CONFIRMED", "PENDING", "DECLINED", "REVERTED"} {
		if statuses[s] == 0 {
			t.Errorf("no %s", s)
		}
	}
	if len(cats) < 6 {
		t.Errorf("categories %v", cats)
	}
	p0 := transactionList(t, e, tok, "")
	p1 := transactionList(t, e, tok, "?page=1")
	if len(p0) != transactionPageSize || p0[0].ID != all[0].ID || p1[0].ID != all[transactionPageSize].ID {
		t.Fatal("paging")
	}
	if last := transactionList(t, e, tok, "?page=99"); len(last) != 0 {
		t.Fatal("past the end must be empty")
	}
	// Deterministic.
	transactionCache.Delete("alice@demo.test")
	if again := seededTransactions("alice@demo.test"); again[17] != all[17] || len(again) != len(all) {
		t.Fatal("seed is not deterministic")
	}
}

func TestTransactionsFilters(t *testing.T) {
	e := newEnv(t, Options{})
	tok, _ := e.login("alice@demo.test")
	for _, x := range transactionList(t, e, tok, "?mccCategories=groceries,TRAVEL") {
		if x.MCCCategory != "GROCERIES" && x.MCCCategory != "TRAVEL" {
			t.Fatalf("category %s", x.MCCCategory)
		}
	}
	got := transactionList(t, e, tok, "?searchKey=paris")
	if len(got) == 0 {
		t.Fatal("search found nothing")
	}
	for _, x := range got {
		if !strings.Contains(strings.ToLower(x.MerchantNameLocation), "paris") {
			t.Fatalf("search %s", x.MerchantNameLocation)
		}
	}
	got = transactionList(t, e, tok, "?dateFrom=2026-11-01&dateTo=2026-11-10")
	if len(got) == 0 {
		t.Fatal("date range found nothing")
	}
	for _, x := range got {
		if d := x.DateTime[:10]; d < "2026-11-01" || d > "2026-11-10" {
			t.Fatalf("date %s", d)
		}
	}
	for _, q := range []string{"?dateFrom=2026-11-01", "?dateTo=2026-11-01", "?dateFrom=2026-11-10&dateTo=2026-11-01", "?dateFrom=x&dateTo=y", "?page=-1", "?page=a"} {
		want(t, e.do("GET", "/v1/card/transactions"+q, bearer(tok), nil), 422, "")
	}
	nora, _ := e.login("nora@demo.test")
	want(t, e.do("GET", "/v1/card/transactions", bearer(nora), nil), 404, "Card not found")
	umar, _ := e.login("umar@demo.test")
	want(t, e.do("GET", "/v1/card/transactions", bearer(umar), nil), 403, "Not authorized")
}
