package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/spf13/cobra"

	"cardterm/apiclient"
	"cardterm/sandbox/webhookprobe"
	"cardterm/ui/sanitize"
)

// errReceiverUnsafe is the exit of a probe that found a receiver accepting
// an attack (or refusing the valid delivery); the table says which.
var errReceiverUnsafe = errors.New("the receiver is not safe to go live")

func newWebhookProbeCommand() *cobra.Command {
	var promptKey, asJSON bool
	var tolerance time.Duration
	var given givenFlags
	cmd := &cobra.Command{
		Use:   "probe URL",
		Short: "Check a webhook receiver refuses forged, stale and replayed deliveries (run before going live)",
		Long: `Check your webhook receiver before going live. probe sends URL one valid delivery,
signed as the gateway signs (X-Timestamp, X-Signature = hex HMAC-SHA256 of
timestamp + "." + body under the signing key), then the classic attacks:

  replay              the valid delivery again, byte for byte
  forged-signature    a random signature
  other-body          a good signature over another body
  stale-timestamp     signed twice the window ago (the window is 300 s)
  future-timestamp    signed twice the window ahead
  missing-signature   no X-Signature header
  missing-timestamp   no X-Timestamp header
  oversized-body      a signed body of 4 MiB

It prints what each should get and what it got: the valid delivery a 2xx, every
attack a refusal (4xx; a closed connection refuses an oversized body too). The exit
status is 1 when any attack was accepted or the valid delivery refused, 0 when the
receiver is safe; --json prints the report as one JSON object for CI.

The deliveries are about a test card (event_object.test is true) with event ids of
their own: the valid one reaches your handler, so run probe against a test
deployment. The key comes from $` + webhookKeyEnv + `, the profile's keyring entry,
or with --key from a masked prompt; never from a flag value.`,
		Example: `  CARDTERM_WEBHOOK_KEY=whsec_... \
      cardterm webhook probe https://staging.example.com/webhooks
  cardterm webhook probe http://localhost:3000/webhooks --key
  cardterm webhook probe "$RECEIVER_URL" --json |
      jq '.checks[] | select(.verdict != "passed")'`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			settings, err := resolveCommandOptions(given, streams{stdout: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr()})
			if err != nil {
				return err
			}
			key, err := webhookKey(cmd, promptKey, settings.profile)
			if err != nil {
				return err
			}
			report, err := webhookprobe.Run(cmd.Context(), webhookprobe.Options{URL: args[0], Key: key, Tolerance: tolerance})
			if err != nil {
				return err
			}
			if asJSON {
				b, _ := json.Marshal(report)
				fmt.Fprintf(cmd.OutOrStdout(), "%s\n", sanitize.JSON(b))
			} else {
				printProbeReport(cmd.OutOrStdout(), report)
			}
			if !report.Safe {
				cmd.SilenceErrors = asJSON
				return errReceiverUnsafe
			}
			return nil
		},
	}
	cmd.SilenceUsage = true
	f := cmd.Flags()
	f.BoolVar(&promptKey, "key", false, "ask for the signing key with a masked prompt (instead of $"+webhookKeyEnv+")")
	f.BoolVar(&asJSON, "json", false, "print the report as one JSON object (for CI)")
	f.DurationVar(&tolerance, "tolerance", apiclient.WebhookTolerance, "the timestamp window the receiver should keep; the stale and future deliveries are twice as far")
	given = addSettingFlags(cmd, func(s *setting) bool { return s.name == "profile" })
	return cmd
}

// printProbeReport writes the table: each check, what it should get, what
// it got, and the verdict, then one line saying whether to go live.
func printProbeReport(out io.Writer, r webhookprobe.Report) {
	var w strings.Builder
	defer func() { _, _ = lipgloss.Fprint(out, w.String()) }()
	fmt.Fprintf(&w, "Probing %s\n\n", sanitize.Text(r.URL))
	fmt.Fprintf(&w, "%-18s  %-40s  %-14s  %-28s  %s\n", "CHECK", "SENT", "EXPECTED", "GOT", "RESULT")
	for _, c := range r.Checks {
		got := "no answer"
		if c.Status != 0 {
			got = fmt.Sprintf("%d %s", c.Status, http.StatusText(c.Status))
		} else if c.Verdict == webhookprobe.Passed {
			got = "connection closed"
		}
		result := probeGoodStyle().Render("ok")
		switch c.Verdict {
		case webhookprobe.Accepted:
			result = probeBadStyle().Render("ACCEPTED")
		case webhookprobe.Refused:
			result = probeBadStyle().Render("REFUSED")
		case webhookprobe.NoAnswer:
			result = probeBadStyle().Render("NO ANSWER")
		}
		line := fmt.Sprintf("%-18s  %-40s  %-14s  %-28s  %s", c.Name, clipText(c.Sent, 40), c.Expected, clipText(got, 28), result)
		if c.Detail != "" {
			line += "  " + probeFaintStyle().Render(sanitize.Text(c.Detail))
		}
		fmt.Fprintln(&w, line)
	}
	fmt.Fprintln(&w)
	if r.Safe {
		fmt.Fprintln(&w, probeGoodStyle().Render("Safe to go live:")+" the valid delivery was accepted and every attack refused.")
		return
	}
	var bad []string
	for _, c := range r.Checks {
		if c.Verdict != webhookprobe.Passed {
			bad = append(bad, c.Name)
		}
	}
	fmt.Fprintln(&w, probeBadStyle().Render("Not safe to go live:")+" "+strings.Join(bad, ", ")+" (see RESULT).")
}

// Styles of the probe's table: the verdicts in colour (NO_COLOR and a pipe
// leave the words), advice faint.
func probeGoodStyle() lipgloss.Style {
	return lipgloss.NewStyle().Foreground(lipgloss.Green).Bold(true)
}

func probeBadStyle() lipgloss.Style {
	return lipgloss.NewStyle().Foreground(lipgloss.Red).Bold(true)
}

func probeFaintStyle() lipgloss.Style { return lipgloss.NewStyle().Faint(true) }

// clipText cuts s to n cells with an ellipsis.
func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
