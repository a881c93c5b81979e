package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"cardterm/apiclient"
	"cardterm/sandbox"
	"cardterm/ui/sanitize"
)

// newSandboxTriggerCommand is `cardterm sandbox trigger`: it asks a running
// sandbox gateway (POST /sandbox/trigger, sandbox-only) to send a signed
// test event to every webhook configuration subscribed to its type.
func newSandboxTriggerCommand() *cobra.Command {
	var user, fixture string
	var overrides []string
	var given givenFlags
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

The sandbox and the tenant come from the settings, as for the app (--base-url,
--client-key, --profile, their variables; --debug logs the request): by default
the sandbox at ` + defaultSandboxURL + ` and its demo tenant. The secret key comes from
$CARDTERM_SECRET_KEY or the profile's keyring entry, else the sandbox's own for
its demo tenants. Sandbox only: a real gateway has no such endpoint.`,
		Example: `  cardterm sandbox trigger card.frozen
  cardterm sandbox trigger kyc.status.changed --user nora@demo.test \
      --base-url http://127.0.0.1:8080
  cardterm sandbox trigger card.frozen \
      --override event_object.status=FROZEN \
      --override event_object.panLast4='"0000"'
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
			o, err := resolveCommandOptions(given, streams{stdout: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr()})
			if err != nil {
				return err
			}
			return runSandboxTrigger(cmd, in, o)
		},
	}
	cmd.SilenceUsage = true
	f := cmd.Flags()
	f.StringVar(&user, "user", "", "user id or username the event is about (default: the tenant's first demo user)")
	f.StringVar(&fixture, "fixture", "", "JSON file giving the event's fields")
	f.StringArrayVar(&overrides, "override", nil, "set a field of the delivered event: PATH=VALUE, e.g. event_object.status=FROZEN (repeatable)")
	_ = cmd.MarkFlagFilename("fixture", "json")
	given = addSettingFlags(cmd, gatewaySettings)
	return cmd
}

func runSandboxTrigger(cmd *cobra.Command, in apiclient.SandboxTriggerRequest, o options) error {
	client, baseURL, closeLog, err := sandboxClient(o, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	defer closeLog()
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
		return fmt.Errorf("%s", sanitize.Text(msg))
	}
	out := cmd.OutOrStdout()
	if len(ev.Deliveries) == 0 {
		fmt.Fprintf(out, "No active webhook is subscribed to %s: nothing was sent (event %s).\n", sanitize.Text(ev.EventType), sanitize.Text(ev.EventID))
		return nil
	}
	fmt.Fprintf(out, "Sent %s (event %s, user %s) to %d webhook(s):\n", sanitize.Text(ev.EventType), sanitize.Text(ev.EventID), sanitize.Text(ev.UserID), len(ev.Deliveries))
	for _, d := range ev.Deliveries {
		fmt.Fprintf(out, "  %s  %s\n", sanitize.Text(d.Name), sanitize.Text(d.URL))
	}
	return nil
}
