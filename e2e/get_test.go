package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"cardterm/sandbox"
)

// --json is a flag of get like any other: after the look-up too. With it
// an error answer is printed on stdout as the gateway sent it; without it
// stdout stays empty on an error.
func TestGetJSONFlag(t *testing.T) {
	s := newAPISandbox(t)
	out, errOut, code := cliRun(t, alice, append([]string{"get", "user", "--json"}, s.args...)...)
	if code != exitOK || !strings.Contains(out, `"email": "alice@demo.test"`) {
		t.Fatalf("get user --json: exit %d %q %s", code, out, errOut)
	}

	nora := []string{"CARDTERM_USERNAME=nora@demo.test", "CARDTERM_PASSWORD=demo-pass"}
	out, errOut, code = cliRun(t, nora, append([]string{"get", "card", "--json"}, s.args...)...)
	if code != exitRefused || !strings.Contains(errOut, "cardterm: card: Card not found (404)") {
		t.Fatalf("nora's card: exit %d, stderr %q; want 1 and the message", code, errOut)
	}
	if got := jsonValue(t, "stdout", []byte(out)); !jsonEqual(got, `{"message":"Card not found"}`) {
		t.Errorf("the error answer on stdout: %q", out)
	}
	if out, _, code := cliRun(t, nora, append([]string{"get", "card"}, s.args...)...); code != exitRefused || out != "" {
		t.Errorf("without --json: exit %d, stdout %q; want 1 and nothing", code, out)
	}

	// A refused sign-in is an error answer too: exit 3, the answer printed.
	wrong := []string{"CARDTERM_USERNAME=alice@demo.test", "CARDTERM_PASSWORD=wrong"}
	out, _, code = cliRun(t, wrong, append([]string{"get", "user", "--json"}, s.args...)...)
	if code != exitAuth || !strings.Contains(out, "Not authenticated") {
		t.Errorf("a refused sign-in: exit %d, stdout %q; want 3 and the answer", code, out)
	}
}

func jsonEqual(v any, text string) bool {
	var want any
	_ = json.Unmarshal([]byte(text), &want)
	a, _ := json.Marshal(v)
	b, _ := json.Marshal(want)
	return string(a) == string(b)
}

// Look-ups need no secret: with a remote profile they never ask the
// keyring, so there is no keyring warning (and, without a session bus,
// nothing started).
func TestLookUpsNeverAskTheKeyring(t *testing.T) {
	s := newAPISandbox(t)
	dir := t.TempDir()
	writeConfig(t, filepath.Join(dir, "cardterm", "config.yaml"),
		"profiles:\n  - name: acme\n    base_url: "+s.args[1]+"\n    client_key: "+sandbox.DemoClientKey+"\n")
	for _, bus := range []string{"DBUS_SESSION_BUS_ADDRESS=", noKeyring} {
		env := []string{"XDG_CONFIG_HOME=" + dir, bus, "CARDTERM_SECRET_KEY="}
		out, errOut, code := cliRun(t, env, "get", "consent", s.userID, "--profile", "acme")
		if code != exitOK || !strings.Contains(out, "consentStatus") || strings.Contains(errOut, "keyring") {
			t.Errorf("%s: exit %d, stderr %q; want the answer and no keyring warning", bus, code, errOut)
		}
	}
}

func TestVersionAndProfilesAsJSON(t *testing.T) {
	out, errOut, code := cliRun(t, nil, "version", "--json")
	var v struct{ Version, Go, Platform string }
	if err := json.Unmarshal([]byte(out), &v); code != exitOK || err != nil || v.Go == "" || v.Platform == "" || v.Version == "" {
		t.Errorf("version --json: exit %d %v %q %s", code, err, out, errOut)
	}

	dir := t.TempDir()
	writeConfig(t, filepath.Join(dir, "cardterm", "config.yaml"), `default: acme
profiles:
  - name: acme
    base_url: https://gw.example.com
    client_key: ck_live_acme
    read_only: true
    timeout: 30s
  - name: globex
    client_key: ck_sandbox_globex
`)
	env := []string{"XDG_CONFIG_HOME=" + dir}
	out, errOut, code = cliRun(t, env, "profile", "list", "--json")
	var list []map[string]any
	if err := json.Unmarshal([]byte(out), &list); code != exitOK || err != nil || len(list) != 2 {
		t.Fatalf("profile list --json: exit %d %v %q %s", code, err, out, errOut)
	}
	acme, globex := list[0], list[1]
	if acme["name"] != "acme" || acme["default"] != true || acme["base_url"] != "https://gw.example.com" || acme["client_key"] != "ck_live_acme" ||
		acme["read_only"] != true || acme["us"] != false || acme["timeout"] != "30s" {
		t.Errorf("profile list --json, acme: %v", acme)
	}
	if globex["name"] != "globex" || globex["default"] != false || globex["base_url"] != "" || globex["timeout"] != "15s" {
		t.Errorf("profile list --json, globex: %v", globex)
	}
	if _, ok := acme["secret_key"]; ok {
		t.Errorf("profile list says where secrets are (the keyring is for show): %v", acme)
	}
	out, _, code = cliRun(t, env, "profile", "show", "acme", "--json")
	var shown map[string]any
	if err := json.Unmarshal([]byte(out), &shown); code != exitOK || err != nil || shown["name"] != "acme" || shown["secret_key"] != "unknown" || strings.Contains(out, "sk_") {
		t.Errorf("profile show --json (no keyring): exit %d %v %q", code, err, out)
	}
	out, _, code = cliRun(t, env, "profile", "check", "globex", "--json")
	var check struct {
		Profile           string
		ClientKeyAccepted bool
	}
	if err := json.Unmarshal([]byte(out), &check); code != exitOK || err != nil || !check.ClientKeyAccepted || check.Profile != "globex" {
		t.Errorf("profile check --json: exit %d %v %q", code, err, out)
	}
}
