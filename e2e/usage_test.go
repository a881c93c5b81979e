package e2e

import (
	"strings"
	"testing"
)

// A mistake on the command line exits 2 before anything runs, prints
// nothing on stdout, and stderr starts with the command it is about and
// says what is wrong.
func TestUsageMistakesExitTwoAndSayWhich(t *testing.T) {
	cases := []struct {
		name    string
		env     []string
		args    []string
		command string // what stderr starts with
		says    string
	}{
		{"unknown flag", nil, []string{"--no-such-flag"}, "cardterm: ", "--no-such-flag"},
		{"unknown command", nil, []string{"frobnicate"}, "cardterm: ", `unknown command "frobnicate"`},
		{"unknown look-up", nil, []string{"get", "nope"}, "cardterm get: ", `no look-up "nope"`},
		{"unknown flag of a command", nil, []string{"get", "--bogus"}, "cardterm get: ", "--bogus"},
		{"bad environment", nil, []string{"get", "user", "--environment", "prod"}, "cardterm get: ", "production, staging or sandbox"},
		// It would sign in as someone else (on the sandbox, its first demo user).
		{"password without username", []string{"CARDTERM_USERNAME=", "CARDTERM_PASSWORD=wrong"}, []string{"get", "user"},
			"cardterm get: ", "$CARDTERM_USERNAME"},
		{"api without a path", nil, []string{"api"}, "cardterm api: ", ""},
		{"unknown profile command", nil, []string{"profile", "nope"}, "cardterm profile: ", "nope"},
		{"version with an argument", nil, []string{"version", "extra"}, "cardterm version: ", "extra"},
		{"sandbox with a stray argument", nil, []string{"sandbox", "--addr", "127.0.0.1:0", "extra"}, "cardterm sandbox: ", `"extra"`},
		{"sandbox fault that is no error", nil, []string{"sandbox", "--fault", "GET /v1/card/status=200"},
			"cardterm sandbox: ", `--fault "GET /v1/card/status=200": "200" is neither an error status`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := sealedRun(t, tc.env, tc.args...)
			if code != exitUsage || out != "" || !strings.HasPrefix(errOut, tc.command) || !strings.Contains(errOut, tc.says) {
				t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2, nothing, and %q … %q", tc.args, code, out, errOut, tc.command, tc.says)
			}
			// None was given --json, so none may be about it (get's once was).
			if strings.Contains(errOut, "--json") {
				t.Errorf("%q: stderr mentions --json: %q", tc.args, errOut)
			}
		})
	}
}
