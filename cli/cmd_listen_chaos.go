package cli

import (
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"cardterm/sandbox/webhookreceiver"
	"cardterm/ui/sanitize"
)

// listenChaos builds the chaos of --chaos, or nil without it: checked
// against --forward-to and --chaos-rate, its seed the one given or a new
// one, said on notes with every mutation as it is decided.
func listenChaos(cmd *cobra.Command, o listenOptions, notes io.Writer) (*webhookreceiver.Chaos, error) {
	if o.chaos == "" {
		for _, flag := range []string{"chaos-rate", "chaos-seed"} {
			if cmd.Flags().Changed(flag) {
				return nil, usageError{"--" + flag + " needs --chaos"}
			}
		}
		return nil, nil
	}
	if o.forwardTo == "" {
		return nil, usageError{"--chaos mutates forwards: give --forward-to URL too"}
	}
	chaos, err := webhookreceiver.ParseChaos(o.chaos)
	if err != nil {
		return nil, usageError{"--" + err.Error()}
	}
	if o.chaosRate < 0 || o.chaosRate > 1 {
		return nil, usageError{fmt.Sprintf("--chaos-rate %g must be from 0 to 1", o.chaosRate)}
	}
	chaos.Rate, chaos.Seed = o.chaosRate, o.chaosSeed
	if !cmd.Flags().Changed("chaos-seed") {
		chaos.Seed = rand.Uint64()
	}
	var mu sync.Mutex
	chaos.OnMutation = func(m webhookreceiver.Mutation) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(notes, "%s  chaos %-9s #%d %s %s: %s\n", time.Now().Local().Format("15:04:05"), m.Kind, m.Seq,
			sanitize.Text(m.EventType), sanitize.Text(m.EventID), m.What)
	}
	fmt.Fprintf(notes, "Chaos: %s at a rate of %g, seed %d (--chaos-seed %d repeats these mutations for the same deliveries)\n",
		chaos.String(), chaos.Rate, chaos.Seed, chaos.Seed)
	return &chaos, nil
}
