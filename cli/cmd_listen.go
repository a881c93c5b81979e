package cli

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"cardterm/apiclient"
	"cardterm/domain/humantime"
	"cardterm/sandbox/webhookreceiver"
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
outside the window, replay, malformed header. A rejected delivery is kept without its
body: its size and first bytes only.

The URL it listens on is printed first (on stderr when stdout is piped). Point a
webhook configuration at it: on the sandbox gateway a plain http loopback URL is
accepted; a real gateway needs a public HTTPS address in front of it. An address
other than loopback (--addr 0.0.0.0:8080) needs --expose.

The signing key comes from $` + webhookKeyEnv + `, the profile's keyring entry, or with
--key from a masked prompt; never from a flag value. Without any of them, on a sandbox
gateway on this machine (--base-url, by default ` + defaultSandboxURL + `), listen
registers a webhook of its own for its URL, subscribed to every event type the
sandbox sends, prints its signing key, and deletes it when it stops (as stripe
listen does); it signs in as the tenant's first demo user, or $CARDTERM_USERNAME.
There --since 10m (a duration, an RFC 3339 time, or an event id) first has the
sandbox deliver the events it sent since then, one after the other in order, from
its event history (cardterm sandbox events), then goes live; and when the sandbox's
clock was moved (cardterm sandbox clock) listen says the sandbox's time. On a
terminal each delivery is a line of a live list; piped, each is one JSON line
(control and bidi characters escaped).

With --chaos (and --forward-to) forwarding behaves like real delivery at its worst,
to test idempotency and ordering: each verified delivery is, with the chance
--chaos-rate for each mutation named, sent twice (duplicate), held back and sent
after the next one (reorder), sent after a wait (delay=2s), or sent again after the
next one (replay). The dice come from --chaos-seed (printed when not given), so the
same seed and the same deliveries give the same sequence; every mutation is logged.

With --forward 'card.*=URL' (repeatable) verified deliveries go by event type: each
to every target whose pattern (a type, a category such as card.*, or *) matches,
each target with a queue of its own, so one that is down or slow holds up no other.
Each forward says its target's counts (forwarded, failed, dropped, pending); piped,
each forward is the delivery's JSON line with "forward": {url, pattern, status,
counts}, and when listen stops a last line {"targets": [...]} gives every target's
counts.

With --events only verified deliveries of those types are shown and forwarded
(card.frozen, or card.* for a category); others are answered 200 and counted.
Rejected deliveries are always shown: their type is the sender's claim.`,
		Example: `  # on the sandbox: registers its own webhook
  cardterm listen
  CARDTERM_WEBHOOK_KEY=whsec_... cardterm listen
  cardterm listen --key --forward-to http://localhost:3000/webhooks
  cardterm listen --forward-to http://localhost:3000/webhooks \
      --chaos duplicate,reorder,delay=2s,replay --chaos-rate 0.3
  cardterm listen --forward-to http://localhost:3000/webhooks \
      --chaos duplicate --chaos-rate 1 --chaos-seed 42
  cardterm listen --events card.frozen,card.unfrozen
  cardterm listen --since 10m     # first what it missed, then live
  cardterm listen --forward 'card.*=http://localhost:3000/cards' \
      --forward 'kyc.*=http://localhost:4000/kyc'

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
	f.BoolVar(&o.expose, "expose", false, "allow an --addr other than loopback: any host that reaches it can send deliveries")
	f.StringVar(&o.forwardTo, "forward-to", "", "re-post every verified delivery, headers and body unchanged, to this URL")
	f.StringArrayVar(&o.forward, "forward", nil, "forward verified deliveries of some event types to a URL: 'card.*=URL' (repeatable; each target has its own queue)")
	f.StringVar(&o.chaos, "chaos", "", "with --forward-to, forward like a bad network: duplicate, reorder, delay=DURATION, replay (comma-separated)")
	f.Float64Var(&o.chaosRate, "chaos-rate", 0.3, "with --chaos, the chance (0 to 1) of each mutation for each delivery")
	f.Uint64Var(&o.chaosSeed, "chaos-seed", 0, "with --chaos, the seed of the dice: the same seed and deliveries give the same mutations (default: a new one, printed)")
	f.StringVar(&o.since, "since", "", "on the sandbox, first deliver the events missed since a duration back (10m), a time or an event id, in order")
	f.StringSliceVar(&o.events, "events", nil, "show and forward only these event types (comma-separated; card.* for a category)")
	f.BoolVar(&o.promptKey, "key", false, "ask for the signing key with a masked prompt (instead of $"+webhookKeyEnv+")")
	f.DurationVar(&o.tolerance, "tolerance", webhookreceiver.DefaultTolerance, "how far a delivery's timestamp may be from now (at most 1h without --allow-wide-tolerance)")
	f.BoolVar(&o.shortKey, "allow-short-key", false, "accept a signing key shorter than 16 bytes (with a warning)")
	f.BoolVar(&o.wideTolerance, "allow-wide-tolerance", false, "accept a --tolerance over 1h (with a warning)")
	_ = cmd.RegisterFlagCompletionFunc("events", completeListenEvents)
	given = addSettingFlags(cmd, localSettings)
	return cmd
}

type listenOptions struct {
	addr, forwardTo         string
	since                   string   // catch up from the sandbox's event history first
	forward                 []string // PATTERN=URL routes (--forward)
	events                  []string
	expose                  bool
	promptKey               bool
	tolerance               time.Duration
	shortKey, wideTolerance bool
	// chaos, chaosRate and chaosSeed mutate the forwards (cmd_listen_chaos.go).
	chaos     string
	chaosRate float64
	chaosSeed uint64
	// register: no key was given and the gateway is a sandbox on this
	// machine, so listen makes its own webhook (cmd_listen_register.go).
	register bool
}

// The bounds `listen` holds a key and a tolerance to: a shorter key can be
// guessed, a wider window lets a captured delivery be replayed for longer.
const (
	minWebhookKeyBytes = 16
	maxTolerance       = time.Hour
)

// checkListenOptions refuses what would make the receiver weaker than it
// looks, saying why and which flag accepts it; what a flag accepted comes
// back as warnings to print.
func checkListenOptions(o listenOptions, key string) (warnings []string, err error) {
	if n := len(key); n < minWebhookKeyBytes && !o.register {
		if !o.shortKey {
			return nil, usageError{fmt.Sprintf("the signing key is %d bytes; a webhook key is at least %d, so this one is probably cut or mistyped (--allow-short-key accepts it)", n, minWebhookKeyBytes)}
		}
		warnings = append(warnings, fmt.Sprintf("Warning: the signing key is only %d bytes; a short key can be guessed.", n))
	}
	switch {
	case o.tolerance < 0:
		return nil, usageError{"--tolerance must not be negative"}
	case o.tolerance > maxTolerance && !o.wideTolerance:
		return nil, usageError{fmt.Sprintf("--tolerance %s is over %s: a captured delivery could be replayed for that long (--allow-wide-tolerance accepts it)", humantime.Duration(o.tolerance), humantime.Duration(maxTolerance))}
	case o.tolerance > maxTolerance:
		warnings = append(warnings, fmt.Sprintf("Warning: timestamps within %s are accepted; a captured delivery can be replayed for that long.", humantime.Duration(o.tolerance)))
	}
	if !isLoopbackAddr(o.addr) && !o.expose {
		return nil, usageError{fmt.Sprintf("--addr %s is not a loopback address: any host that reaches it could send deliveries (--expose allows it)", o.addr)}
	}
	for _, eventType := range o.events {
		if strings.TrimSpace(eventType) == "" {
			return nil, usageError{"--events holds an empty event type"}
		}
	}
	return warnings, nil
}

// listenRoutes reads the --forward routes; --chaos mutates --forward-to only.
func listenRoutes(o listenOptions) ([]webhookreceiver.Route, error) {
	var routes []webhookreceiver.Route
	for _, text := range o.forward {
		r, err := webhookreceiver.ParseRoute(text)
		if err != nil {
			return nil, usageError{"--forward " + err.Error()}
		}
		routes = append(routes, r)
	}
	if o.chaos != "" && o.forwardTo == "" && len(routes) > 0 {
		return nil, usageError{"--chaos mutates the forwards of --forward-to, not of --forward"}
	}
	return routes, nil
}

// runListen serves until ctrl+c or SIGTERM. settings give the profile
// (its webhook key) and, for --forward-to, the timeout and the debug log
// of the forwards.
func runListen(cmd *cobra.Command, o listenOptions, settings options) error {
	o.register = canRegister(o, settings, settings.profile)
	var key string
	if !o.register {
		var err error
		if key, err = webhookKey(cmd, o.promptKey, settings.profile); err != nil {
			return err
		}
	}
	warnings, err := checkListenOptions(o, key)
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
	routes, err := listenRoutes(o)
	if err != nil {
		return err
	}
	printer := &listenPrinter{out: out, live: live, routes: routes}
	if o.forwardTo != "" {
		printer.routes = append([]webhookreceiver.Route{{Pattern: "*", URL: o.forwardTo}}, routes...)
	}
	chaos, err := listenChaos(cmd, o, notes)
	if err != nil {
		return err
	}
	rcv, err := webhookreceiver.New(webhookreceiver.Options{Key: key, Tolerance: o.tolerance, ForwardTo: o.forwardTo, Chaos: chaos,
		Routes: routes, ForwardClient: apiclient.NewHTTPClient(forwardConfig), EventTypes: o.events,
		OnDelivery: printer.delivered, OnForward: printer.forwardDone})
	if err != nil {
		return err
	}
	printer.counts = rcv.RouteCounts
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	listener, err := webhookreceiver.Start(o.addr, rcv)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", o.addr, err)
	}
	for _, w := range warnings {
		fmt.Fprintln(errOut, w)
	}
	if o.since != "" && !o.register {
		return usageError{"--since replays the sandbox's event history to the webhook listen registers: it works without a signing key, on a sandbox on this machine"}
	}
	if o.register {
		registered, err := registerListenWebhook(ctx, settings, listener.URL, errOut)
		if err != nil {
			_ = listener.Close()
			rcv.Close()
			return fmt.Errorf("%w\nStart a sandbox gateway (cardterm sandbox), or give the webhook's signing key: $%s or --key", err, webhookKeyEnv)
		}
		defer registered.remove(notes)
		if err := rcv.AddKey(registered.key); err != nil {
			return err
		}
		announceListener(notes, listener.URL, o)
		registered.announceClock(ctx, notes)
		if o.since != "" {
			if err := registered.catchUp(ctx, o.since, notes); err != nil {
				return err
			}
		}
		registered.announce(notes)
	} else {
		announceListener(notes, listener.URL, o)
	}
	<-ctx.Done()
	closeErr := listener.Close()
	rcv.Close()
	printer.summary(notes, rcv.Ignored(), len(o.events) > 0)
	return closeErr
}

// announceListener says where deliveries go and what happens to them.
func announceListener(w io.Writer, url string, o listenOptions) {
	fmt.Fprintf(w, "Listening for webhook deliveries on %s\n", url)
	if !isLoopbackAddr(o.addr) {
		fmt.Fprintf(w, "Exposed: any host that can reach this machine on that port can send deliveries here; unsigned ones are answered 401 and kept without their bodies.\n")
	}
	if o.forwardTo != "" {
		fmt.Fprintf(w, "Forwarding verified deliveries to %s\n", o.forwardTo)
	}
	for _, text := range o.forward {
		pattern, target, _ := strings.Cut(text, "=")
		fmt.Fprintf(w, "Forwarding %s to %s (a queue of its own)\n", strings.TrimSpace(pattern), strings.TrimSpace(target))
	}
	if len(o.events) > 0 {
		fmt.Fprintf(w, "Showing only %s; other verified deliveries are answered and counted.\n", strings.Join(o.events, ", "))
	}
	keyFrom := "the key given"
	if o.register {
		keyFrom = "the registered webhook's key"
	}
	fmt.Fprintf(w, "Signatures checked with %s; timestamps within %s; ctrl+c stops.\n", keyFrom, humantime.Duration(o.tolerance))
}

// completeListenEvents completes --events: the event types the interface
// names and the sandbox emits, after any already typed before a comma.
func completeListenEvents(_ *cobra.Command, _ []string, typed string) ([]string, cobra.ShellCompDirective) {
	done, last := "", typed
	if i := strings.LastIndex(typed, ","); i >= 0 {
		done, last = typed[:i+1], typed[i+1:]
	}
	seen := map[string]bool{}
	var out []string
	for _, eventType := range slices.Concat(apiclient.WebhookEventTypes, apiclient.SandboxEmittedEventTypes, apiclient.SandboxSimulatedEventTypes) {
		if !seen[eventType] && strings.HasPrefix(eventType, last) {
			seen[eventType] = true
			out = append(out, done+eventType)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}
