package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"cardterm/apiclient"
	"cardterm/apiclient/webhookreceiver"
)

// newListenCommand is `cardterm listen`: a local receiver that checks each
// webhook delivery's signature, shows it (a live list on a terminal, JSON
// lines when piped) and can forward the verified ones to the partner's own
// server, as `stripe listen --forward-to` does.
func newListenCommand() *cobra.Command {
	var o listenOptions
	var given givenFlags
	cmd := &cobra.Command{
		Use:   "listen",
		Short: "Receive webhook deliveries locally, check their signatures, show them",
		Long: `Receive webhook deliveries on a local address, check each one's X-Timestamp and
X-Signature against the webhook's signing key, and show it: verified (answered 200)
or rejected with the reason (answered 401): wrong key or body changed, timestamp
outside the window, replay, malformed header.

The URL it listens on is printed first (on stderr when stdout is piped). Point a
webhook configuration at it: on the sandbox gateway a plain http loopback URL is
accepted; a real gateway needs a public HTTPS address in front of it.

The signing key comes from $` + webhookKeyEnv + `, or with --key from a masked prompt;
never from a flag value. On a terminal each delivery is a line of a live list;
piped, each is one JSON line (control and bidi characters escaped).`,
		Example: `  CARDTERM_WEBHOOK_KEY=whsec_... cardterm listen
  cardterm listen --key --forward-to http://localhost:3000/webhooks
  cardterm listen | jq .eventType`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			settings, err := resolveCommandOptions(given, streams{stdout: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr()})
			if err != nil {
				return err
			}
			return runListen(cmd, o, settings)
		},
	}
	cmd.SilenceUsage = true
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", "127.0.0.1:0", "address to listen on (port 0 picks a free one)")
	f.StringVar(&o.forwardTo, "forward-to", "", "re-post every verified delivery, headers and body unchanged, to this URL")
	f.BoolVar(&o.promptKey, "key", false, "ask for the signing key with a masked prompt (instead of $"+webhookKeyEnv+")")
	f.DurationVar(&o.tolerance, "tolerance", webhookreceiver.DefaultTolerance, "how far a delivery's timestamp may be from now")
	given = addSettingFlags(cmd, localSettings)
	return cmd
}

type listenOptions struct {
	addr, forwardTo string
	promptKey       bool
	tolerance       time.Duration
}

// runListen serves until ctrl+c or SIGTERM. settings give the profile
// (its webhook key) and, for --forward-to, the timeout and the debug log
// of the forwards.
func runListen(cmd *cobra.Command, o listenOptions, settings options) error {
	key, err := webhookKey(cmd, o.promptKey, settings.profile)
	if err != nil {
		return err
	}
	forwardConfig, closeLog, err := clientConfig(settings)
	if err != nil {
		return err
	}
	defer closeLog()
	out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
	live := isTerminal(out)
	// The URL and notes go where a pipe reading the deliveries won't see them.
	notes := errOut
	if live {
		notes = out
	}
	var mu sync.Mutex
	var verified, rejected int
	show := func(d webhookreceiver.Delivery) {
		mu.Lock()
		defer mu.Unlock()
		if d.Verified {
			verified++
		} else {
			rejected++
		}
		if live {
			printDeliveryLine(out, d)
			return
		}
		_, _ = out.Write(deliveryJSONLine(d))
	}
	rcv, err := webhookreceiver.New(webhookreceiver.Options{Key: key, Tolerance: o.tolerance, ForwardTo: o.forwardTo,
		ForwardClient: apiclient.NewHTTPClient(forwardConfig), OnDelivery: show})
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	listener, err := webhookreceiver.Start(o.addr, rcv)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", o.addr, err)
	}
	announceListener(notes, listener.URL, o)
	<-ctx.Done()
	closeErr := listener.Close()
	rcv.Close()
	mu.Lock()
	fmt.Fprintf(notes, "Stopped: %d verified, %d rejected.\n", verified, rejected)
	mu.Unlock()
	return closeErr
}

// announceListener says where deliveries go and what happens to them.
func announceListener(w io.Writer, url string, o listenOptions) {
	fmt.Fprintf(w, "Listening for webhook deliveries on %s\n", url)
	if o.forwardTo != "" {
		fmt.Fprintf(w, "Forwarding verified deliveries to %s\n", o.forwardTo)
	}
	fmt.Fprintf(w, "Signatures checked with the key given; timestamps within %s; ctrl+c stops.\n", o.tolerance)
}
