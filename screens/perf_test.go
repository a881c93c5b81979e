package screens

import (
	"testing"
	"time"

	"cardterm/apiclient/sandbox"
	"cardterm/ui/uitest"
)

// BenchmarkWalletsLoadWith200msLatency loads the wallets screen, which needs
// four gateway calls, from a gateway that takes 200 ms to answer each.
// The budget: about 200 ms (the calls run at once), not 800.
func BenchmarkWalletsLoadWith200msLatency(b *testing.B) {
	app := newTestApp(b)
	app.signIn("alice@demo.test")
	wallets := NewWallets(app.deps)
	app.server.SetFaults(sandbox.Faults{Latency: 200 * time.Millisecond})
	b.ResetTimer()
	for b.Loop() {
		// uitest.Run runs a batch's commands concurrently, as Bubble Tea does.
		msgs := uitest.Run(wallets.Enter())
		if len(msgs) != 4 {
			b.Fatalf("%d answers, want the 4 reads", len(msgs))
		}
		for _, m := range msgs {
			wallets.Update(m)
		}
	}
	b.StopTimer()
	mustShow(b, wallets.View(120, 40), "1 of 5 linked", "500.00 USDC", "spendable")
}
