package cli

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"cardterm/apiclient"
	"cardterm/apiclient/curlcmd"
	"cardterm/sandbox"
)

// `cardterm api --dry-run`: the request written as the curl command the
// app's copy as curl gives (curlcmd), sent nowhere.

// dryRunFlags are --dry-run and --show-secrets.
type dryRunFlags struct {
	on, reveal bool
}

// addDryRunFlags registers the flags on the api command.
func addDryRunFlags(cmd *cobra.Command) *dryRunFlags {
	d := &dryRunFlags{}
	cmd.Flags().BoolVar(&d.on, "dry-run", false, "print the request as a curl command instead of sending it (secrets as $CARDTERM_… variables)")
	cmd.Flags().BoolVar(&d.reveal, "show-secrets", false, "with --dry-run, write the secret key from $"+secretKeyEnv+" instead of its variable")
	return d
}

// printDryRun writes the curl command of call on stdout and the variables
// it needs on stderr. Nothing is sent and nobody signs in: the token is a
// variable; without a base URL the command names the sandbox that
// `cardterm sandbox` serves by default.
func printDryRun(o options, call apiCall, d *dryRunFlags, std streams) int {
	cfg, closeLog, err := clientConfig(o)
	if err != nil {
		fmt.Fprintln(std.stderr, "cardterm api:", err)
		return exitCodeFor(err)
	}
	defer closeLog()
	if cfg.BaseURL == "" {
		cfg.BaseURL = defaultSandboxURL
		if cfg.ClientKey == "" {
			cfg.ClientKey = sandbox.DemoClientKey
		}
	}
	cfg.SecretKey = ""
	if d.reveal {
		cfg.SecretKey = strings.TrimSpace(os.Getenv(secretKeyEnv))
	}
	prepared, err := apiclient.New(cfg).PrepareRaw(context.Background(), call.request)
	if err != nil {
		fmt.Fprintln(std.stderr, "cardterm api:", apiclient.ErrorMessage(err))
		return exitCodeFor(err)
	}
	command, variables := curlcmd.Command(prepared.Request, prepared.Body, curlcmd.Options{Reveal: d.reveal,
		NeedsToken: prepared.NeedsToken && call.request.Header.Get("Authorization") == "", NeedsSecretKey: prepared.NeedsSecretKey})
	fmt.Fprintln(std.stdout, command)
	if len(variables) > 0 {
		fmt.Fprintf(std.stderr, "Set %s first%s.\n", joinVariables(variables), variableHints(variables))
	}
	return 0
}

// joinVariables is "$A, $B and $C".
func joinVariables(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = "$" + n
	}
	if len(quoted) == 1 {
		return quoted[0]
	}
	return strings.Join(quoted[:len(quoted)-1], ", ") + " and " + quoted[len(quoted)-1]
}

// variableHints says where a variable's value comes from.
func variableHints(names []string) string {
	var hints []string
	for _, n := range names {
		switch n {
		case curlcmd.AccessTokenVariable:
			hints = append(hints, "an access token from POST /v1/auth/login")
		case curlcmd.SecretKeyVariable:
			hints = append(hints, "your secret key")
		case curlcmd.BodyFileVariable:
			hints = append(hints, "a file holding the body: it has a NUL byte, which no shell word carries")
		}
	}
	if len(hints) == 0 {
		return ""
	}
	return " (" + strings.Join(hints, "; ") + ")"
}
