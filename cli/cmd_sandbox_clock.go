package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

// newSandboxClockCommand is `cardterm sandbox clock`.
func newSandboxClockCommand() *cobra.Command {
	var asJSON bool
	var given givenFlags
	cmd := &cobra.Command{
		Use:   "clock [+STEP | set TIME | reset]",
		Short: "Show, advance, set or reset a running sandbox's time",
		Long: `Show the time of a running sandbox gateway, or move it: +STEP advances it (7h,
31m, 1h30m, 185d), set TIME puts it at an RFC 3339 time, reset puts it back on the
wall clock. Time keeps running from where it was put. The sandbox's time stays
within 3660d (ten years) of the wall clock: a move past that is refused as too large.

Every expiry follows the sandbox's time: access tokens (6 hours) and refresh tokens
(184 days), OAuth codes, hosted PIN links and delegation tokens (10 minutes), unpaid
orders (30 minutes). A pending authorization older than 7 days expires into a
REVERSAL with its transaction.reversed event. The clock is the whole sandbox's, every
tenant's; with --data the shift survives a restart. While it differs from the wall
clock every answer carries X-Sandbox-Time, and the app and listen show it.

The sandbox and the tenant come from the settings, as for sandbox trigger: by
default the sandbox at ` + defaultSandboxURL + ` and its demo tenant. Sandbox only.`,
		Example: `  cardterm sandbox clock
  cardterm sandbox clock +7h          # the access token has expired
  cardterm sandbox clock +185d        # the refresh token too
  cardterm sandbox clock set 2027-01-31T09:00:00Z
  cardterm sandbox clock reset`,
		Args: cobra.MaximumNArgs(2),
		ValidArgs: []cobra.Completion{
			cobra.CompletionWithDesc("+7h", "the access token expires"),
			cobra.CompletionWithDesc("+31m", "an unpaid order expires"),
			cobra.CompletionWithDesc("+8d", "a pending authorization expires"),
			cobra.CompletionWithDesc("+185d", "the refresh token expires"),
			cobra.CompletionWithDesc("set", "put the clock at a time"),
			cobra.CompletionWithDesc("reset", "back to the wall clock"),
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			move, err := clockMoveOf(args)
			if err != nil {
				return usageError{err.Error()}
			}
			client, baseURL, closeLog, err := sandboxClientFor(cmd, given)
			if err != nil {
				return err
			}
			defer closeLog()
			var state apiclient.SandboxClock
			if move == nil {
				state, err = client.SandboxClockNow(cmd.Context())
			} else {
				state, err = client.SandboxClockSet(cmd.Context(), *move)
			}
			if err != nil {
				return sandboxToolError(err, baseURL)
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), state)
			}
			printSandboxClock(cmd.OutOrStdout(), state)
			return nil
		},
	}
	cmd.SilenceUsage = true
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the clock as JSON {now, wallClock, shift, shiftSeconds, shifted, reversed}")
	given = addSettingFlags(cmd, gatewaySettings)
	return cmd
}

// clockMoveOf reads the arguments: none shows the clock (nil).
func clockMoveOf(args []string) (*apiclient.SandboxClockMove, error) {
	switch {
	case len(args) == 0:
		return nil, nil
	case args[0] == "reset" && len(args) == 1:
		return &apiclient.SandboxClockMove{Reset: true}, nil
	case args[0] == "set" && len(args) == 2:
		if _, err := time.Parse(time.RFC3339, args[1]); err != nil {
			return nil, fmt.Errorf("set %q: give an RFC 3339 time such as 2027-01-31T09:00:00Z", args[1])
		}
		return &apiclient.SandboxClockMove{Set: args[1]}, nil
	case len(args) == 1:
		if _, err := sandbox.ParseClockStep(args[0]); err != nil {
			return nil, err
		}
		return &apiclient.SandboxClockMove{Advance: args[0]}, nil
	}
	return nil, fmt.Errorf("%q: write +STEP (such as +7h or +185d), set TIME or reset", strings.Join(args, " "))
}

// printSandboxClock writes the clock for a person.
func printSandboxClock(w io.Writer, c apiclient.SandboxClock) {
	const layout = "2006-01-02 15:04:05 MST"
	fmt.Fprintf(w, "Sandbox time  %s\n", c.Now.UTC().Format(layout))
	fmt.Fprintf(w, "Wall clock    %s\n", c.WallClock.UTC().Format(layout))
	if c.Shifted {
		fmt.Fprintf(w, "Shift         %s\n", describeShift(time.Duration(c.ShiftSeconds)*time.Second))
	} else {
		fmt.Fprintln(w, "Shift         none: the sandbox runs on the wall clock")
	}
	if n := len(c.Reversed); n > 0 {
		fmt.Fprintf(w, "Expired       %d pending authorization(s), reversed: %s\n", n, strings.Join(c.Reversed, ", "))
	}
}
