package transactions

import (
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/ui"
)

// Simulated card activity is told by its step, with its amount: each new
// record at the next read.
func TestAlertsTellEachStepOfAPayment(t *testing.T) {
	a, screen := alertsApp(t, true)
	cfg := a.Client.Config()
	cfg.SecretKey = "sk_sandbox_acme"
	tools := apiclient.New(cfg)
	for _, tc := range []struct {
		step apiclient.SimulateRequest
		want string
	}{
		{apiclient.SimulateRequest{Type: "authorization", Amount: "100.00", Merchant: "Hotel Lac"}, "Authorized: -100.00 EUR at Hotel Lac"},
		{apiclient.SimulateRequest{Type: "increment", Amount: "20.50"}, "Authorization increased: -20.50 EUR at Hotel Lac"},
		{apiclient.SimulateRequest{Type: "clearing", Amount: "60.00"}, "Cleared: -60.00 EUR at Hotel Lac"},
		{apiclient.SimulateRequest{Type: "refund", Amount: "15.40"}, "Refunded: +15.40 EUR at Hotel Lac"},
		{apiclient.SimulateRequest{Type: "authorization", Amount: "30.00", Currency: "USD", Merchant: "Taxi NYC"}, "Authorized: -30.00 USD at Taxi NYC"},
		{apiclient.SimulateRequest{Type: "reversal"}, "Reversed: +30.00 USD at Taxi NYC"},
		{apiclient.SimulateRequest{Type: "atm", Amount: "50.00"}, "Authorized: -50.00 EUR at ATM Sandbox Bank"},
	} {
		tc.step.User = "alice@demo.test"
		if _, err := tools.SandboxSimulate(t.Context(), tc.step); err != nil {
			t.Fatalf("%s: %v", tc.step.Type, err)
		}
		a.Drive(alertTickMsg{session: screen.alerts.session})
		if n := a.Notice(); !strings.Contains(n, tc.want) {
			t.Fatalf("%s: notice %q, want %q", tc.step.Type, n, tc.want)
		}
		a.Drive(ui.DismissNotice(a.Notice())())
	}
}
