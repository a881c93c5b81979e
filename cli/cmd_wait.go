package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"cardterm/apiclient"
	"cardterm/sandbox"
	"cardterm/ui/sanitize"
)

// Poll intervals of `cardterm wait`: the sandbox answers at once, so a
// change is seen within half a second; a remote gateway is asked less
// often unless --interval says otherwise.
const (
	waitSandboxInterval = 500 * time.Millisecond
	waitRemoteInterval  = 2 * time.Second
	waitMinInterval     = 100 * time.Millisecond
)

// newWaitCommand is `cardterm wait KIND [ID] --status STATE`.
func newWaitCommand(std streams) *cobra.Command {
	var given givenFlags
	var status string
	var timeout, interval time.Duration
	cmd := &cobra.Command{
		Use:   "wait KIND [ID] --status STATE",
		Short: "Wait until an order, the card, the verification or a webhook delivery reaches a state",
		Long: `Wait, for scripts, until something reaches a state, as the gateway names it:

  order ID        the order's status: STARTED, PENDING, COMPLETED, FAILED, EXPIRED, REFUNDED
  card            the card's status: ACTIVE, FROZEN, BLOCKED
  verification    the user's verificationState: UNVERIFIED, PENDING, VERIFIED, REJECTED
  delivery EVENT  the webhook delivery of event EVENT (sandbox only): pending, retrying,
                  delivered, failed

It exits 0 as soon as the state is reached, 1 on time-out (--timeout, default 2m) or
when the state reached is final and another (an order FAILED while waiting for
COMPLETED), and 3 or 4 as every command. It asks every --interval (500ms against a
sandbox, 2s elsewhere), waits what Retry-After asks after a 429 or a 503, and on a
terminal shows its progress on stderr. The state reached is printed on stdout.

It signs in as $CARDTERM_USERNAME with $CARDTERM_PASSWORD (on the embedded sandbox,
the first demo user), refreshes the session as needed, and signs out after.

` + exitCodesHelp,
		Example: `  cardterm wait order "$ORDER_ID" --status COMPLETED --timeout 2m
  cardterm wait card --status FROZEN --timeout 30s
  cardterm wait verification --status VERIFIED
  cardterm wait delivery "$EVENT_ID" --status delivered &&
      echo "the receiver has it"`,
		Args: cobra.RangeArgs(1, 2),
		ValidArgs: []cobra.Completion{
			cobra.CompletionWithDesc("order", "an order's status"),
			cobra.CompletionWithDesc("card", "the card's status"),
			cobra.CompletionWithDesc("verification", "the user's verification state"),
			cobra.CompletionWithDesc("delivery", "a webhook delivery of an event"),
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o, err := resolveCommandOptions(given, std)
			if err != nil {
				return err
			}
			return statusError(runWait(o, std, args, waitFlags{status: status, timeout: timeout, interval: interval}))
		},
	}
	cmd.SilenceUsage = true
	cmd.Flags().StringVar(&status, "status", "", "the state to wait for, as the gateway names it (required)")
	cmd.Flags().DurationVar(&timeout, "timeout", 2*time.Minute, "give up after this long (exit 1)")
	cmd.Flags().DurationVar(&interval, "interval", 0, "how often to ask (default 500ms on a sandbox, 2s elsewhere; at least 100ms)")
	_ = cmd.RegisterFlagCompletionFunc("status", func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) == 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return waitStates(args[0]), cobra.ShellCompDirectiveNoFileComp
	})
	// --timeout is how long to wait here, not the per-request timeout
	// setting (still taken from its variable or the profile).
	given = addSettingFlags(cmd, func(s *setting) bool { return gatewaySettings(s) && s.name != "timeout" })
	return cmd
}

// waitFlags are the flags of `cardterm wait`.
type waitFlags struct {
	status            string
	timeout, interval time.Duration
}

// waitStates are the states of a kind, as the gateway names them; nil for
// a kind there is no waiting for. (A switch: a package map is built before
// main on every start.)
func waitStates(kind string) []string {
	switch kind {
	case "order":
		return []string{apiclient.OrderStarted, apiclient.OrderPending, apiclient.OrderCompleted, apiclient.OrderFailed,
			apiclient.OrderExpired, apiclient.OrderRefunded}
	case "card":
		return []string{"ACTIVE", "FROZEN", "BLOCKED"}
	case "verification":
		return []string{"UNVERIFIED", "PENDING", "VERIFIED", "REJECTED"}
	case "delivery":
		return []string{"pending", "retrying", "delivered", "failed"}
	}
	return nil
}

// runWait checks the arguments, signs in and polls; it returns the exit code.
func runWait(o options, std streams, args []string, f waitFlags) int {
	fail := func(code int, err error) int {
		fmt.Fprintf(std.stderr, "cardterm wait: %s\n", sanitize.Text(lookupMessage(err)))
		return code
	}
	o.noPrompt, o.secrets = true, nil
	gw, err := chooseGateway(o, std.stdin, std.stderr)
	if err != nil {
		return fail(exitUsage, err)
	}
	defer gw.close()
	if gw.cfg.ClientKey == "" && (gw.sandbox || isLoopbackURL(gw.cfg.BaseURL)) {
		gw.cfg.ClientKey = sandbox.DemoClientKey // as the sandbox tools do
		if cred, ok := sandbox.CredentialFor(gw.cfg.ClientKey); ok {
			// Sent only once the gateway's answers announce the sandbox.
			gw.cfg.SandboxSecretKey, gw.cfg.SandboxClientID = cred.SecretKey, cred.ClientID
		}
	}
	client := apiclient.New(gw.cfg)
	target, err := waitTargetOf(client, args)
	if err == nil && f.status == "" {
		err = usageError{"--status is required: the state to wait for"}
	}
	if err == nil {
		err = checkWaitState(target, f.status)
	}
	if err == nil && f.interval != 0 && f.interval < waitMinInterval {
		err = usageError{fmt.Sprintf("--interval %s: at least %s", f.interval, waitMinInterval)}
	}
	if err == nil && f.timeout <= 0 {
		err = usageError{"--timeout must be more than 0"}
	}
	if err != nil {
		return fail(exitUsage, err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	_, signOut, err := signIn(ctx, client, gw, "wait")
	if err != nil {
		return fail(exitCodeFor(err), err)
	}
	defer signOut()
	interval := f.interval
	if interval == 0 {
		interval = waitRemoteInterval
		if gw.sandbox || client.AnnouncedSandbox(ctx) {
			interval = waitSandboxInterval
		}
	}
	progress := &waitProgress{started: time.Now()}
	if isTerminal(std.stderr) {
		progress.w, progress.width = std.stderr, 80
		if f, ok := std.stderr.(*os.File); ok {
			if w, _, err := term.GetSize(f.Fd()); err == nil && w > 0 {
				progress.width = w
			}
		}
	}
	state, err := pollUntil(ctx, target, f.status, f.timeout, interval, progress)
	progress.clear()
	switch {
	case errors.Is(err, errWaitTimedOut):
		now := state
		if now == "" {
			now = "not there yet"
		}
		fmt.Fprintf(std.stderr, "cardterm wait: timed out after %s: %s is %s, not %s\n", f.timeout, sanitize.Text(target.what), sanitize.Text(now), f.status)
		return exitRefused
	case err != nil:
		return fail(exitCodeFor(err), err)
	}
	fmt.Fprintln(std.stdout, sanitize.Text(state))
	return exitOK
}

// waitTargetOf reads KIND [ID].
func waitTargetOf(client *apiclient.Client, args []string) (waitTarget, error) {
	kind, id := args[0], ""
	if len(args) == 2 {
		id = strings.TrimSpace(args[1])
	}
	needsID := kind == "order" || kind == "delivery"
	switch {
	case waitStates(kind) == nil:
		return waitTarget{}, usageError{fmt.Sprintf("%q: wait for an order, card, verification or delivery", kind)}
	case needsID && id == "":
		return waitTarget{}, usageError{fmt.Sprintf("wait %s needs its id: cardterm wait %s ID --status STATE", kind, kind)}
	case !needsID && id != "":
		return waitTarget{}, usageError{fmt.Sprintf("wait %s takes no id (it is the signed-in user's)", kind)}
	}
	t := waitTarget{states: waitStates(kind)}
	switch kind {
	case "order":
		t.what, t.final = "order "+id, []string{apiclient.OrderCompleted, apiclient.OrderFailed, apiclient.OrderExpired, apiclient.OrderRefunded}
		t.look = func(ctx context.Context) (string, error) {
			s, err := client.OrderStatus(ctx, id)
			return s.Status, err
		}
	case "card":
		t.what, t.final = "the card", []string{"BLOCKED"}
		t.look = func(ctx context.Context) (string, error) {
			c, err := client.CardStatus(ctx)
			return c.Status, err
		}
	case "verification":
		t.what = "the verification"
		t.look = func(ctx context.Context) (string, error) {
			u, err := client.User(ctx)
			return u.VerificationState, err
		}
	case "delivery":
		t.what, t.final = "the delivery of event "+id, []string{"delivered", "failed"}
		t.look = func(ctx context.Context) (string, error) { return deliveryState(ctx, client, id) }
	}
	return t, nil
}

// deliveryState is the state of the newest delivery of eventID to any of
// the partner's webhooks ("" while none has it).
func deliveryState(ctx context.Context, client *apiclient.Client, eventID string) (string, error) {
	hooks, err := client.Webhooks(ctx)
	if err != nil {
		return "", err
	}
	for _, h := range hooks {
		deliveries, err := client.WebhookDeliveries(ctx, h.ID)
		if err != nil {
			return "", err
		}
		for _, d := range deliveries {
			if d.EventID == eventID {
				return d.State, nil
			}
		}
	}
	return "", nil
}
