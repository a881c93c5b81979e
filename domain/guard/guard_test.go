package guard

import (
	"errors"
	"strings"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/domain/fileerror"
)

const abroadRule = `home: FR
rules:
  - name: freeze on declines abroad
    declines: 2
    within: 10m
    abroad: true
    action: freeze
    alone: true
`

func declined(id, merchant string, at time.Time) *apiclient.Transaction {
	return &apiclient.Transaction{ID: id, DateTime: at.Format(time.RFC3339), Sign: apiclient.TxDebit, Status: apiclient.TxDeclined,
		MerchantNameLocation: merchant, TransactionAmount: "20.00", TransactionCurrency: "USD"}
}

func TestTwoDeclinesAbroadFreezeOnceAndTheThirdDoesNothing(t *testing.T) {
	rules, err := Parse("guard.yaml", []byte(abroadRule))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	for _, readOnly := range []bool{false, true} {
		e := NewEngine(rules, readOnly)
		steps := []struct {
			x    *apiclient.Transaction
			want string
		}{
			{declined("1", "Apple Store, New York US", start), ""},
			{declined("h", "Carrefour City, Paris FR", start.Add(time.Minute)), ""},
			{declined("2", "Apple Store, New York US", start.Add(9*time.Minute)), Freeze},
			{declined("3", "Apple Store, New York US", start.Add(10*time.Minute)), ""},
		}
		for _, s := range steps {
			got := ""
			for _, d := range e.Observe(s.x) {
				got = d.Action
				if readOnly && !strings.Contains(d.Why, "read-only") {
					t.Errorf("read-only decision does not say so: %q", d.Why)
				}
			}
			want := s.want
			if readOnly && want == Freeze {
				want = Notify
			}
			if got != want {
				t.Errorf("read-only %v, decline %s: action %q, want %q", readOnly, s.x.ID, got, want)
			}
		}
	}
}

func TestDeclinesOutsideTheWindowDoNotAddUp(t *testing.T) {
	rules, _ := Parse("guard.yaml", []byte(abroadRule))
	start := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	history := []apiclient.Transaction{
		*declined("1", "Shop, Rome IT", start),
		*declined("2", "Shop, Rome IT", start.Add(11*time.Minute)),
		*declined("3", "Shop, Rome IT", start.Add(15*time.Minute)),
	}
	got := DryRun(rules, history)
	if len(got) != 1 || got[0].Transaction.ID != "3" || got[0].Why != "2 declines within 10m0s" {
		t.Fatalf("dry run: %+v", got)
	}
}

func TestAmountOverInTheRulesCurrency(t *testing.T) {
	rules, err := Parse("g", []byte("rules:\n  - name: big\n    amount_over: \"500\"\n    currency: USD\n"))
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(rules, false)
	x := &apiclient.Transaction{ID: "a", DateTime: "2026-11-29T10:00:00Z", Status: apiclient.TxConfirmed,
		TransactionAmount: "500.01", TransactionCurrency: "USD", BillingAmount: "460.00", BillingCurrency: "EUR"}
	if d := e.Observe(x); len(d) != 1 || d[0].Action != Notify {
		t.Fatalf("500.01 USD over 500 USD: %+v", d)
	}
	x.TransactionAmount = "500.00"
	if d := e.Observe(x); len(d) != 0 {
		t.Fatalf("500.00 is not over 500: %+v", d)
	}
}

func TestMalformedRulesAreRefusedWithLineAndField(t *testing.T) {
	cases := []struct {
		name, yaml string
		line       int
		field      string
	}{
		{"unknown field", "rules:\n  - name: a\n    amount_ovr: 5\n", 3, "rules[0].amount_ovr"},
		{"bad duration", "home: FR\nrules:\n  - name: a\n    declines: 2\n    within: ten minutes\n", 5, "rules[0].within"},
		{"bad action", "rules:\n  - name: a\n    action: explode\n", 3, "rules[0].action"},
		{"no name", "rules:\n  - action: notify\n", 2, "rules[0].name"},
		{"abroad without home", "rules:\n  - name: a\n    abroad: true\n", 2, "abroad"},
		{"bad home", "home: France\n", 1, "home"},
		{"not yaml", "rules:\n\t- name: a\n", 2, ""},
		{"declines without window", "rules:\n  - name: a\n    declines: 3\n", 2, "rules[0].declines"},
	}
	for _, c := range cases {
		_, err := Parse("guard.yaml", []byte(c.yaml))
		var fe *fileerror.Error
		if !errors.As(err, &fe) {
			t.Errorf("%s: %v is not a *fileerror.Error", c.name, err)
			continue
		}
		if fe.Line != c.line || fe.Field != c.field {
			t.Errorf("%s: line %d field %q (%v), want line %d field %q", c.name, fe.Line, fe.Field, err, c.line, c.field)
		}
	}
}

func TestExampleParses(t *testing.T) {
	rules, err := Parse("example", []byte(Example))
	if err != nil || len(rules.Rules) != 2 || rules.Rules[0].Cooldown != 30*time.Minute {
		t.Fatalf("example: %+v %v", rules, err)
	}
}

func TestLogKeepsTheLastEntries(t *testing.T) {
	path := t.TempDir() + "/log.jsonl"
	for _, name := range []string{"a", "b", "c"} {
		if err := Append(path, Entry{Rule: name, Action: Notify, Outcome: "notified"}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ReadLog(path, 2)
	if err != nil || len(got) != 2 || got[0].Rule != "b" {
		t.Fatalf("log: %+v %v", got, err)
	}
}
