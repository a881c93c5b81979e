package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardterm/sandbox"
)

// cliRun runs the built binary with args and env (added to the test's
// environment), with a config folder of its own, its stdout piped: what a
// script sees.
func cliRun(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runPiped(t, append([]string{"XDG_CONFIG_HOME=" + t.TempDir()}, env...), nil, args...)
}

// apiSandbox is a sandbox gateway served over HTTP in the test, the
// command line that reaches it as a remote gateway, and a reader of what
// it answers with alice's own session.
type apiSandbox struct {
	gateway gatewayReader
	args    []string
	userID  string
}

var alice = []string{"CARDTERM_USERNAME=alice@demo.test", "CARDTERM_PASSWORD=demo-pass"}

func newAPISandbox(t *testing.T) apiSandbox {
	t.Helper()
	sb := startSandboxInProcess(t, sandbox.Options{})
	gw := gatewayReader{t: t, base: sb.URL}
	var login struct{ AccessToken string }
	_ = json.Unmarshal(gw.do("POST", "/v1/auth/login", map[string]string{"username": "alice@demo.test", "password": "demo-pass"}), &login)
	gw.token = login.AccessToken
	var user struct{ ID string }
	_ = json.Unmarshal(gw.do("GET", "/v1/user", nil), &user)
	if user.ID == "" {
		t.Fatal("no user id from the sandbox")
	}
	return apiSandbox{gateway: gw, userID: user.ID,
		args: []string{"--base-url", sb.URL, "--client-key", sandbox.DemoClientKey, "--environment", "sandbox"}}
}

// api runs `cardterm api ARGS` on the sandbox as alice.
func (s apiSandbox) api(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return cliRun(t, append(append([]string{}, alice...), env...), append(append([]string{"api"}, args...), s.args...)...)
}

func TestAPIGetPrintsTheGatewaysBytes(t *testing.T) {
	s := newAPISandbox(t)
	for _, path := range []string{"/v1/user", "/v1/card/status", "/v2/consent/user/" + s.userID + "?full=true"} {
		out, errOut, code := s.api(t, nil, path)
		if want := s.gateway.do("GET", path, nil); code != exitOK || out != string(want) {
			t.Errorf("api %s: exit %d, stderr %q\n got %q\nwant %q", path, code, errOut, out, want)
		}
	}
	// GET named, and without the leading slash.
	if out, _, code := s.api(t, nil, "get", "v1/user"); code != exitOK || out != string(s.gateway.do("GET", "/v1/user", nil)) {
		t.Errorf("api get v1/user: exit %d %q", code, out)
	}
}

func TestAPIFieldsAreQueryParametersOrTheBody(t *testing.T) {
	s := newAPISandbox(t)
	out, errOut, code := s.api(t, nil, "-X", "GET", "/v2/consent/user/"+s.userID+"/audit", "-f", "limit=2", "--jq", ".pagination.limit, (.auditRecords | length)")
	if code != exitOK || out != "2\n2\n" {
		t.Errorf("GET with -f limit=2: exit %d, %q, %s", code, out, errOut)
	}

	var hooks []struct{ ID string }
	_ = json.Unmarshal(s.gateway.do("GET", "/v1/webhooks", nil), &hooks)
	nameFile := filepath.Join(t.TempDir(), "name")
	if err := os.WriteFile(nameFile, []byte("Renamed from a file"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = s.api(t, nil, "PUT", "/v1/webhooks/"+hooks[0].ID, "-F", "name=@"+nameFile, "-F", "is_active=false", "-f", "url=https://hooks.example.com/x")
	if code != exitOK || !strings.Contains(out, `"success":true`) {
		t.Fatalf("PUT with fields: exit %d, %q, %s", code, out, errOut)
	}
	var hook struct {
		Name     string
		URL      string
		IsActive bool
	}
	_ = json.Unmarshal(s.gateway.do("GET", "/v1/webhooks/"+hooks[0].ID, nil), &hook)
	if hook.Name != "Renamed from a file" || hook.IsActive || hook.URL != "https://hooks.example.com/x" {
		t.Errorf("the body's fields did not arrive: %+v", hook)
	}
}

func TestAPIPaginateFollowsNextLinks(t *testing.T) {
	s := newAPISandbox(t)
	var all struct {
		AuditRecords []struct{ AuditID string }
		Pagination   struct{ Total int }
	}
	_ = json.Unmarshal(s.gateway.do("GET", "/v2/consent/user/"+s.userID+"/audit?limit=100", nil), &all)
	if all.Pagination.Total < 3 {
		t.Fatalf("the sandbox's audit trail has %d records; the test needs pages", all.Pagination.Total)
	}
	out, errOut, code := s.api(t, nil, "/v2/consent/user/"+s.userID+"/audit", "-f", "limit=2", "--paginate", "--jq", ".auditRecords[].auditId")
	ids := strings.Fields(out)
	if code != exitOK || len(ids) != all.Pagination.Total {
		t.Fatalf("--paginate: exit %d, %d ids, want %d: %s", code, len(ids), all.Pagination.Total, errOut)
	}
	for i, record := range all.AuditRecords {
		if ids[i] != record.AuditID {
			t.Fatalf("record %d: %s, want %s (pages out of order or repeated)", i, ids[i], record.AuditID)
		}
	}
	// Without --jq every page is printed as sent, one after the other.
	out, _, _ = s.api(t, nil, "/v2/consent/user/"+s.userID+"/audit", "-f", "limit=2", "--paginate")
	pages := 0
	for dec := json.NewDecoder(strings.NewReader(out)); dec.More(); pages++ {
		var page any
		if err := dec.Decode(&page); err != nil {
			t.Fatalf("page %d: %v", pages, err)
		}
	}
	if want := (all.Pagination.Total + 1) / 2; pages != want {
		t.Errorf("%d pages printed, want %d", pages, want)
	}
}

func TestAPIJQ(t *testing.T) {
	s := newAPISandbox(t)
	if out, errOut, code := s.api(t, nil, "/v1/user", "--jq", ".email"); code != exitOK || out != "alice@demo.test\n" {
		t.Errorf("--jq .email: exit %d %q %s", code, out, errOut)
	}
	if out, _, code := s.api(t, nil, "/v1/user", "--jq", "{email, verified: (.verificationState == \"VERIFIED\")}"); code != exitOK || out != `{"email":"alice@demo.test","verified":true}`+"\n" {
		t.Errorf("--jq object: exit %d %q", code, out)
	}
	if _, errOut, code := s.api(t, nil, "/v1/user", "--jq", ".[[["); code != exitUsage || !strings.Contains(errOut, "--jq") {
		t.Errorf("a bad --jq: exit %d %q; want 2", code, errOut)
	}
}

// Read-only, from a flag, the environment or the profile, sends GET only:
// anything else is refused with exit 2 before the gateway is asked.
func TestAPIReadOnlyRefusesAllButGET(t *testing.T) {
	s := newAPISandbox(t)
	config := filepath.Join(t.TempDir(), "cardterm", "config.yaml")
	writeConfig(t, config, "profiles:\n  - name: agent\n    base_url: "+s.args[1]+"\n    client_key: "+sandbox.DemoClientKey+"\n    read_only: true\n")
	for _, c := range []struct {
		env  []string
		args []string
	}{
		{nil, []string{"POST", "/v1/card/freeze", "--read-only"}},
		{[]string{"CARDTERM_READ_ONLY=true"}, []string{"DELETE", "/v1/wallet/whitelist"}},
		{[]string{"XDG_CONFIG_HOME=" + filepath.Dir(filepath.Dir(config))}, []string{"PATCH", "/v2/consent/onboarding/x", "--profile", "agent"}},
	} {
		out, errOut, code := s.api(t, c.env, c.args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, "read-only") {
			t.Errorf("%v: exit %d, out %q, stderr %q; want 2", c.args, code, out, errOut)
		}
	}
	var card struct{ Status string }
	_ = json.Unmarshal(s.gateway.do("GET", "/v1/card/status", nil), &card)
	if card.Status != "ACTIVE" {
		t.Errorf("the card is %s: a refused freeze reached the gateway", card.Status)
	}
	if out, _, code := s.api(t, nil, "/v1/card/status", "--read-only", "--jq", ".status"); code != exitOK || out != "ACTIVE\n" {
		t.Errorf("GET under --read-only: exit %d %q", code, out)
	}
}

// An error answer is printed on stdout as the gateway sent it, its message
// on stderr, and the exit code is the documented one.
func TestAPIErrorAnswers(t *testing.T) {
	s := newAPISandbox(t)
	out, errOut, code := s.api(t, nil, "/v1/webhooks/no-such-hook")
	if status, want := s.gateway.answer("GET", "/v1/webhooks/no-such-hook", nil); status != 404 || code != exitRefused || out != string(want) || !strings.Contains(errOut, "(404)") {
		t.Errorf("404: exit %d, out %q (want %q), stderr %q", code, out, want, errOut)
	}
	out, errOut, code = s.api(t, nil, "/v1/user", "-H", "Authorization: Bearer not-a-token")
	if code != exitAuth || !strings.Contains(out, "Not authenticated") {
		t.Errorf("401: exit %d, out %q, stderr %q; want 3", code, out, errOut)
	}
	if _, errOut, code := s.api(t, nil, "https://elsewhere.example/v1/user"); code != exitUsage || !strings.Contains(errOut, "not an address") {
		t.Errorf("an address: exit %d %q; want 2", code, errOut)
	}
	if _, errOut, code := cliRun(t, []string{"CARDTERM_USERNAME=", "CARDTERM_PASSWORD=wrong"}, append([]string{"api", "/v1/user"}, s.args...)...); code != exitUsage || !strings.Contains(errOut, "CARDTERM_USERNAME") {
		t.Errorf("a password without a username: exit %d %q; want 2", code, errOut)
	}
}
