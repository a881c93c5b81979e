package insights

import (
	"context"
	"testing"

	"cardterm/apiclient"
	"cardterm/domain/ledger"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
)

// Each kind of simulated card activity adds up on Spending to the cent:
// a hold spends while pending, its clearings once cleared, nothing once
// released; refunds count apart; a foreign payment counts as billed.
func TestSimulatedActivityAddsUpOnSpending(t *testing.T) {
	type step = apiclient.SimulateRequest
	cases := []struct {
		name            string
		steps           []step
		clock           string
		spent, refunded string // EUR; "" when none
	}{
		{"pending authorization", []step{{Type: "authorization", Amount: "30.00"}}, "", "30.00", ""},
		{"reversal", []step{{Type: "authorization", Amount: "30.00"}, {Type: "reversal"}}, "", "", ""},
		{"incremental authorization", []step{{Type: "authorization", Amount: "100.00"}, {Type: "increment", Amount: "20.50"}, {Type: "clearing"}}, "", "120.50", ""},
		{"pending with its increment", []step{{Type: "authorization", Amount: "100.00"}, {Type: "increment", Amount: "20.50"}}, "", "120.50", ""},
		{"partial and multiple clearings", []step{{Type: "authorization", Amount: "80.00"}, {Type: "clearing", Amount: "50.00"}, {Type: "clearing", Amount: "25.25"}}, "", "75.25", ""},
		{"expiry", []step{{Type: "authorization", Amount: "45.60"}}, "8d", "", ""},
		{"ATM withdrawal", []step{{Type: "atm", Amount: "100.00"}, {Type: "clearing"}}, "", "100.00", ""},
		{"partial refund", []step{{Type: "authorization", Amount: "60.00"}, {Type: "clearing"}, {Type: "refund", Amount: "15.40"}}, "", "60.00", "15.40"},
		{"another currency", []step{{Type: "authorization", Amount: "50.00", Currency: "USD"}, {Type: "clearing"}}, "", "46.00", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			app := screentest.New(t, screentest.Of(signin.New))
			cfg := app.Client.Config()
			cfg.SecretKey = "sk_sandbox_acme"
			tools := apiclient.New(cfg)
			ctx := context.Background()
			for _, s := range tc.steps {
				s.User = "alice@demo.test"
				if _, err := tools.SandboxSimulate(ctx, s); err != nil {
					t.Fatal(err)
				}
			}
			if tc.clock != "" {
				if _, err := tools.SandboxClockSet(ctx, apiclient.SandboxClockMove{Advance: tc.clock}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := app.Client.Login(ctx, "alice@demo.test", "demo-pass"); err != nil {
				t.Fatal(err)
			}
			page, err := app.Client.Transactions(ctx, apiclient.TransactionFilter{})
			if err != nil {
				t.Fatal(err)
			}
			a := NewAggregator()
			for i := range page.Transactions {
				if x := &page.Transactions[i]; ledger.PaymentStep(x) != "" { // the simulated ones, not the seed's
					a.Add(x)
				}
			}
			total := func(b *Bucket) string {
				if eur := b.Totals["EUR"]; eur != nil {
					return eur.String()
				}
				return ""
			}
			if got := total(a.Spent); got != tc.spent {
				t.Errorf("spent %q, want %q", got, tc.spent)
			}
			if got := total(a.Refunded); got != tc.refunded {
				t.Errorf("refunded %q, want %q", got, tc.refunded)
			}
		})
	}
}
