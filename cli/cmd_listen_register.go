package cli

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox"
	"cardterm/ui/sanitize"
)

// registerTimeout bounds signing in and creating (or deleting) the webhook.
const registerTimeout = 10 * time.Second

// listenWebhookName is the name of the webhook `listen` registers.
const listenWebhookName = "cardterm listen"

// registeredWebhook is the webhook `listen` made on a sandbox for itself:
// the signed-in client that deletes it when listen stops.
type registeredWebhook struct {
	client   *apiclient.Client
	id, key  string
	baseURL  string
	closeLog func()
}

// canRegister reports whether listen may register its own webhook: no key
// was given, and the gateway is a sandbox on this machine (the default
// one at defaultSandboxURL unless the settings name another).
func canRegister(o listenOptions, settings options, profile string) bool {
	if o.promptKey || strings.TrimSpace(os.Getenv(webhookKeyEnv)) != "" || profileWebhookKey(profile) != "" {
		return false
	}
	base := settings.baseURL
	if base == "" {
		base = defaultSandboxURL
	}
	u, err := url.Parse(base)
	return err == nil && apiclient.IsLoopbackHost(u.Hostname())
}

// registerListenWebhook signs in to the sandbox as the tenant's first demo
// user (or $CARDTERM_USERNAME) and creates a webhook for listenURL
// subscribed to every event type the sandbox emits, as `stripe listen`
// does; its signing key comes back once, whole.
func registerListenWebhook(ctx context.Context, settings options, listenURL string, stderr io.Writer) (*registeredWebhook, error) {
	client, baseURL, closeLog, err := sandboxClient(settings, stderr)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*registeredWebhook, error) {
		closeLog()
		return nil, fmt.Errorf("registering a webhook for the listener on %s: %s", baseURL, sanitize.Text(apiclient.ErrorMessage(err)))
	}
	user, pass := os.Getenv("CARDTERM_USERNAME"), os.Getenv("CARDTERM_PASSWORD")
	if user == "" {
		clientKey := settings.clientKey
		if clientKey == "" {
			clientKey = sandbox.DemoClientKey
		}
		demo := sandbox.DemoUsersFor(clientKey)
		if len(demo) == 0 {
			return fail(fmt.Errorf("the client key is not one of the sandbox's demo tenants: set $CARDTERM_USERNAME and $CARDTERM_PASSWORD"))
		}
		user, pass = demo[0].Username, demo[0].Password
	}
	ctx, cancel := context.WithTimeout(ctx, registerTimeout)
	defer cancel()
	if _, err := client.Login(ctx, user, pass); err != nil {
		return fail(err)
	}
	hook, err := client.CreateWebhook(ctx, apiclient.WebhookCreate{Name: listenWebhookName, URL: listenURL,
		EventTypes: append(slices.Clone(apiclient.SandboxEmittedEventTypes), apiclient.SandboxSimulatedEventTypes...), IsActive: true})
	if err != nil {
		return fail(err)
	}
	if !apiclient.WebhookKeyWhole(hook.APIKey) {
		_ = client.DeleteWebhook(ctx, hook.ID)
		return fail(fmt.Errorf("the gateway answered the new webhook's key masked"))
	}
	return &registeredWebhook{client: client, id: hook.ID, key: hook.APIKey, baseURL: baseURL, closeLog: closeLog}, nil
}

// announce says what was registered and prints the signing key, so the
// partner's own server can verify what it is forwarded.
func (r *registeredWebhook) announce(w io.Writer) {
	fmt.Fprintf(w, "Registered webhook %q (%s) on %s for every event type the sandbox sends; it is deleted when listen stops.\n",
		listenWebhookName, sanitize.Text(r.id), r.baseURL)
	fmt.Fprintf(w, "Ready! Your webhook signing key is %s\n", r.key)
}

// remove deletes the webhook and says so when it cannot.
func (r *registeredWebhook) remove(w io.Writer) {
	defer r.closeLog()
	ctx, cancel := context.WithTimeout(context.Background(), registerTimeout)
	defer cancel()
	if err := r.client.DeleteWebhook(ctx, r.id); err != nil {
		fmt.Fprintf(w, "Could not delete webhook %s: %s\n", sanitize.Text(r.id), sanitize.Text(apiclient.ErrorMessage(err)))
	}
}

// catchUp delivers again, in the order they happened, the events of the
// sandbox's history since (a duration back, a time, or an event id) that
// the listener's webhook subscribes to, and says how many came.
func (r *registeredWebhook) catchUp(ctx context.Context, since string, w io.Writer) error {
	q := apiclient.SandboxEventQuery{Since: since}
	if _, err := sandbox.ParseClockStep(since); err != nil {
		if _, err := time.Parse(time.RFC3339, since); err != nil {
			q = apiclient.SandboxEventQuery{After: since} // an event id
		}
	}
	replayed, err := r.client.SandboxReplay(ctx, r.id, q)
	if err != nil {
		return fmt.Errorf("--since %s: %s", since, sanitize.Text(apiclient.ErrorMessage(err)))
	}
	failed := 0
	for _, e := range replayed {
		if e.State != "delivered" {
			failed++
		}
	}
	fmt.Fprintf(w, "Delivered %d missed event(s) since %s, in order", len(replayed)-failed, sanitize.Text(since))
	if failed > 0 {
		fmt.Fprintf(w, "; %d could not be delivered", failed)
	}
	fmt.Fprintln(w, "; now live.")
	return nil
}

// announceClock says the sandbox's time when it differs from the wall
// clock, so deliveries' timestamps read right.
func (r *registeredWebhook) announceClock(ctx context.Context, w io.Writer) {
	clock, err := r.client.SandboxClockNow(ctx)
	if err != nil || !clock.Shifted {
		return
	}
	fmt.Fprintf(w, "Sandbox time %s: %s (cardterm sandbox clock reset puts it back).\n",
		clock.Now.UTC().Format("2006-01-02 15:04:05 UTC"), describeShift(time.Duration(clock.ShiftSeconds)*time.Second))
}
