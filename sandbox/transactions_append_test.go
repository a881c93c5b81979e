package sandbox

import (
	"encoding/json"
	"errors"
	"strconv"
	"testing"
)

// A transaction appended while the sandbox runs is the first of the list,
// as the gateway would answer it; a bad one is refused with the reason.
func TestAppendTransactionComesFirst(t *testing.T) {
	e := newEnv(t, Options{})
	tok, _ := e.login("alice@demo.test")
	id, err := e.s.AppendTransaction("alice@demo.test", NewTransaction{Amount: "12.4", Status: "declined", Merchant: "Corner Shop, Lyon FR"})
	if err != nil {
		t.Fatal(err)
	}
	r := e.do("GET", "/v1/card/transactions", bearer(tok), nil)
	want(t, r, 200, "")
	var page []transactionRecord
	if err := json.Unmarshal(r.Raw, &page); err != nil || len(page) != transactionPageSize {
		t.Fatalf("%v %d", err, len(page))
	}
	first := page[0]
	if first.ID != id || first.Status != "DECLINED" || first.DeclineReason == nil || *first.DeclineReason != "INSUFFICIENT_FUNDS" ||
		first.TransactionAmount != "12.40" || first.MerchantNameLocation != "Corner Shop, Lyon FR" || first.DateTime != t0.UTC().Format("2006-01-02T15:04:05Z07:00") {
		t.Fatalf("the appended transaction is not first as given: %+v", first)
	}
	for _, bad := range []NewTransaction{{Amount: "-1"}, {Amount: "1.234"}, {Amount: "1", Status: "LOST"}, {Amount: "1", Sign: "UP"}, {Amount: "1", Currency: "XYZ"}} {
		if _, err := e.s.AppendTransaction("alice@demo.test", bad); !errors.Is(err, ErrBadTransaction) {
			t.Errorf("%+v: %v, want a refusal", bad, err)
		}
	}
	if _, err := e.s.AppendTransaction("nobody@demo.test", NewTransaction{Amount: "1"}); !errors.Is(err, errNoUser) {
		t.Errorf("unknown user: %v", err)
	}
}

// SeedTransactions adds older transactions after the seeded history, the
// pages walking on into them.
func TestSeedTransactionsExtendsTheHistory(t *testing.T) {
	e := newEnv(t, Options{})
	tok, _ := e.login("alice@demo.test")
	seeded := len(seededTransactions("alice@demo.test"))
	total, err := e.s.SeedTransactions("alice@demo.test", 120)
	if err != nil || total != seeded+120 {
		t.Fatalf("%d %v, want %d", total, err, seeded+120)
	}
	last := (total - 1) / transactionPageSize
	r := e.do("GET", "/v1/card/transactions?page="+strconv.Itoa(last), bearer(tok), nil)
	var page []transactionRecord
	if err := json.Unmarshal(r.Raw, &page); err != nil || len(page) != total-last*transactionPageSize {
		t.Fatalf("last page: %v %d", err, len(page))
	}
	if page[len(page)-1].DateTime >= seededTransactions("alice@demo.test")[seeded-1].DateTime {
		t.Fatal("the added transactions are not older than the seeded history")
	}
}
