package recurring

import (
	"fmt"
	"testing"
	"time"

	"cardterm/apiclient"
)

func paid(merchant string, at time.Time, amount string) *apiclient.Transaction {
	return &apiclient.Transaction{ID: merchant + at.Format("0102"), DateTime: at.Format(time.RFC3339), Sign: apiclient.TxDebit,
		Status: apiclient.TxConfirmed, MerchantNameLocation: merchant, BillingAmount: apiclient.Decimal(amount), BillingCurrency: "EUR"}
}

func day(s string) time.Time { t, _ := time.Parse(time.DateOnly, s); return t.Add(9 * time.Hour) }

func TestDetectsEachIntervalWithItsNextDateAndCost(t *testing.T) {
	d := NewDetector()
	for i := range 5 {
		d.Add(paid("Streamflix", day("2026-06-05").AddDate(0, i, i%2), "13.99"))
		d.Add(paid("Yoga Studio", day("2026-10-01").AddDate(0, 0, 7*i), "12.00"))
	}
	d.Add(paid("Cloud Vault", day("2024-12-01"), "99.00"))
	d.Add(paid("Cloud Vault", day("2025-12-03"), "99.00"))
	got := map[string]Series{}
	for _, s := range d.Found(day("2026-10-30")) {
		got[s.Merchant] = s
	}
	for _, c := range []struct{ merchant, interval, cost, next string }{
		{"Streamflix", "monthly", "13.99", "2026-11-05"},
		{"Yoga Studio", "weekly", "52.00", "2026-11-05"},
		{"Cloud Vault", "yearly", "8.25", "2026-12-03"},
	} {
		s, ok := got[c.merchant]
		if !ok {
			t.Errorf("%s not found in %v", c.merchant, got)
			continue
		}
		if s.Interval.Name != c.interval || s.MonthlyCost != c.cost || s.Next.Format(time.DateOnly) != c.next {
			t.Errorf("%s: %s %s next %s, want %s %s next %s", c.merchant, s.Interval.Name, s.MonthlyCost, s.Next.Format(time.DateOnly), c.interval, c.cost, c.next)
		}
		if s.Missed || s.PriceChanged {
			t.Errorf("%s flagged: %+v", c.merchant, s)
		}
	}
	if !got["Cloud Vault"].New || got["Streamflix"].New {
		t.Errorf("new flags: vault %v, streamflix %v", got["Cloud Vault"].New, got["Streamflix"].New)
	}
}

func TestFlagsMissedAndPriceChange(t *testing.T) {
	d := NewDetector()
	for i, amount := range []string{"10.99", "10.99", "10.99", "12.99"} {
		d.Add(paid("Tunes", day("2026-05-10").AddDate(0, i, 0), amount))
	}
	found := d.Found(day("2026-10-01"))
	if len(found) != 1 {
		t.Fatalf("found %d series", len(found))
	}
	s := found[0]
	if !s.PriceChanged || s.Previous != "10.99" || s.Amount != "12.99" {
		t.Errorf("price change not flagged: %+v", s)
	}
	if !s.Missed || s.Next.Format(time.DateOnly) != "2026-09-10" {
		t.Errorf("missed not flagged: next %s missed %v", s.Next, s.Missed)
	}
}

func TestIrregularOrUnlikePaymentsAreNoSeries(t *testing.T) {
	cases := map[string][]string{
		"irregular gaps":  {"2026-01-01", "2026-01-20", "2026-03-01", "2026-03-09"},
		"two months only": {"2026-01-01", "2026-02-01"},
	}
	for name, dates := range cases {
		d := NewDetector()
		for _, at := range dates {
			d.Add(paid("Shop", day(at), "20.00"))
		}
		if found := d.Found(day("2026-04-01")); len(found) != 0 {
			t.Errorf("%s: found %+v", name, found)
		}
	}
	d := NewDetector()
	for i, amount := range []string{"20.00", "55.00", "20.00", "21.00"} {
		d.Add(paid("Shop", day("2026-01-01").AddDate(0, i, 0), amount))
	}
	if found := d.Found(day("2026-05-01")); len(found) != 0 {
		t.Errorf("unlike amounts: found %+v", found)
	}
}

func BenchmarkDetectOver100kTransactions(b *testing.B) {
	list := make([]apiclient.Transaction, 0, 100_000)
	start := day("2020-01-01")
	for i := range 100_000 {
		merchant := fmt.Sprintf("Merchant %d", i%500)
		list = append(list, *paid(merchant, start.Add(time.Duration(i)*37*time.Minute), fmt.Sprintf("%d.%02d", 5+i%40, i%100)))
	}
	for i := range 24 {
		list = append(list, *paid("Streamflix", start.AddDate(0, i, 0), "13.99"))
	}
	b.ReportAllocs()
	for b.Loop() {
		d := NewDetector()
		for i := range list {
			d.Add(&list[i])
		}
		if len(d.Found(start.AddDate(2, 0, 0))) == 0 {
			b.Fatal("nothing found")
		}
	}
}
