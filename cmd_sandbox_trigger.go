package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"cardterm/apiclient"
	"cardterm/apiclient/sandbox"
	"cardterm/ui"
)

// defaultSandboxURL is where `cardterm sandbox` listens by default.
const defaultSandboxURL = "http://127.0.0.1:8080"

// The tenant's credentials for the trigger, from the same variables the
// app reads (the secret key never from a flag).
const (
	triggerClientKeyEnv = "CARDTERM_CLIENT_KEY"
	triggerSecretKeyEnv = "CARDTERM_SECRET_KEY"
)

// newSandboxTriggerCommand is `cardterm sandbox trigger`: it asks a running
// sandbox gateway (POST /sandbox/trigger, sandbox-only) to send a signed
// test event to every webhook configuration subscribed to its type.
func newSandboxTriggerCommand() *cobra.Command {
	var user, baseURL, fixture string
	var overrides []string
	var us bool
	cmd := &cobra.Command{
		Use:   "trigger [EVENT_TYPE]",
		Short: "Send a signed test event to every webhook subscribed to its type",
		Long: `Ask a running sandbox gateway to send a signed test event of EVENT_TYPE (any dotted
lower-case name) to every active webhook configuration subscribed to it, with the
usual retries. The event object is the user's real card for card events, else a
sample of the real event's shape; it carries "test": true.

--fixture FILE gives the event's fields as a JSON object (event_object,
event_object_id, user_id, occurred_at, api_version, event_category; event_type
too, which then may stand for EVENT_TYPE), each replacing the generated one.
--override PATH=VALUE (repeatable, applied in order after the fixture) sets the
field at a dotted path into the delivered event, e.g. event_object.status=FROZEN
or event_object.items.0.name=x; VALUE is JSON when it parses as JSON (12, true,
{"a":1}, "12"), else a string. event_id stays the sandbox's own.

Event types the sandbox emits by itself:
  ` + strings.Join(sandbox.WebhookEventTypes, "\n  ") + `

The sandbox is found at --base-url (default $CARDTERM_BASE_URL, else ` + defaultSandboxURL + `).
The tenant is that of $CARDTERM_CLIENT_KEY and $CARDTERM_SECRET_KEY, by default the
sandbox's demo tenant. Sandbox only: a real gateway has no such endpoint.`,
		Example: `  cardterm sandbox trigger card.frozen
  cardterm sandbox trigger kyc.status.changed --user nora@demo.test --base-url http://127.0.0.1:8080
  cardterm sandbox trigger card.frozen --override event_object.status=FROZEN --override event_object.panLast4='"0000"'
  cardterm sandbox trigger --fixture testdata/order-failed.json`,
		Args: cobra.MaximumNArgs(1),
		ValidArgsFunction: func(_ *cobra.Command, args []string, typed string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return eventTypeCompletions(typed), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			in, err := triggerRequest(args, user, fixture, overrides)
			if err != nil {
				return err
			}
			return runSandboxTrigger(cmd, in, baseURL, us)
		},
	}
	cmd.SilenceUsage = true
	f := cmd.Flags()
	f.StringVar(&user, "user", "", "user id or username the event is about (default: the tenant's first demo user)")
	f.StringVar(&baseURL, "base-url", envOr("CARDTERM_BASE_URL", defaultSandboxURL), "base URL of the running sandbox gateway")
	f.BoolVar(&us, "us", false, "the user is on the US backend (x-us-env: true)")
	f.StringVar(&fixture, "fixture", "", "JSON file giving the event's fields")
	f.StringArrayVar(&overrides, "override", nil, "set a field of the delivered event: PATH=VALUE, e.g. event_object.status=FROZEN (repeatable)")
	_ = cmd.MarkFlagFilename("fixture", "json")
	return cmd
}

func runSandboxTrigger(cmd *cobra.Command, in apiclient.SandboxTriggerRequest, baseURL string, us bool) error {
	client := apiclient.New(apiclient.Config{
		BaseURL:   baseURL,
		ClientKey: envOr(triggerClientKeyEnv, sandbox.DemoClientKey),
		SecretKey: envOr(triggerSecretKeyEnv, sandbox.DemoSecretKey),
		US:        us,
		Timeout:   15 * time.Second,
		UserAgent: "cardterm-sandbox-trigger",
	})
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	ev, err := client.SandboxTriggerEvent(ctx, in)
	if err != nil {
		msg := apiclient.ErrorMessage(err)
		if apiclient.IsNotFound(err) && !strings.Contains(strings.ToLower(msg), "user") {
			msg += " (is " + baseURL + " a sandbox gateway? Start one with: cardterm sandbox)"
		}
		return fmt.Errorf("%s", ui.Sanitize(msg))
	}
	out := cmd.OutOrStdout()
	if len(ev.Deliveries) == 0 {
		fmt.Fprintf(out, "No active webhook is subscribed to %s: nothing was sent (event %s).\n", ui.Sanitize(ev.EventType), ui.Sanitize(ev.EventID))
		return nil
	}
	fmt.Fprintf(out, "Sent %s (event %s, user %s) to %d webhook(s):\n", ui.Sanitize(ev.EventType), ui.Sanitize(ev.EventID), ui.Sanitize(ev.UserID), len(ev.Deliveries))
	for _, d := range ev.Deliveries {
		fmt.Fprintf(out, "  %s  %s\n", ui.Sanitize(d.Name), ui.Sanitize(d.URL))
	}
	return nil
}

// envOr is $name, or def when it is unset or empty.
func envOr(name, def string) string {
	if v := strings.TrimSpace(os.Getenv(name)); v != "" {
		return v
	}
	return def
}
