package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"cardterm/apiclient"
	"cardterm/apiclient/sandbox"
	"cardterm/ui"
)

// defaultSandboxURL is where `cardterm sandbox` listens by default.
const defaultSandboxURL = "http://127.0.0.1:8080"

// newSandboxTriggerCommand is `cardterm sandbox trigger`: it asks a running
// sandbox gateway (POST /sandbox/trigger, sandbox-only) to send a signed
// test event to every webhook configuration subscribed to its type.
func newSandboxTriggerCommand() *cobra.Command {
	var user string
	var given givenFlags
	cmd := &cobra.Command{
		Use:   "trigger EVENT_TYPE",
		Short: "Send a signed test event to every webhook subscribed to its type",
		Long: `Ask a running sandbox gateway to send a signed test event of EVENT_TYPE (any dotted
lower-case name) to every active webhook configuration subscribed to it, with the
usual retries. The event object is the user's real card for card events, else a
sample of the real event's shape; it carries "test": true.

Event types the sandbox emits by itself:
  ` + strings.Join(sandbox.WebhookEventTypes, "\n  ") + `

The sandbox and the tenant come from the settings, as for the app (--base-url,
--client-key, --profile, their variables; --debug logs the request): by default
the sandbox at ` + defaultSandboxURL + ` and its demo tenant. The secret key comes from
$CARDTERM_SECRET_KEY or the profile's keyring entry, else the sandbox's own for
its demo tenants. Sandbox only: a real gateway has no such endpoint.`,
		Example: `  cardterm sandbox trigger card.frozen
  cardterm sandbox trigger kyc.status.changed --user nora@demo.test --base-url http://127.0.0.1:8080`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := apiclient.ValidateWebhookEventType(args[0]); err != nil {
				return usageError{err.Error()}
			}
			o, err := resolveCommandOptions(given, streams{stdout: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr()})
			if err != nil {
				return err
			}
			return runSandboxTrigger(cmd, args[0], user, o)
		},
	}
	cmd.SilenceUsage = true
	cmd.Flags().StringVar(&user, "user", "", "user id or username the event is about (default: the tenant's first demo user)")
	given = addSettingFlags(cmd, gatewaySettings)
	return cmd
}

// triggerClient is the trigger's gateway client, from the settings like
// every other command's: the running sandbox at defaultSandboxURL and its
// demo tenant unless they say otherwise.
func triggerClient(o options, stderr io.Writer) (client *apiclient.Client, baseURL string, close func(), err error) {
	cfg, closeLog, err := clientConfig(o)
	if err != nil {
		return nil, "", nil, err
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = defaultSandboxURL
	}
	if cfg.ClientKey == "" {
		cfg.ClientKey = sandbox.DemoClientKey
	}
	cfg.SecretKey = secretKey(o, nil, stderr, false)
	if cred, ok := sandbox.CredentialFor(cfg.ClientKey); ok && cfg.SecretKey == "" {
		cfg.SecretKey = cred.SecretKey
	}
	return apiclient.New(cfg), cfg.BaseURL, closeLog, nil
}

func runSandboxTrigger(cmd *cobra.Command, eventType, user string, o options) error {
	client, baseURL, closeLog, err := triggerClient(o, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	defer closeLog()
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	ev, err := client.SandboxTrigger(ctx, eventType, user)
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
