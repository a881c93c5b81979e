package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/spf13/cobra"

	"cardterm/apiclient"
	"cardterm/ui/sanitize"
)

// sandboxClientFor resolves a sandbox tool's settings and builds its
// client (sandboxClient).
func sandboxClientFor(cmd *cobra.Command, given givenFlags) (*apiclient.Client, string, func(), error) {
	o, err := resolveCommandOptions(given, streams{stdout: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr()})
	if err != nil {
		return nil, "", nil, err
	}
	return sandboxClient(o, cmd.ErrOrStderr())
}

// sandboxToolError is a sandbox tool's failure, with a hint when the base
// URL does not look like a sandbox.
func sandboxToolError(err error, baseURL string) error {
	msg := apiclient.ErrorMessage(err)
	if apiclient.IsStatus(err, 404) && strings.Contains(msg, "Not found") {
		msg += " (is " + baseURL + " a sandbox gateway? Start one with: cardterm sandbox)"
	}
	return fmt.Errorf("%s", sanitize.Text(msg))
}

// newSandboxResendCommand is `cardterm sandbox resend EVENT_ID`.
func newSandboxResendCommand() *cobra.Command {
	var webhookID string
	var given givenFlags
	cmd := &cobra.Command{
		Use:   "resend EVENT_ID",
		Short: "Deliver an event again: the same event id and body, a fresh signature",
		Long: `Ask a running sandbox gateway to deliver the event EVENT_ID again to every webhook
configuration it was delivered to (or only --webhook ID), with the usual retries.
The body is the very same, event_id included; X-Timestamp and X-Signature are new.
Each configuration keeps its latest 50 deliveries: older events cannot be resent.

The sandbox and the tenant come from the settings, as for sandbox trigger: by
default the sandbox at ` + defaultSandboxURL + ` and its demo tenant. Sandbox only.`,
		Example: `  cardterm sandbox resend 3e41c049-f101-5a4c-8b3f-4a6640c19018
  cardterm sandbox resend 3e41c049-f101-5a4c-8b3f-4a6640c19018 \
      --webhook cb2a7c7d-9ef7-5017-a066-77e73b20153f`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			client, baseURL, closeLog, err := sandboxClientFor(cmd, given)
			if err != nil {
				return err
			}
			defer closeLog()
			ev, err := client.SandboxResend(cmd.Context(), args[0], webhookID)
			if err != nil {
				return sandboxToolError(err, baseURL)
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "Resent %s (event %s) to %d webhook(s):\n", sanitize.Text(ev.EventType), sanitize.Text(ev.EventID), len(ev.Deliveries))
			for _, d := range ev.Deliveries {
				fmt.Fprintf(out, "  %s  %s\n", sanitize.Text(d.Name), sanitize.Text(d.URL))
			}
			return nil
		},
	}
	cmd.SilenceUsage = true
	cmd.Flags().StringVar(&webhookID, "webhook", "", "only this webhook configuration")
	given = addSettingFlags(cmd, gatewaySettings)
	return cmd
}

// newSandboxLogsCommand is `cardterm sandbox logs`.
func newSandboxLogsCommand() *cobra.Command {
	var asJSON bool
	var given givenFlags
	cmd := &cobra.Command{
		Use:   "logs",
		Short: "Follow the requests a running sandbox answers (method, path, status, time, tenant)",
		Long: `Follow the requests a running sandbox gateway answers from now on, until ctrl+c:
time, method, path, status, duration and tenant (tenant/environment/region). On a
terminal one line each; piped (or with --json), one JSON object a line:
{"time", "method", "path", "status", "durationMs", "tenant"}. You see your
tenant's requests only (with the tenant's client key and secret key): those
refused before the sandbox knew the backend are yours when they carried your
client key (tenant "TENANT/ENV/"); one with no known client key is shown to
nobody. Queries, headers and bodies are never shown: secrets travel there.

The sandbox and the tenant come from the settings, as for sandbox trigger: by
default the sandbox at ` + defaultSandboxURL + ` and its demo tenant. Sandbox only: it
reads GET /sandbox/logs.`,
		Example: `  cardterm sandbox logs
  cardterm sandbox logs | jq 'select(.status >= 400)'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			print := printLogLine
			if asJSON || !isTerminal(out) {
				print = printLogJSON
			}
			client, baseURL, closeLog, err := sandboxClientFor(cmd, given)
			if err != nil {
				return err
			}
			defer closeLog()
			err = client.SandboxLogs(cmd.Context(), func(e apiclient.SandboxLogEntry) error { return print(out, e) })
			if err != nil {
				return sandboxToolError(err, baseURL)
			}
			return nil // ctrl+c: the way to stop following
		},
	}
	cmd.SilenceUsage = true
	cmd.Flags().BoolVar(&asJSON, "json", false, "one JSON object a line, also on a terminal")
	given = addSettingFlags(cmd, gatewaySettings)
	return cmd
}

// Status colours of the log lines (NO_COLOR and pipes drop them).
func logOKStyle() lipgloss.Style     { return lipgloss.NewStyle().Foreground(lipgloss.Green) }
func logRefuseStyle() lipgloss.Style { return lipgloss.NewStyle().Foreground(lipgloss.Yellow) }
func logErrorStyle() lipgloss.Style  { return lipgloss.NewStyle().Foreground(lipgloss.Red).Bold(true) }
func logFaintStyle() lipgloss.Style  { return lipgloss.NewStyle().Faint(true) }

// printLogLine writes one answered request for a person; the sandbox's
// strings are sanitized.
func printLogLine(w io.Writer, e apiclient.SandboxLogEntry) error {
	if e.Dropped > 0 {
		_, err := lipgloss.Fprintln(w, logFaintStyle().Render(fmt.Sprintf("… %d requests not shown: this terminal read too slowly", e.Dropped)))
		return err
	}
	status := logOKStyle()
	switch {
	case e.Status >= 500:
		status = logErrorStyle()
	case e.Status >= 400:
		status = logRefuseStyle()
	}
	took := fmt.Sprintf("%dms", e.DurationMs)
	if e.DurationMs == 0 {
		took = "<1ms"
	}
	tenant := e.Tenant
	if tenant == "" {
		tenant = "(no tenant)"
	}
	_, err := lipgloss.Fprintf(w, "%s  %-6s %s %s  %s  %s\n", e.Time.Local().Format("15:04:05.000"), sanitize.Text(e.Method),
		status.Render(fmt.Sprint(e.Status)), sanitize.Text(e.Path), logFaintStyle().Render(took),
		logFaintStyle().Render(sanitize.Text(tenant)))
	return err
}

// printLogJSON writes one answered request as a line of JSON in which no
// character can drive a terminal.
func printLogJSON(w io.Writer, e apiclient.SandboxLogEntry) error {
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	_, err = w.Write(append(sanitize.JSON(b), '\n'))
	return err
}
