package cli

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"cardterm/domain/casefile"
	"cardterm/ui/sanitize"
)

// checkResponseTimes refuses response times the desk cannot use.
func checkResponseTimes(text string) error {
	_, err := casefile.ParseResponseTimes(text)
	return err
}

// responseTimes are the desk's response times of the settings (checked
// when they were read).
func responseTimes(text string) map[string]time.Duration {
	times, err := casefile.ParseResponseTimes(text)
	if err != nil {
		return casefile.DefaultResponseTimes()
	}
	return times
}

// newSupportHandoverCommand is `cardterm support handover`: a shift's
// handover from the desk's cases folder.
func newSupportHandoverCommand(std streams) *cobra.Command {
	var casesDir string
	var since time.Duration
	var given givenFlags
	cmd := &cobra.Command{
		Use:   "handover",
		Short: "Print a shift's handover: the open cases, their last note, next step and due",
		Long: `Prints, for the cases folder a desk shares, every case not solved that
was worked in the last --since (all of them without it), the most
pressing first: ticket, priority, status, owner, the customer's id, when
it is due (by the profile's response-times), the last note and the next
step. Nothing is sent to the gateway.`,
		Example: `  cardterm support handover --since 8h
  cardterm support handover --cases-dir /shared/desk/cases`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o, err := resolveCommandOptions(given, std)
			if err != nil {
				return err
			}
			times, err := casefile.ParseResponseTimes(o.responseTimes)
			if err != nil {
				return usageError{"cardterm support handover: response times " + err.Error()}
			}
			cases, problems, err := casefile.List(supportCasesDir(casesDir))
			if err != nil {
				return err
			}
			for _, p := range problems {
				fmt.Fprintln(std.stderr, "cardterm: left out "+sanitize.Text(p))
			}
			now := time.Now()
			var from time.Time
			if since > 0 {
				from = now.Add(-since)
			}
			_, err = fmt.Fprint(std.stdout, sanitize.Multiline(casefile.Handover(cases, from, now, times)))
			return err
		},
	}
	cmd.Flags().StringVar(&casesDir, "cases-dir", "", "the cases folder (default: cardterm/cases in the XDG data folder)")
	cmd.Flags().DurationVar(&since, "since", 0, "only cases worked in this last span, such as 8h (default: every open case)")
	given = addSettingFlags(cmd, func(s *setting) bool { return s.name == "profile" || s.name == "response-times" })
	return cmd
}
