package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"cardterm/apiclient"
	"cardterm/sandbox"
	"cardterm/ui/sanitize"
)

// newSandboxEventsCommand is `cardterm sandbox events`: the event history.
func newSandboxEventsCommand() *cobra.Command {
	var asJSON bool
	var q apiclient.SandboxEventQuery
	var given givenFlags
	cmd := &cobra.Command{
		Use:   "events",
		Short: "List the events a running sandbox sent: by type, user and time",
		Long: `List the events a running sandbox gateway sent for your tenant, oldest first, whether
a webhook was subscribed to them or not: time (the sandbox's), type, user and event id.
The sandbox keeps each tenant's latest 250 events, across restarts with --data.

--type takes an event type or a category (card.*), --user a demo user's name or id,
--since a duration back (10m, 2h, 3d) or an RFC 3339 time, --after an event id.
--json prints the list as JSON, each event with its body as delivered. cardterm
listen --since delivers the events it missed from the same history.

The sandbox and the tenant come from the settings, as for sandbox trigger: by
default the sandbox at ` + defaultSandboxURL + ` and its demo tenant. Sandbox only.`,
		Example: `  cardterm sandbox events
  cardterm sandbox events --type 'transaction.*' --since 1h
  cardterm sandbox events --user alice@demo.test --json |
      jq '.[].event.event_object'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			client, baseURL, closeLog, err := sandboxClientFor(cmd, given)
			if err != nil {
				return err
			}
			defer closeLog()
			events, err := client.SandboxEvents(cmd.Context(), q)
			if err != nil {
				return sandboxToolError(err, baseURL)
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), events)
			}
			printEventHistory(cmd.OutOrStdout(), events)
			return nil
		},
	}
	cmd.SilenceUsage = true
	f := cmd.Flags()
	f.StringVar(&q.Type, "type", "", "only events of this type, or category (card.*)")
	f.StringVar(&q.User, "user", "", "only events about this user (username or id)")
	f.StringVar(&q.Since, "since", "", "only events since: a duration back (10m, 3d) or an RFC 3339 time")
	f.StringVar(&q.After, "after", "", "only events after this event id")
	f.IntVar(&q.Limit, "limit", 0, "only the newest N of them")
	f.BoolVar(&asJSON, "json", false, "print the events as JSON, each with its body")
	_ = cmd.RegisterFlagCompletionFunc("type", func(_ *cobra.Command, _ []string, typed string) ([]cobra.Completion, cobra.ShellCompDirective) {
		out := eventTypeCompletions(typed)
		for _, t := range sandbox.SimulatedEventTypes {
			if strings.HasPrefix(t, typed) {
				out = append(out, cobra.CompletionWithDesc(t, sandbox.WebhookEventOrigin(t)))
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	})
	given = addSettingFlags(cmd, gatewaySettings)
	return cmd
}

// printEventHistory writes one line per event, users by name where the
// sandbox's demo users are known.
func printEventHistory(w io.Writer, events []apiclient.SandboxEvent) {
	if len(events) == 0 {
		fmt.Fprintln(w, "No events match.")
		return
	}
	names := map[string]string{}
	for _, u := range sandbox.DemoUsers() {
		names[sandbox.DemoUserID(u.Username)] = u.Username
	}
	for _, e := range events {
		user := names[e.UserID]
		if user == "" {
			user = e.UserID
		}
		fmt.Fprintf(w, "%s  %-24s %-20s %s\n", e.OccurredAt.UTC().Format("2006-01-02 15:04:05"), sanitize.Text(e.EventType),
			sanitize.Text(user), sanitize.Text(e.EventID))
	}
	fmt.Fprintf(w, "%d event(s)\n", len(events))
}
