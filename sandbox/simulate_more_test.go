package sandbox

import (
	"net/http"
	"testing"
)

// Each kind of card activity: the steps, then the newest records of the
// list as [transactionType, status, sign, transactionAmount, billingAmount,
// feeAmount], newest first, and the events sent, in order.
func TestSimulatedCardActivityKinds(t *testing.T) {
	type step = map[string]any
	cases := []struct {
		name   string
		steps  []step
		clock  string // a clock move after the steps
		want   [][6]string
		events []string
	}{
		{"reversal", []step{{"type": "authorization", "amount": "30.00"}, {"type": "reversal"}},
			"", [][6]string{{"REVERSAL", "CONFIRMED", "CREDIT", "30.00", "30.00", "0.00"}, {"AUTHORIZATION", "REVERTED", "DEBIT", "30.00", "30.00", "0.00"}},
			[]string{"transaction.authorized", "transaction.reversed"}},
		{"incremental authorization", []step{{"type": "authorization", "amount": "100.00"}, {"type": "increment", "amount": "20.50"}, {"type": "clearing"}},
			"", [][6]string{{"CLEARING", "CONFIRMED", "DEBIT", "120.50", "120.50", "0.00"}, {"INCREMENTAL_AUTHORIZATION", "CONFIRMED", "DEBIT", "20.50", "20.50", "0.00"},
				{"AUTHORIZATION", "CONFIRMED", "DEBIT", "100.00", "100.00", "0.00"}},
			[]string{"transaction.authorized", "transaction.authorized", "transaction.cleared"}},
		{"partial and multiple clearings", []step{{"type": "authorization", "amount": "80.00"}, {"type": "clearing", "amount": "50.00"}, {"type": "clearing", "amount": "25.25"}},
			"", [][6]string{{"CLEARING", "CONFIRMED", "DEBIT", "25.25", "25.25", "0.00"}, {"CLEARING", "CONFIRMED", "DEBIT", "50.00", "50.00", "0.00"},
				{"AUTHORIZATION", "CONFIRMED", "DEBIT", "80.00", "80.00", "0.00"}},
			[]string{"transaction.authorized", "transaction.cleared", "transaction.cleared"}},
		{"expiry", []step{{"type": "authorization", "amount": "45.60"}},
			"8d", [][6]string{{"REVERSAL", "CONFIRMED", "CREDIT", "45.60", "45.60", "0.00"}, {"AUTHORIZATION", "REVERTED", "DEBIT", "45.60", "45.60", "0.00"}},
			[]string{"transaction.authorized", "transaction.reversed"}},
		{"ATM withdrawal", []step{{"type": "atm", "amount": "100.00"}, {"type": "clearing"}},
			"", [][6]string{{"CLEARING", "CONFIRMED", "DEBIT", "100.00", "100.00", "0.00"}, {"AUTHORIZATION", "CONFIRMED", "DEBIT", "100.00", "100.00", "2.50"}},
			[]string{"transaction.authorized", "transaction.cleared"}},
		{"partial refund", []step{{"type": "authorization", "amount": "60.00"}, {"type": "clearing"}, {"type": "refund", "amount": "15.40"}},
			"", [][6]string{{"REFUND", "CONFIRMED", "CREDIT", "15.40", "15.40", "0.00"}, {"CLEARING", "CONFIRMED", "DEBIT", "60.00", "60.00", "0.00"}},
			[]string{"transaction.authorized", "transaction.cleared", "transaction.refunded"}},
		{"another currency", []step{{"type": "authorization", "amount": "50.00", "currency": "USD"}, {"type": "clearing"}},
			"", [][6]string{{"CLEARING", "CONFIRMED", "DEBIT", "50.00", "46.00", "0.69"}, {"AUTHORIZATION", "CONFIRMED", "DEBIT", "50.00", "46.00", "0.69"}},
			[]string{"transaction.authorized", "transaction.cleared"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, Options{})
			rc := newLoopbackReceiver(t)
			alice, _ := e.login("alice@demo.test")
			_, key := subscribe(t, e, alice, rc.srv.URL+"/hooks", SimulatedEventTypes...)
			for _, s := range tc.steps {
				s["user"] = "alice@demo.test"
				want(t, simulate(e, s), http.StatusOK, "")
			}
			if tc.clock != "" {
				moveClock(t, e, map[string]any{"advance": tc.clock})
				alice = mustLogin(e)
			}
			list := firstTransactions(t, e, alice)
			for i, w := range tc.want {
				x := list[i]
				got := [6]string{str(x["transactionType"]), str(x["status"]), str(x["sign"]), str(x["transactionAmount"]), str(x["billingAmount"]), str(x["feeAmount"])}
				if got != w {
					t.Errorf("record %d: %v, want %v", i, got, w)
				}
			}
			got := rc.collect(t, key, len(tc.events))
			for _, eventType := range tc.events {
				if len(got[eventType]) == 0 {
					t.Errorf("no %s event: %v", eventType, got)
				}
			}
		})
	}
}

func str(v any) string { s, _ := v.(string); return s }

func TestSimulatedActivityRefusesWhatCannotHappen(t *testing.T) {
	e := newEnv(t, Options{})
	user := "alice@demo.test"
	want(t, simulate(e, map[string]any{"type": "authorization", "user": user, "amount": "10.00"}), http.StatusOK, "")
	for _, tc := range []struct {
		body   map[string]any
		status int
	}{
		{map[string]any{"type": "increment", "user": user}, http.StatusBadRequest},
		{map[string]any{"type": "reversal", "user": user, "amount": "4.00"}, http.StatusBadRequest},
		{map[string]any{"type": "clearing", "user": user, "amount": "10.01"}, http.StatusConflict},
		{map[string]any{"type": "atm", "user": user, "amount": "20", "mcc": "5411"}, http.StatusBadRequest},
	} {
		if r := simulate(e, tc.body); r.Status != tc.status || r.str("message") == "" {
			t.Errorf("%v: %d %s", tc.body, r.Status, r.Raw)
		}
	}
	want(t, simulate(e, map[string]any{"type": "reversal", "user": user}), http.StatusOK, "")
	if r := simulate(e, map[string]any{"type": "clearing", "user": user}); r.Status != http.StatusNotFound && r.Status != http.StatusConflict {
		t.Fatalf("a clearing after the reversal: %d %s", r.Status, r.Raw)
	}
}
