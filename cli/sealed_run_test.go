package cli

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// sealedEnvironment is the test's environment without anything of the
// caller's that would change what cardterm does (CARDTERM_*, proxies, a
// browser), with XDG folders of the test's own and no keyring, then env.
func sealedEnvironment(t *testing.T, env ...string) []string {
	t.Helper()
	var out []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(name, "CARDTERM_"), strings.HasPrefix(name, "XDG_"), name == "BROWSER",
			strings.EqualFold(name, "HTTPS_PROXY"), strings.EqualFold(name, "HTTP_PROXY"), strings.EqualFold(name, "ALL_PROXY"),
			name == "DBUS_SESSION_BUS_ADDRESS":
			continue
		}
		out = append(out, kv)
	}
	dir := t.TempDir()
	for _, name := range []string{"XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"} {
		folder := filepath.Join(dir, strings.ToLower(strings.TrimPrefix(name, "XDG_")))
		out = append(out, name+"="+folder)
	}
	return append(append(out, noKeyring), env...)
}

// sealedRun runs the built binary with args in a sealed environment plus
// env, its output piped: what a script sees.
func sealedRun(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = sealedEnvironment(t, env...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}
