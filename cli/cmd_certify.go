package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"cardterm/apiclient"
	"cardterm/domain/atomicfile"
	"cardterm/sandbox/webhookprobe"
	"cardterm/ui/sanitize"
)

// errNotCertified is the exit status 1 of a receiver that failed a check
// (the report says which).
var errNotCertified = errors.New("the receiver is not ready to go live: see the report")

// newCertifyCommand is `cardterm certify --receiver URL`.
func newCertifyCommand() *cobra.Command {
	var receiver, out string
	var promptKey, asJSON bool
	var tolerance time.Duration
	var given givenFlags
	cmd := &cobra.Command{
		Use:   "certify --receiver URL [--out FILE]",
		Short: "Run a webhook receiver through the go-live scenarios and write the report",
		Long: `Run a partner's webhook receiver through a fixed list of scenarios, each a few
deliveries as the gateway makes them, signed as it signs (X-Timestamp, X-Signature =
hex HMAC-SHA256 of timestamp + "." + body):

  in-order         three events of one card in the order they happened: all 2xx
  out-of-order     the later event first: both 2xx (judge by occurred_at)
  twice            one event sent twice, each signed afresh (a retry): both 2xx
  replayed         a delivery sent again byte for byte: refused
  unsigned         no X-Signature: refused
  old-key          signed with a key rotated away: refused
  late             an event of 6 hours ago delivered now, freshly signed: 2xx
  expired-midway   two fresh deliveries, then the last of a batch that left
                   after the window had passed, still signed at the batch's
                   start (twice the window ago): the last refused

It writes the report in Markdown (--out, default certify-report.md) and JSON (the
same name ending .json): each check, its verdict, every delivery as evidence, and the
SHA-256 of the Markdown report (everything above its last line, which carries it;
the JSON carries the same). The exit status is 0 when every check passed, 1 when one
failed. The deliveries are about a test card (event_object.test: true). The key
comes from $` + webhookKeyEnv + `, the profile's keyring entry, or --key (a masked
prompt); never from a flag value.`,
		Example: `  cardterm certify --receiver http://localhost:3000/webhooks
  cardterm certify --receiver "$RECEIVER_URL" --key \
      --out reports/go-live.md`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if receiver == "" {
				return usageError{"--receiver URL is required: the webhook receiver to certify"}
			}
			if !strings.HasSuffix(out, ".md") {
				return usageError{fmt.Sprintf("--out %q: the Markdown report's name ends in .md (the JSON one is written beside it)", out)}
			}
			settings, err := resolveCommandOptions(given, streams{stdout: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr()})
			if err != nil {
				return err
			}
			key, err := webhookKey(cmd, promptKey, settings.profile)
			if err != nil {
				return err
			}
			scenarios, err := webhookprobe.Certify(cmd.Context(), webhookprobe.CertifyOptions{URL: receiver, Key: key, Tolerance: tolerance})
			if err != nil {
				return usageError{err.Error()}
			}
			report := webhookprobe.NewCertification(receiver, time.Now(), scenarios)
			if err := writeCertification(report, out); err != nil {
				return err
			}
			printCertification(cmd.OutOrStdout(), report, out, asJSON)
			if !report.Passed {
				cmd.SilenceErrors = asJSON
				return errNotCertified
			}
			return nil
		},
	}
	cmd.SilenceUsage = true
	f := cmd.Flags()
	f.StringVar(&receiver, "receiver", "", "the webhook receiver's URL (required)")
	f.StringVar(&out, "out", "certify-report.md", "the Markdown report; the JSON one is written beside it (.json)")
	f.BoolVar(&promptKey, "key", false, "ask for the signing key with a masked prompt (instead of $"+webhookKeyEnv+")")
	f.BoolVar(&asJSON, "json", false, "print the JSON report on stdout too")
	f.DurationVar(&tolerance, "tolerance", apiclient.WebhookTolerance, "the timestamp window the receiver should keep")
	_ = cmd.MarkFlagFilename("out", "md")
	given = addSettingFlags(cmd, func(s *setting) bool { return s.name == "profile" })
	return cmd
}

// writeCertification writes the Markdown report and the JSON beside it.
func writeCertification(report webhookprobe.Certification, markdownPath string) error {
	jsonPath := strings.TrimSuffix(markdownPath, ".md") + ".json"
	if err := atomicfile.Write(markdownPath, func(w io.Writer) error {
		_, err := io.WriteString(w, report.Markdown())
		return err
	}); err != nil {
		return fmt.Errorf("writing %s: %w", markdownPath, err)
	}
	return atomicfile.Write(jsonPath, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(report)
	})
}

// printCertification says how each check went and where the report is.
func printCertification(w io.Writer, report webhookprobe.Certification, markdownPath string, asJSON bool) {
	if asJSON {
		b, _ := json.Marshal(report)
		fmt.Fprintf(w, "%s\n", sanitize.JSON(b))
		return
	}
	for _, s := range report.Scenarios {
		line := fmt.Sprintf("  %-15s %s", s.Name, s.Verdict)
		if s.Why != "" {
			line += ": " + sanitize.Text(s.Why)
		}
		fmt.Fprintln(w, line)
	}
	verdict := "Ready to go live: every check passed."
	if !report.Passed {
		verdict = "Not ready to go live."
	}
	fmt.Fprintf(w, "%s\nReport: %s and %s (SHA-256 %s)\n", verdict, markdownPath, strings.TrimSuffix(markdownPath, ".md")+".json", report.SHA256)
}
