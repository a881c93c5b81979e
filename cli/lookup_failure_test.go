package cli

import (
	"strings"
	"testing"
)

// Every failed look-up starts its message as every command's error does
// (printError, commandOf): a mistake on the command line with the command
// used and the hint to --help, anything else with "cardterm: " and the
// look-up; whichever path of get (a page, a statement, a watch) failed.
func TestLookupFailuresStartTheOneWay(t *testing.T) {
	const unreachable = "http://127.0.0.1:1" // nothing listens on port 1
	cases := []struct {
		name  string
		args  []string
		code  int
		start string
	}{
		{"unknown look-up", []string{"get", "frobnicate"}, exitUsage, `cardterm get: no look-up "frobnicate"`},
		{"unknown look-up, --json form", []string{"--json", "frobnicate"}, exitUsage, `cardterm --json: no look-up "frobnicate"`},
		{"no look-up", []string{"get"}, exitUsage, "cardterm get: name a look-up"},
		{"bad argument", []string{"get", "transactions", "abc"}, exitUsage, `cardterm get: transactions: PAGE must be a whole number`},
		{"argument too many", []string{"get", "wallets", "x"}, exitUsage, `cardterm get: wallets takes no arguments`},
		{"statement flag on another look-up", []string{"get", "card", "--all"}, exitUsage, "cardterm get: --since, --until, --all and --format go with"},
		{"sign-in without credentials", []string{"--base-url", unreachable, "--client-key", "ck_x", "get", "card"}, exitUsage, "cardterm get: card: card signs in"},
		{"statement without credentials", []string{"--base-url", unreachable, "--client-key", "ck_x", "get", "transactions", "--all"}, exitUsage, "cardterm get: transactions: transactions signs in"},
		{"watch without credentials", []string{"--base-url", unreachable, "--client-key", "ck_x", "get", "card", "--watch", "1"}, exitUsage, "cardterm get: card: card signs in"},
		{"gateway refusal", []string{"get", "webhook", "no-such-webhook"}, exitRefused, "cardterm: webhook: Webhook configuration not found (404)"},
		{"gateway refusal, --json form", []string{"--json", "consent", "no-such-user"}, exitRefused, "cardterm: consent: No consent set found (404)"},
		{"no network", []string{"--base-url", unreachable, "--client-key", "ck_x", "get", "consent", "u1"}, exitNetwork, "cardterm: consent: cannot reach the gateway"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tc.args...)
			hint := strings.HasSuffix(errOut, "\nTry --help for usage.\n")
			if code != tc.code || !strings.HasPrefix(errOut, tc.start) || hint != (tc.code == exitUsage) {
				t.Errorf("%q: exit %d, stderr %q; want exit %d, starting %q, the --help hint only for a usage mistake", tc.args, code, errOut, tc.code, tc.start)
			}
			if code != exitRefused && out != "" {
				t.Errorf("%q: printed %q on stdout", tc.args, out)
			}
		})
	}
}
