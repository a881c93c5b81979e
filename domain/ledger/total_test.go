package ledger

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"cardterm/apiclient"
)

// A Total agrees with the client's exact decimal addition to the last
// digit, across scales, signs and sums past an int64.
func TestTotalAddsExactly(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var total Total
	want := "0"
	for i := range 5000 {
		value := fmt.Sprintf("%d.%0*d", r.IntN(100000), 1+i%4, r.IntN(1000))
		if i%1000 == 999 {
			value = "92233720368547758.07" // past an int64 at scale 2 after a few
		}
		negative := r.IntN(3) == 0
		if !total.Add(value, negative) {
			t.Fatalf("refused %q", value)
		}
		signed := value
		if negative {
			signed = "-" + value
		}
		var err error
		if want, err = apiclient.AddDecimal(want, signed); err != nil {
			t.Fatal(err)
		}
	}
	if c, err := apiclient.CompareDecimal(total.String(), want); err != nil || c != 0 {
		t.Fatalf("total %s, want %s", total.String(), want)
	}
	if total.Count() != 5000 {
		t.Fatalf("count %d", total.Count())
	}
	for _, bad := range []string{"", "1e3", "-1", "1.", ".5", "x"} {
		if total.Add(bad, false) {
			t.Errorf("added %q", bad)
		}
	}
}

func TestTotalsKeepCurrenciesApart(t *testing.T) {
	ts := Totals{}
	ts.Add("EUR", "1.50", true)
	ts.Add("USD", "2", false)
	ts.Add("EUR", "0.25", false)
	if got := ts.String(); got != "-1.25 EUR, 2.00 USD" {
		t.Fatal(got)
	}
}

func TestMCCNames(t *testing.T) {
	for code, want := range map[string]string{"5411": "Grocery stores, supermarkets", "3005": "Airlines and air carriers", "3700": "Hotels and lodging", "6011": "Cash withdrawals (ATM)"} {
		if got, ok := MCCName(code); !ok || got != want {
			t.Errorf("%s: %q", code, got)
		}
	}
	if got := CategoryOf("1", "TRAVEL"); got != "Travel" {
		t.Error(got)
	}
	if got := CategoryOf("", ""); got != "Uncategorised" {
		t.Error(got)
	}
}
