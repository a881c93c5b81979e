package cli

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// useConfigDir points the config file at a fresh directory.
func useConfigDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	return filepath.Join(dir, "cardterm", "config.yaml")
}

func writeConfig(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestConfigRoundTripsEveryFieldOwnerOnly(t *testing.T) {
	path := useConfigDir(t)
	want := &config{Default: "acme", Profiles: []profile{
		profileOf("acme", "base_url", "https://gw.example.com", "client_key", "ck_live_acme", "client_id", "acme-live",
			"us", "true", "read_only", "true", "timeout", "40s", "environment", "staging", "start", "support"),
		profileOf("demo-b", "client_key", "ck_sandbox_globex"),
	}}
	if err := saveConfig(path, want); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if mode := info.Mode().Perm(); mode != 0o600 {
		t.Fatalf("config file mode %o, want 600", mode)
	}
	if dir, _ := os.Stat(filepath.Dir(path)); dir.Mode().Perm() != 0o700 {
		t.Fatalf("config dir mode %o, want 700", dir.Mode().Perm())
	}
	text, _ := os.ReadFile(path)
	if !strings.Contains(string(text), "timeout: 40s") {
		t.Errorf("the timeout is not written as a duration:\n%s", text)
	}
	got, err := loadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Profiles) != 2 || !reflect.DeepEqual(got.Profiles, want.Profiles) || got.Default != "acme" {
		t.Fatalf("read back %+v, want %+v", got, want)
	}
	// Written atomically: no temporary file is left beside it.
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("the config directory holds %d files, want only config.yaml", len(entries))
	}
}

func TestConfigKeepsItsModeWhenRewrittenOverALooserFile(t *testing.T) {
	path := useConfigDir(t)
	writeConfig(t, path, "profiles: []\n")
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := saveConfig(path, &config{Profiles: []profile{profileOf("a")}}); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Fatalf("mode %o after a rewrite, want 600", info.Mode().Perm())
	}
}

func TestMalformedConfigNamesFileLineAndField(t *testing.T) {
	path := useConfigDir(t)
	for _, tc := range []struct {
		name, text, want string
	}{
		{"bad duration", "profiles:\n  - name: acme\n    timeout: fast\n", `:3: profiles[0].timeout: "fast" is not a positive duration`},
		{"bad bool", "profiles:\n  - name: acme\n  - name: b\n    us: maybe\n", `:4: profiles[1].us: "maybe" is not true or false`},
		{"unknown field", "profiles:\n  - name: acme\n    base_ulr: https://x\n", `:3: profiles[0].base_ulr: unknown setting`},
		{"a secret", "profiles:\n  - name: acme\n    secret_key: sk_live\n", `:3: profiles[0].secret_key: secrets never go in this file`},
		{"no name", "profiles:\n  - base_url: https://x\n", `:2: profiles[0].name: a profile needs a name`},
		{"twice", "profiles:\n  - name: a\n  - name: a\n", `:3: profiles[1].name: "a" is used twice`},
		{"unknown default", "default: nope\nprofiles:\n  - name: a\n", `default: no profile is called "nope"`},
		{"not yaml", "profiles:\n  - name: a\n   bad: [\n", `not valid YAML`},
		{"bad start", "profiles:\n  - name: a\n    start: cards\n", `:3: profiles[0].start: "cards" is not sign-in or support`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			writeConfig(t, path, tc.text)
			_, err := loadConfig(path)
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v; want the file and %q", err, tc.want)
			}
		})
	}
}

func TestMissingConfigIsEmpty(t *testing.T) {
	path := useConfigDir(t)
	cfg, err := loadConfig(path)
	if err != nil || len(cfg.Profiles) != 0 {
		t.Fatalf("%v %+v", err, cfg)
	}
}
