package cli

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"strings"

	"cardterm/apiclient"
	"cardterm/apiclient/curlcmd"
	"cardterm/sandbox"
)

// variableHints say where each variable a printed curl command can hold
// comes from.
var variableHints = map[string]string{
	curlcmd.AccessTokenVariable: "an access token from POST /v1/auth/login",
	curlcmd.SecretKeyVariable:   "your secret key",
	curlcmd.BodyFileVariable:    "a file holding the body: it has a NUL byte, which no shell word carries",
}

// printDryRun is `cardterm api --dry-run`: the curl command of call
// (curlcmd, as the app's copy as curl writes it) on stdout and the
// variables it needs on stderr. Nothing is sent and nobody signs in: the
// token is a variable; without a base URL the command names the sandbox
// `cardterm sandbox` serves by default.
func printDryRun(o options, call apiCall, showSecrets bool, std streams) int {
	cfg, closeLog, err := clientConfig(o)
	if err != nil {
		fmt.Fprintln(std.stderr, "cardterm api:", err)
		return exitCodeFor(err)
	}
	defer closeLog()
	if cfg.BaseURL == "" {
		cfg.BaseURL = defaultSandboxURL
		cfg.ClientKey = cmp.Or(cfg.ClientKey, sandbox.DemoClientKey)
	}
	cfg.SecretKey = ""
	if showSecrets {
		cfg.SecretKey = strings.TrimSpace(os.Getenv(secretKeyEnv))
	}
	prepared, err := apiclient.New(cfg).PrepareRaw(context.Background(), call.request)
	if err != nil {
		fmt.Fprintln(std.stderr, "cardterm api:", apiclient.ErrorMessage(err))
		return exitCodeFor(err)
	}
	command, variables := curlcmd.Command(prepared.Request, prepared.Body, curlcmd.Options{Reveal: showSecrets,
		NeedsToken: prepared.NeedsToken && call.request.Header.Get("Authorization") == "", NeedsSecretKey: prepared.NeedsSecretKey})
	fmt.Fprintln(std.stdout, command)
	if len(variables) > 0 {
		hints := make([]string, len(variables))
		for i, variable := range variables {
			hints[i] = variableHints[variable]
		}
		fmt.Fprintf(std.stderr, "Set $%s first (%s).\n", strings.Join(variables, " and $"), strings.Join(hints, "; "))
	}
	return exitOK
}
