package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// The sandbox's data directory is a setting: --data, else
// $CARDTERM_SANDBOX_DATA, else the profile's sandbox_data; reset, export
// and import without any of them say where to give it.
func TestSandboxDataDirectoryComesFromTheSettings(t *testing.T) {
	useConfigDir(t)
	mockKeyring(t)
	t.Setenv(envSandboxData, "")
	t.Setenv(envProfile, "")
	_, errOut, code := runCLI(t, "sandbox", "reset")
	if code != exitUsage || !strings.Contains(errOut, "--data DIR") || !strings.Contains(errOut, envSandboxData) || !strings.Contains(errOut, "sandbox_data") {
		t.Fatalf("reset with no directory: %d %q", code, errOut)
	}

	fromProfile, fromEnv, fromFlag := t.TempDir(), t.TempDir(), t.TempDir()
	if _, errOut, code := runCLI(t, "profile", "add", "partner", "--data", fromProfile); code != 0 {
		t.Fatalf("profile add --data: %d %q", code, errOut)
	}
	if out, _, _ := runCLI(t, "profile", "show", "partner"); !strings.Contains(out, "sandbox dir: "+fromProfile) {
		t.Fatalf("profile show lacks the data directory:\n%s", out)
	}
	reset := func(args ...string) string {
		t.Helper()
		out, errOut, code := runCLI(t, append([]string{"sandbox", "reset"}, args...)...)
		if code != 0 {
			t.Fatalf("sandbox reset %v: %d %q", args, code, errOut)
		}
		return out
	}
	if out := reset(); !strings.Contains(out, filepath.Join(fromProfile, "sandbox.db")) {
		t.Errorf("the default profile's sandbox_data was not used: %q", out)
	}
	t.Setenv(envSandboxData, fromEnv)
	if out := reset(); !strings.Contains(out, filepath.Join(fromEnv, "sandbox.db")) {
		t.Errorf("$%s did not win over the profile: %q", envSandboxData, out)
	}
	if out := reset("--data", fromFlag); !strings.Contains(out, filepath.Join(fromFlag, "sandbox.db")) {
		t.Errorf("--data did not win over the environment: %q", out)
	}
}

// Each command takes the settings of its kind: the app's switches are
// not flags of get or of the sandbox, the sandbox's directory is not a
// flag of the app.
func TestSettingsAreTakenByTheirCommandsOnly(t *testing.T) {
	useConfigDir(t)
	for _, args := range [][]string{
		{"--data", "x"},
		{"get", "card", "--presenter"},
		{"listen", "--mouse=false"},
		{"sandbox", "--presenter"},
		{"sandbox", "trigger", "card.frozen", "--data", "x"},
	} {
		if _, errOut, code := runCLI(t, args...); code != exitUsage || !strings.Contains(errOut, "unknown flag") {
			t.Errorf("%v: %d %q, want an unknown flag", args, code, errOut)
		}
	}
	o, err := resolveOptions(settingSources{env: func(name string) string {
		return map[string]string{envPresenter: "yes"}[name]
	}}, &config{})
	if err == nil || !strings.Contains(err.Error(), envPresenter) {
		t.Errorf("$%s=yes: %v (%+v)", envPresenter, err, o.presenter)
	}
	o, err = resolveOptions(settingSources{flags: givenFlags{"presenter": "true"}, env: func(name string) string {
		return map[string]string{envMouse: "false"}[name]
	}}, &config{})
	if err != nil || !o.presenter || o.mouse {
		t.Errorf("--presenter and $%s=false: presenter %v mouse %v %v", envMouse, o.presenter, o.mouse, err)
	}
	if o, _ := resolveOptions(settingSources{}, &config{}); o.presenter || !o.mouse {
		t.Errorf("defaults: presenter %v mouse %v, want off and on", o.presenter, o.mouse)
	}
}
