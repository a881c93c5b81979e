package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// With no arguments the app starts without the command line being built
// (runWithoutArguments); what it says when it cannot start, and how it
// exits, are what the command line says for `cardterm --`, which runs the
// same root command through cobra and fang.
func TestNoArgumentsFailAsTheCommandLineDoes(t *testing.T) {
	for _, c := range []struct {
		name, want string
		setup      func(t *testing.T)
	}{
		{"no terminal", "needs a terminal", func(t *testing.T) {}},
		{"a bad setting in the environment", envTimeout, func(t *testing.T) {
			t.Setenv(envTimeout, "soon")
		}},
		{"an unknown profile", "nowhere", func(t *testing.T) {
			t.Setenv(envProfile, "nowhere")
		}},
		{"a config file that is not YAML", "needs a terminal", func(t *testing.T) {
			writeConfig(t, configPath(), "profiles: [\n")
		}},
		{"a keys file with a conflict", "keys.yaml", func(t *testing.T) {
			writeConfig(t, filepath.Join(filepath.Dir(configPath()), "keys.yaml"),
				"card.freeze: F\ncard.pin: F\n")
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			useConfigDir(t)
			c.setup(t)
			noArguments := runWithNoTerminal(t)
			commandLine := runWithNoTerminal(t, "--")
			if noArguments != commandLine {
				t.Errorf("with no arguments:\n%+v\nthrough the command line (cardterm --):\n%+v", noArguments, commandLine)
			}
			if noArguments.code == exitOK || !strings.Contains(noArguments.stderr, c.want) {
				t.Errorf("exit %d, stderr %q: want a failure naming %q", noArguments.code, noArguments.stderr, c.want)
			}
		})
	}
}

// runOutcome is what a run printed and how it ended.
type runOutcome struct {
	code           int
	stdout, stderr string
}

// runWithNoTerminal runs cardterm with args, stdin on the null device.
func runWithNoTerminal(t *testing.T, args ...string) runOutcome {
	t.Helper()
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	var out, errOut strings.Builder
	code := Run(append([]string{}, args...), devNull, &out, &errOut)
	return runOutcome{code, out.String(), errOut.String()}
}
