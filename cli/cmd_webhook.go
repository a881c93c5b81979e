package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"cardterm/domain/humantime"
	"cardterm/sandbox/webhookreceiver"
)

// maxVerifyBody bounds the body `webhook verify` reads.
const maxVerifyBody = 16 << 20

// errNotVerified is the error of a delivery that does not verify; the
// command has already said why.
var errNotVerified = errors.New("not verified")

// newWebhookCommand is `cardterm webhook`, the partner's tools for
// webhook deliveries; `verify` checks a captured one.
func newWebhookCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "webhook",
		Short: "Tools for webhook deliveries",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(newWebhookVerifyCommand(), newWebhookProbeCommand())
	return cmd
}

func newWebhookVerifyCommand() *cobra.Command {
	var o verifyOptions
	var given givenFlags
	cmd := &cobra.Command{
		Use:   "verify --timestamp T --signature S [--body FILE]",
		Short: "Check a captured delivery's signature and timestamp",
		Long: `Check a captured webhook delivery as a receiver must: the signature (X-Signature,
hex HMAC-SHA256 under the signing key of X-Timestamp + "." + body) must match the
body byte for byte, and the timestamp (X-Timestamp, unix seconds) must be within
the tolerance of now. Says exactly why a delivery fails: wrong key or body changed,
timestamp outside the window, or a malformed header. Exit status 0 when it
verifies, 1 when it does not.

The body is read from FILE, or from stdin without --body. The key comes from
$` + webhookKeyEnv + ` or a masked prompt; never from a flag value. To check an old
capture, widen the window, e.g. --tolerance 720h.`,
		Example: `  CARDTERM_WEBHOOK_KEY=whsec_... cardterm webhook verify \
      --timestamp 1772366400 \
      --signature 5d41402abc4b2a76b9719d911017c592... \
      --body delivery.json
  printf '%s' "$BODY" | cardterm webhook verify --timestamp "$TS" \
      --signature "$SIG"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// Flag mistakes are reported by cobra; from here on the
			// command prints its own verdict.
			settings, err := resolveCommandOptions(given, streams{stdout: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr()})
			if err != nil {
				return err
			}
			cmd.SilenceErrors = true
			return runVerify(cmd, o, settings.profile)
		},
	}
	cmd.SilenceUsage = true
	f := cmd.Flags()
	f.StringVar(&o.timestamp, "timestamp", "", "the delivery's X-Timestamp header (unix seconds)")
	f.StringVar(&o.signature, "signature", "", "the delivery's X-Signature header (hex)")
	f.StringVar(&o.bodyFile, "body", "", "file holding the raw body (default: stdin)")
	f.DurationVar(&o.tolerance, "tolerance", webhookreceiver.DefaultTolerance, "how far the timestamp may be from now")
	// Only the profile: it names the keyring entry of the signing key.
	given = addSettingFlags(cmd, func(s *setting) bool { return s.name == "profile" })
	_ = cmd.MarkFlagRequired("timestamp")
	_ = cmd.MarkFlagRequired("signature")
	return cmd
}

type verifyOptions struct {
	timestamp, signature, bodyFile string
	tolerance                      time.Duration
}

func runVerify(cmd *cobra.Command, o verifyOptions, profile string) error {
	errOut := cmd.ErrOrStderr()
	fail := func(err error) error {
		fmt.Fprintln(errOut, "cardterm webhook verify:", err)
		return err
	}
	body, err := readVerifyBody(cmd, o.bodyFile)
	if err != nil {
		return fail(err)
	}
	key, err := webhookKey(cmd, false, profile)
	if err != nil {
		return fail(err)
	}
	now := time.Now()
	err = webhookreceiver.Verify(key, o.timestamp, o.signature, body, now, o.tolerance)
	if err == nil {
		when := humantime.Duration(now.Sub(unixTime(o.timestamp))) + " ago"
		if age := now.Sub(unixTime(o.timestamp)); age < 0 {
			when = humantime.Duration(age) + " in the future"
		}
		fmt.Fprintf(cmd.OutOrStdout(), "verified: the signature matches the body under this key, signed %s (within %s)\n", when, humantime.Duration(o.tolerance))
		return nil
	}
	fmt.Fprintf(errOut, "not verified: %v\n", err)
	if hint := verifyHint(key, o, body, now, err); hint != "" {
		fmt.Fprintln(errOut, hint)
	}
	return fmt.Errorf("%w: %v", errNotVerified, err)
}

// verifyHint adds what most often explains a failure.
func verifyHint(key string, o verifyOptions, body []byte, now time.Time, err error) string {
	switch webhookreceiver.ReasonOf(err) {
	case webhookreceiver.ReasonSignature:
		trimmed := bytes.TrimRight(body, "\r\n")
		if len(trimmed) < len(body) && webhookreceiver.Verify(key, o.timestamp, o.signature, trimmed, now, o.tolerance) == nil {
			return "The body ends with a line break the signed body does not have (echo and editors add one): use printf '%s' or --body with the exact bytes."
		}
		return "Check that the key is this webhook's current one (a rotation replaces it) and that the body is the raw bytes received, not re-encoded JSON."
	case webhookreceiver.ReasonTimestamp:
		return "A receiver refuses deliveries outside the window (replays). For an old capture, widen it with --tolerance."
	}
	return ""
}

// readVerifyBody reads the body from file, or stdin when file is "" or "-".
func readVerifyBody(cmd *cobra.Command, file string) ([]byte, error) {
	var r io.Reader = cmd.InOrStdin()
	if file != "" && file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	} else if isTerminal(cmd.InOrStdin()) {
		fmt.Fprintln(cmd.ErrOrStderr(), "Reading the body from stdin (end with ctrl+d); or give --body FILE.")
	}
	body, err := io.ReadAll(io.LimitReader(r, maxVerifyBody+1))
	if err != nil {
		return nil, fmt.Errorf("reading the body: %w", err)
	}
	if len(body) > maxVerifyBody {
		return nil, fmt.Errorf("the body is larger than %d bytes", maxVerifyBody)
	}
	return body, nil
}

// unixTime reads an X-Timestamp that Verify accepted.
func unixTime(ts string) time.Time {
	var sec int64
	_, _ = fmt.Sscan(ts, &sec)
	return time.Unix(sec, 0)
}
