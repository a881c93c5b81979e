package cli

import (
	"net/http/httptest"
	"strings"
	"testing"

	"cardterm/sandbox"
)

// profile add says what became of the default profile: the first one
// becomes it and says so; a second does not (without a terminal to ask
// on) and says which stays; --default makes it so and says instead of
// which.
func TestProfileAddSaysWhetherItIsTheDefault(t *testing.T) {
	useConfigDir(t)
	t.Setenv(secretKeyEnv, "")
	add := func(args ...string) string {
		t.Helper()
		var out, errOut strings.Builder
		if code := Run(append([]string{"profile", "add"}, args...), nil, &out, &errOut); code != exitOK {
			t.Fatalf("profile add %v: exit %d: %s", args, code, errOut.String())
		}
		return out.String()
	}
	if out := add("acme", "--client-key", "ck_sandbox_acme"); !strings.Contains(out, "It is the default profile: every command without --profile uses it") {
		t.Errorf("the first profile: %q", out)
	}
	if out := add("globex", "--client-key", "ck_sandbox_globex"); !strings.Contains(out, `The default profile stays "acme"; use this one with --profile globex, or make it the default with: cardterm profile use globex`) {
		t.Errorf("a second profile: %q", out)
	}
	if out := add("initech", "--client-key", "ck_sandbox_initech", "--default"); !strings.Contains(out, `It is now the default profile (instead of "acme")`) {
		t.Errorf("--default: %q", out)
	}
	if out := add("umbrella", "--client-key", "ck_sandbox_umbrella", "--default=false"); !strings.Contains(out, `The default profile stays "initech"`) {
		t.Errorf("--default=false: %q", out)
	}
}

// On a terminal profile add asks; enter takes the answer in capitals.
func TestAskYesNo(t *testing.T) {
	for _, c := range []struct {
		typed string
		yes   bool
		want  bool
	}{
		{"\n", true, true}, {"\n", false, false}, {"y\n", false, true}, {"No\n", true, false},
		{"maybe\nyes\n", false, true}, {"", false, false},
	} {
		var out strings.Builder
		if got := askYesNo(&out, strings.NewReader(c.typed), "Default? ", c.yes); got != c.want {
			t.Errorf("%q (default %v): %v, want %v", c.typed, c.yes, got, c.want)
		}
	}
}

// A command whose settings come from a profile the command line did not
// name says which on stderr, once; named with --profile it says nothing.
func TestCommandsSayWhichProfileTheyUse(t *testing.T) {
	sb := httptest.NewServer(sandbox.New(sandbox.Options{}))
	defer sb.Close()
	path := useConfigDir(t)
	writeConfig(t, path, "default: acme\nprofiles:\n  - name: acme\n    base_url: "+sb.URL+"\n    client_key: "+sandbox.DemoClientKey+"\n")
	t.Setenv("CARDTERM_PROFILE", "")
	t.Setenv("CARDTERM_USERNAME", "alice@demo.test")
	t.Setenv("CARDTERM_PASSWORD", "demo-pass")
	run := func(args ...string) string {
		t.Helper()
		var out, errOut strings.Builder
		if code := Run(args, nil, &out, &errOut); code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut.String())
		}
		return errOut.String()
	}
	note := `cardterm: using profile "acme" (the default profile; --profile NAME picks another)` + "\n"
	for _, args := range [][]string{{"get", "card"}, {"api", "/v1/card/status"}} {
		if got := run(args...); got != note {
			t.Errorf("%v: stderr %q, want %q", args, got, note)
		}
	}
	if got := run("get", "card", "--profile", "acme"); got != "" {
		t.Errorf("--profile acme: stderr %q, want nothing", got)
	}
	t.Setenv("CARDTERM_PROFILE", "acme")
	if got := run("get", "card"); got != `cardterm: using profile "acme" (from $CARDTERM_PROFILE)`+"\n" {
		t.Errorf("$CARDTERM_PROFILE: stderr %q", got)
	}
}
