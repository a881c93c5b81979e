package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
)

// webhookKeyEnv names the variable that carries a webhook's signing key:
// like every secret it never comes from a flag value, where it would land
// in shell history and ps.
const webhookKeyEnv = "CARDTERM_WEBHOOK_KEY"

// promptSecret asks for a secret without echoing it, on the terminal of
// stdin or else on /dev/tty (stdin may be carrying a body). Tests replace it.
var promptSecret = func(cmd *cobra.Command, prompt string) (string, error) {
	fd, closeTTY, err := secretTerminal(cmd.InOrStdin())
	if err != nil {
		return "", err
	}
	defer closeTTY()
	fmt.Fprint(cmd.ErrOrStderr(), prompt)
	b, err := term.ReadPassword(fd)
	fmt.Fprintln(cmd.ErrOrStderr())
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}

// secretFromEnvOrPrompt is the secret in the environment variable env, or
// else what is typed at a masked prompt ("" when nothing is typed).
func secretFromEnvOrPrompt(cmd *cobra.Command, env, prompt string) (string, error) {
	if secret := strings.TrimSpace(os.Getenv(env)); secret != "" {
		return secret, nil
	}
	return promptSecret(cmd, prompt)
}

// secretTerminal finds a terminal to read a secret from.
func secretTerminal(stdin io.Reader) (uintptr, func(), error) {
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(f.Fd()) {
		return f.Fd(), func() {}, nil
	}
	tty, err := os.Open("/dev/tty")
	if err != nil || !term.IsTerminal(tty.Fd()) {
		if tty != nil {
			tty.Close()
		}
		return 0, nil, errors.New("no terminal to ask on")
	}
	return tty.Fd(), func() { tty.Close() }, nil
}

// webhookKey is the signing key: from a masked prompt when prompt is set
// (--key), else from $CARDTERM_WEBHOOK_KEY, else from the OS keyring entry
// of the profile (--profile, $CARDTERM_PROFILE or the default one), else
// from a masked prompt when a terminal is there to ask on.
func webhookKey(cmd *cobra.Command, prompt bool, profile string) (string, error) {
	const ask = "Webhook signing key (shown once when the webhook was created or its key rotated): "
	if !prompt {
		if v, ok := os.LookupEnv(webhookKeyEnv); ok && strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v), nil
		}
		if v := profileWebhookKey(profile); v != "" {
			return v, nil
		}
	}
	key, err := promptSecret(cmd, ask)
	if err != nil {
		return "", fmt.Errorf("no signing key: set $%s or run on a terminal to be asked (%v)", webhookKeyEnv, err)
	}
	if key == "" {
		return "", errors.New("no signing key given")
	}
	return key, nil
}

// profileWebhookKey is the webhook signing key kept in the OS keyring for
// the profile, or "" (no profile, none stored, no keyring: the caller then
// asks).
func profileWebhookKey(profile string) string {
	if profile == "" {
		return ""
	}
	v, _ := (&secretStore{}).get(webhookAccount(profile))
	return strings.TrimSpace(v)
}

// isTerminal reports whether stream (stdin, stdout or stderr) is a
// terminal rather than a pipe, file or buffer.
func isTerminal(stream any) bool {
	f, ok := stream.(interface{ Fd() uintptr }) // an *os.File, or stdout wrapped (output_conventions.go)
	return ok && term.IsTerminal(f.Fd())
}
