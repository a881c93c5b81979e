package cli

import (
	"bytes"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardterm/sandbox"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite docs/settings.md's settings table from the settings table")

// docs/settings.md's settings section between these marks is written from the
// settings table (readmeSettingsTable).
const (
	readmeSettingsBegin = "<!-- settings table: written from settings_table.go by `go test -run TestTheSettingsDocIsTheSettingsTable ./cli -update-docs` -->"
	readmeSettingsEnd   = "<!-- end of the settings table -->"
)

// readmeSettingsTable is docs/settings.md's table of settings: a row per setting,
// with its flag, variable, profile key, default and meaning.
func readmeSettingsTable() string {
	var b strings.Builder
	b.WriteString("| flag | environment variable | profile key | default | meaning |\n|---|---|---|---|---|\n")
	for _, s := range settings {
		flag := "`--" + s.name
		if s.kind != switchSetting {
			flag += " " + s.placeholder
		}
		flag += "`"
		if s.short != "" {
			flag = "`-" + s.short + "`, " + flag
		}
		key := "—"
		if s.key != "" {
			key = "`" + s.key + "`"
		}
		def := s.unset
		if def == "" {
			def = "`" + s.initial + "`"
		}
		meaning := s.usage
		switch s.kind {
		case choiceSetting:
			quoted := make([]string, len(s.choices))
			for i, c := range s.choices {
				quoted[i] = "`" + c + "`"
			}
			meaning += "; one of " + orList(quoted) + ", in any letter case"
		case switchSetting:
			meaning += "; `true` or `false`"
		}
		if s.survives {
			meaning += "; given at start, it outlasts a switch of profile in the app"
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s | %s |\n", flag, s.env, key, def, meaning)
	}
	return b.String()
}

// docs/settings.md's settings table is the settings table: a setting added to
// one and not the other fails here (-update-docs rewrites it).
func TestTheSettingsDocIsTheSettingsTable(t *testing.T) {
	text, err := os.ReadFile("../docs/settings.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(text)
	begin, end := strings.Index(readme, readmeSettingsBegin), strings.Index(readme, readmeSettingsEnd)
	if begin < 0 || end < begin {
		t.Fatalf("docs/settings.md lacks the settings table's marks:\n%s\n%s", readmeSettingsBegin, readmeSettingsEnd)
	}
	want := readmeSettingsBegin + "\n\n" + readmeSettingsTable() + "\n"
	got := readme[begin:end]
	if got == want {
		return
	}
	if *updateDocs {
		if err := os.WriteFile("../docs/settings.md", []byte(readme[:begin]+want+readme[end:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("docs/settings.md's settings table differs from settings_table.go; run go test -run %s ./cli -update-docs\ndocs:\n%s\nwant:\n%s", t.Name(), got, want)
}

// Every row is whole: a flag, a variable, a meaning and a field of the
// right kind; a profile key and a variable name one setting each.
func TestEverySettingRowIsWhole(t *testing.T) {
	seen := map[string]string{}
	for _, s := range settings {
		if s.name == "" || s.env == "" || s.usage == "" || s.label == "" || s.field == nil {
			t.Errorf("setting %q lacks a flag, variable, usage, label or field", s.name)
		}
		for _, id := range []string{"flag " + s.name, "env " + s.env, "key " + s.key} {
			if other, dup := seen[id]; dup && id != "key " {
				t.Errorf("%s names both %s and %s", id, other, s.name)
			}
			seen[id] = s.name
		}
		var o options
		switch s.field(&o).(type) {
		case *bool:
			if s.kind != switchSetting {
				t.Errorf("%s holds a bool but is not a switch", s.name)
			}
		case *time.Duration:
			if s.kind != durationSetting {
				t.Errorf("%s holds a duration but is not one", s.name)
			}
		case *string:
		default:
			t.Errorf("%s: a field of an unknown type", s.name)
		}
	}
}

// --environment takes production, staging or sandbox in any letter case
// and keeps them in lower case; anything else is refused by the flag, the
// variable and the profile alike, naming the three values.
func TestEnvironmentTakesThreeValuesInAnyCase(t *testing.T) {
	for given, want := range map[string]string{"Sandbox": "sandbox", "PRODUCTION": "production", "staging": "staging"} {
		o, err := resolveOptions(parseGatewayFlags(t, "--environment", given), nil)
		if err != nil || o.environment != want {
			t.Errorf("--environment %s: %q %v, want %q", given, o.environment, err, want)
		}
	}
	for _, bad := range []string{"prod", "Production!", "live"} {
		cmd := newRootCommand(streams{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}})
		cmd.SetArgs([]string{"get", "user", "--environment", bad})
		err := cmd.Execute()
		if exitCode(err) != exitUsage || !strings.Contains(fmt.Sprint(err), "production, staging or sandbox") {
			t.Errorf("--environment %s: exit %d, %v; want 2 naming the three values", bad, exitCode(err), err)
		}
		src := parseGatewayFlags(t)
		src.env = envOf(map[string]string{envEnvironment: bad})
		if _, err := resolveOptions(src, nil); exitCodeFor(err) != exitUsage || !strings.Contains(err.Error(), "production, staging or sandbox") {
			t.Errorf("$%s=%s: %v", envEnvironment, bad, err)
		}
	}
}

// A switch of profile in the app takes the next profile alone, but for
// what outlasts it: --read-only when on, and --debug.
func TestWhatOutlastsASwitchOfProfile(t *testing.T) {
	start, err := resolveOptions(parseGatewayFlags(t, "--read-only", "--debug", "/tmp/d.log", "--client-key", "ck_flag"), precedenceConfig)
	if err != nil {
		t.Fatal(err)
	}
	next, err := start.afterSwitch("globex", precedenceConfig)
	if err != nil || !next.readOnly || next.debugFile != "/tmp/d.log" || next.clientKey != "ck_sandbox_globex" || next.profileShown() != "globex" {
		t.Fatalf("after a switch: %v %+v", err, next)
	}
	// --read-only=false given at start does not turn off the read-only
	// mode of the next profile.
	start, _ = resolveOptions(parseGatewayFlags(t, "--read-only=false"), precedenceConfig)
	if next, _ := start.afterSwitch("globex", precedenceConfig); !next.readOnly {
		t.Fatal("--read-only=false turned off the next profile's read-only mode")
	}
}

// The status bar names the default profile only when the session's
// settings come from it; one asked for by name is always named.
func TestTheProfileIsNamedOnlyWhenItsSettingsAreUsed(t *testing.T) {
	o, _ := resolveOptions(parseGatewayFlags(t, "--base-url", "https://flag.example.com", "--client-key", "ck_flag",
		"--us=false", "--timeout", "3s", "--environment", "staging"), precedenceConfig)
	if o.profileShown() != "" {
		t.Fatalf("every setting came from flags, yet the status bar names %q", o.profileShown())
	}
	if o, _ := resolveOptions(parseGatewayFlags(t), precedenceConfig); o.profileShown() != "acme" {
		t.Fatalf("the default profile's settings are used, but it is named %q", o.profileShown())
	}
	o, _ = resolveOptions(parseGatewayFlags(t, "--profile", "acme", "--base-url", "https://flag.example.com", "--client-key", "ck_flag",
		"--us=false", "--timeout", "3s", "--environment", "staging"), precedenceConfig)
	if o.profileShown() != "acme" {
		t.Fatalf("a profile asked for by name is not named: %q", o.profileShown())
	}
}

// profile add takes the settings table's flags and writes each value as
// the table parses it; profile show lists every setting a profile holds.
func TestProfileAddAndShowFollowTheTable(t *testing.T) {
	path := useConfigDir(t)
	if _, errOut, code := runCLI(t, "profile", "add", "acme", "--environment", "Staging", "--timeout", "90s", "--us", "--no-secret"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	text, _ := os.ReadFile(path)
	for _, want := range []string{"environment: staging", "timeout: 1m30s", "us: \"true\""} {
		if !strings.Contains(string(text), want) && !strings.Contains(string(text), strings.ReplaceAll(want, `"`, "")) {
			t.Errorf("config lacks %q:\n%s", want, text)
		}
	}
	out, _, _ := runCLI(t, "profile", "show", "acme")
	for _, s := range settings {
		if s.key != "" && !strings.Contains(out, s.label+":") {
			t.Errorf("profile show lacks %q:\n%s", s.label, out)
		}
	}
	if _, errOut, code := runCLI(t, "profile", "add", "b", "--environment", "prod"); code != exitUsage || !strings.Contains(errOut, "production, staging or sandbox") {
		t.Fatalf("a bad environment: exit %d, %s", code, errOut)
	}
	writeConfig(t, filepath.Join(filepath.Dir(path), "config.yaml"), "profiles:\n  - name: a\n    colour: red\n")
	_, errOut, _ := runCLI(t, "profile", "list")
	if !strings.Contains(errOut, "unknown setting (there are "+strings.Join(profileKeys(), ", ")+")") {
		t.Fatalf("the unknown-setting message does not list the table's keys: %s", errOut)
	}
}

// sandbox trigger builds its client from the settings like the app:
// --debug FILE gets its request, with no secret.
func TestSandboxTriggerWritesItsRequestToTheDebugLog(t *testing.T) {
	useConfigDir(t)
	gw := httptest.NewServer(sandbox.New(sandbox.Options{}))
	defer gw.Close()
	log := filepath.Join(t.TempDir(), "debug.log")
	out, errOut, code := runCLI(t, "sandbox", "trigger", "card.frozen", "--base-url", gw.URL, "--debug", log)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	text, err := os.ReadFile(log)
	if err != nil || !strings.Contains(string(text), "POST") || !strings.Contains(string(text), "/sandbox/trigger") {
		t.Fatalf("the debug log lacks the trigger's request (%v):\n%s", err, text)
	}
	if strings.Contains(string(text), sandbox.DemoSecretKey) {
		t.Fatalf("the debug log holds the secret key:\n%s", text)
	}
}

// --proxy, added by following ARCHITECTURE.md's recipe for a setting: a
// look-up at a remote gateway goes through the proxy; the embedded
// sandbox, on this machine, does not.
func TestProxySettingSendsGatewayRequestsThroughTheProxy(t *testing.T) {
	useConfigDir(t)
	var asked []string
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = append(asked, r.Method+" "+r.URL.String())
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"message":"No consent set found"}`))
	}))
	defer proxy.Close()
	_, errOut, code := runCLI(t, "get", "consent", "u-1", "--base-url", "http://gateway.test", "--client-key", "ck_live", "--proxy", proxy.URL)
	if code != exitRefused || len(asked) != 1 || !strings.HasPrefix(asked[0], "GET http://gateway.test/v2/consent/user/u-1") {
		t.Fatalf("exit %d (%s); the proxy was asked %q", code, errOut, asked)
	}
	asked = nil
	if out, errOut, code := runCLI(t, "get", "consent", "nobody", "--proxy", proxy.URL); len(asked) != 0 || code != exitRefused {
		t.Fatalf("the embedded sandbox went through the proxy (%q), exit %d: %s %s", asked, code, out, errOut)
	}
	if _, errOut, code := runCLI(t, "get", "user", "--proxy", "ftp://proxy"); code != exitUsage || !strings.Contains(errOut, "not an http, https or socks5 URL") {
		t.Fatalf("a bad proxy: exit %d %s", code, errOut)
	}
}

// The duration settings' initial text is the default it stands for: the
// table writes it as text so that nothing is formatted before main.
func TestDurationDefaultsAsText(t *testing.T) {
	for name, want := range map[string]time.Duration{"timeout": defaultTimeout, "alert-interval": defaultAlertInterval} {
		row := settingNamed(name)
		if got, err := time.ParseDuration(row.initial); err != nil || got != want || row.initial != want.String() {
			t.Errorf("%s: initial %q, want %q", name, row.initial, want)
		}
	}
}
