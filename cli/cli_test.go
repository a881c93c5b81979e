package cli

import (
	"net"
	"net/http/httptest"
	"runtime/debug"
	"strings"
	"testing"

	"cardterm/sandbox"
)

// deadAddress is a loopback address where nothing listens.
func deadAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

func TestExitCodeOfEachFailureClassThroughTheCommands(t *testing.T) {
	path := useConfigDir(t)
	gw := httptest.NewServer(sandbox.New(sandbox.Options{}))
	defer gw.Close()
	writeConfig(t, path, "profiles:\n"+
		"  - name: good\n    base_url: "+gw.URL+"\n    client_key: "+sandbox.DemoClientKey+"\n"+
		"  - name: badkey\n    base_url: "+gw.URL+"\n    client_key: ck_nobody\n"+
		"  - name: down\n    base_url: "+deadAddress(t)+"\n    client_key: "+sandbox.DemoClientKey+"\n"+
		"  - name: sandboxed\n    client_key: ck_sandbox_globex\n")
	t.Setenv(secretKeyEnv, "")
	t.Setenv("CARDTERM_CLIENT_KEY", "")
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		code int
		says string
	}{
		{"help", nil, []string{"--help"}, exitOK, "Exit codes:"},
		{"help command", nil, []string{"help", "profile"}, exitOK, "profile"},
		{"unknown flag", nil, []string{"--no-such-flag"}, exitUsage, "no-such-flag"},
		{"unknown command", nil, []string{"frobnicate"}, exitUsage, "frobnicate"},
		{"unknown subcommand", nil, []string{"profile", "frobnicate"}, exitUsage, "frobnicate"},
		{"extra argument", nil, []string{"version", "extra"}, exitUsage, "extra"},
		{"completion extra argument", nil, []string{"completion", "bash", "extra"}, exitUsage, "extra"},
		{"completion", nil, []string{"completion", "bash"}, exitOK, "__start_cardterm"},
		{"sandbox extra argument", nil, []string{"sandbox", "extra"}, exitUsage, "extra"},
		{"missing argument", nil, []string{"profile", "use"}, exitUsage, "1 arg"},
		{"missing required flag", nil, []string{"webhook", "verify", "--timestamp", "1"}, exitUsage, "signature"},
		{"no look-up", nil, []string{"get"}, exitUsage, ""},
		{"--json without a look-up", nil, []string{"--json"}, exitUsage, "look-up"},
		{"bad base URL", nil, []string{"get", "consent", "u1", "--base-url", "ftp://x"}, exitUsage, "not an http(s) URL"},
		{"unknown profile", nil, []string{"--profile", "nope"}, exitUsage, `no profile called "nope"`},
		{"bad environment value", map[string]string{envTimeout: "soon"}, []string{"get", "consent", "u1"}, exitUsage, envTimeout},
		{"refused", nil, []string{"sandbox", "trigger", "card.frozen", "--user", "nobody", "--base-url", gw.URL}, exitRefused, "User not found"},
		{"refused look-up", nil, []string{"get", "consent", "nobody", "--base-url", gw.URL, "--client-key", sandbox.DemoClientKey}, exitRefused, "404"},
		{"profile reaches its gateway", nil, []string{"profile", "check", "good"}, exitOK, "client key is accepted"},
		{"embedded sandbox profile", nil, []string{"profile", "check", "sandboxed"}, exitOK, "client key is accepted"},
		{"authentication", nil, []string{"profile", "check", "badkey"}, exitAuth, `profile "badkey"`},
		{"network", nil, []string{"profile", "check", "down"}, exitNetwork, `profile "down"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			out, errOut, code := runCLI(t, tc.args...)
			if code != tc.code || !strings.Contains(out+errOut, tc.says) {
				t.Fatalf("cardterm %v: exit %d, want %d saying %q\nstdout %q\nstderr %q", tc.args, code, tc.code, tc.says, out, errOut)
			}
		})
	}
}

func TestVersionCommandAndFlagSayTheSame(t *testing.T) {
	old := [3]string{version, commit, buildDate}
	t.Cleanup(func() { version, commit, buildDate = old[0], old[1], old[2] })
	version, commit, buildDate = "v1.2.3", "0123456789abcdef0123456789abcdef01234567", "2026-11-24T22:00:00Z"
	a, _, code1 := runCLI(t, "version")
	b, _, code2 := runCLI(t, "--version")
	c, _, code3 := runCLI(t, "-v")
	if code1 != 0 || code2 != 0 || code3 != 0 || a != b || a != c {
		t.Fatalf("version %q (%d), --version %q (%d), -v %q (%d)", a, code1, b, code2, c, code3)
	}
	for _, want := range []string{"cardterm v1.2.3", "0123456789abcdef0123456789abcdef01234567", "2026-11-24T22:00:00Z", "go1.", "/"} {
		if !strings.Contains(a, want) {
			t.Errorf("version lacks %q:\n%s", want, a)
		}
	}
}

func TestVersionFromTheBuildInfosVCSSettings(t *testing.T) {
	old := readBuildInfo
	t.Cleanup(func() { readBuildInfo = old })
	readBuildInfo = func() (*debug.BuildInfo, bool) {
		return &debug.BuildInfo{Main: debug.Module{Version: "v0.9.0"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "fedcba9876543210fedcba9876543210fedcba98"},
			{Key: "vcs.time", Value: "2026-11-20T10:00:00Z"},
			{Key: "vcs.modified", Value: "true"},
		}}, true
	}
	v := currentVersion().String()
	for _, want := range []string{"cardterm v0.9.0", "commit:  fedcba9876543210fedcba9876543210fedcba98 (modified)", "built:   2026-11-20T10:00:00Z", "go:      go1."} {
		if !strings.Contains(v, want) {
			t.Errorf("version lacks %q:\n%s", want, v)
		}
	}
	// Without version control information it says so rather than lie.
	readBuildInfo = func() (*debug.BuildInfo, bool) { return &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true }
	if v := currentVersion().String(); !strings.Contains(v, "cardterm dev") || !strings.Contains(v, "unknown") {
		t.Errorf("no vcs info:\n%s", v)
	}
}
