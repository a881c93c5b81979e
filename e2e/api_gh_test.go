package e2e

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// `cardterm api` beside `gh api`: each test quotes what gh's manual says
// of a flag (gh api --help, gh 2.x) and shows cardterm doing the same
// against the sandbox.

// apiWithStdin runs `cardterm api ARGS` on the sandbox as alice with
// stdin, sealed (runPiped).
func (s apiSandbox) apiWithStdin(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runPiped(t, alice, strings.NewReader(stdin), append(append([]string{"api"}, args...), s.args...)...)
}

// whitelist reads alice's usdc whitelist as the gateway has it.
func (s apiSandbox) whitelist(t *testing.T) []map[string]any {
	t.Helper()
	var entries []map[string]any
	if err := json.Unmarshal(s.gateway.do("GET", "/v1/wallet/whitelist?currency=usdc", nil), &entries); err != nil {
		t.Fatal(err)
	}
	return entries
}

// gh: "The default HTTP request method is GET normally and POST if any
// parameters were added. Override the method with --method." and "To pass
// nested values as arrays, declare multiple fields with the syntax
// key[]=value1, key[]=value2" (key[][sub]=v fills an array of objects).
func TestAPIGhAFieldImpliesPOSTAndNestsArraysOfObjects(t *testing.T) {
	s := newAPISandbox(t)
	before := len(s.whitelist(t))
	out, errOut, code := s.api(t, nil, "/v1/wallet/whitelist",
		"-f", "wallets[][currency]=usdc", "-f", "wallets[][name]=Cold storage",
		"-f", "wallets[][beneficiaryFirstName]=Alice", "-f", "wallets[][beneficiaryLastName]=Martin",
		"-f", "wallets[][walletAddress]=0x1111111111111111111111111111111111111111",
		"-f", "wallets[][currency]=usdc", "-f", "wallets[][name]=Exchange",
		"-f", "wallets[][beneficiaryFirstName]=Alice", "-f", "wallets[][beneficiaryLastName]=Martin",
		"-f", "wallets[][walletAddress]=0x2222222222222222222222222222222222222222")
	if code != exitOK || !strings.Contains(out, `"success":true`) {
		t.Fatalf("POST implied by the fields: exit %d, %q, %s", code, out, errOut)
	}
	after := s.whitelist(t)
	if len(after) != before+2 {
		t.Fatalf("%d entries after, want %d: the two nested objects did not arrive", len(after), before+2)
	}
	names := map[any]bool{}
	for _, e := range after {
		names[e["name"]] = true
	}
	if !names["Cold storage"] || !names["Exchange"] {
		t.Errorf("entries %v lack the two sent", names)
	}

	// gh: "To send the parameters as a GET query string instead, use
	// --method GET."
	out, errOut, code = s.api(t, nil, "-X", "GET", "/v1/wallet/whitelist", "-f", "currency=usdc", "--jq", "length")
	if code != exitOK || strings.TrimSpace(out) != jsonLen(after) {
		t.Errorf("-X GET with -f currency=usdc: exit %d, %q, %s; want %d entries", code, out, errOut, len(after))
	}
}

func jsonLen(list []map[string]any) string { return strconv.Itoa(len(list)) }

// gh: "a request body may be read from file specified by --input. Use -
// to read from standard input. When passing the request body this way,
// any parameters specified via field flags are added to the query string
// of the endpoint URL." A body also implies POST.
func TestAPIGhInputFromStdinIsTheBody(t *testing.T) {
	s := newAPISandbox(t)
	ids := []string{}
	for _, e := range s.whitelist(t) {
		ids = append(ids, e["id"].(string))
	}
	if len(ids) == 0 {
		t.Fatal("alice has no usdc whitelist entry to delete")
	}
	body := `{"walletIds": ["` + ids[0] + `"]}`
	out, errOut, code := s.apiWithStdin(t, body, "-X", "DELETE", "/v1/wallet/whitelist", "--input", "-")
	if code != exitOK || !strings.Contains(out, `"success":true`) {
		t.Fatalf("DELETE --input -: exit %d, %q, %s", code, out, errOut)
	}
	if len(s.whitelist(t)) != len(ids)-1 {
		t.Errorf("the entry the body named is still there")
	}
}

// gh: "-i, --include: Include HTTP response status line and headers in
// the output".
func TestAPIGhIncludePrintsStatusLineAndHeaders(t *testing.T) {
	s := newAPISandbox(t)
	out, errOut, code := s.api(t, nil, "-i", "/v1/card/status")
	head, body, ok := strings.Cut(out, "\r\n\r\n")
	if code != exitOK || !ok {
		t.Fatalf("-i: exit %d, %q, %s", code, out, errOut)
	}
	lines := strings.Split(head, "\r\n")
	if lines[0] != "HTTP/1.1 200 OK" {
		t.Errorf("status line %q", lines[0])
	}
	if !strings.Contains(head, "\r\nContent-Type: application/json") {
		t.Errorf("no Content-Type among the headers:\n%s", head)
	}
	if want := string(s.gateway.do("GET", "/v1/card/status", nil)); body != want {
		t.Errorf("body after the headers %q, want %q", body, want)
	}
	// An error answer's head too, before the body gh prints anyway.
	out, _, code = s.api(t, nil, "-i", "/v1/webhooks/no-such-hook")
	if code != exitRefused || !strings.HasPrefix(out, "HTTP/1.1 404 Not Found\r\n") {
		t.Errorf("-i on a 404: exit %d, %q", code, out)
	}
	// --silent: "Do not print the response body".
	if out, errOut, code := s.api(t, nil, "--silent", "/v1/card/status"); code != exitOK || out != "" {
		t.Errorf("--silent: exit %d, %q, %s", code, out, errOut)
	}
}

// gh: "Pass --slurp to wrap all pages of JSON arrays or objects into an
// outer JSON array", and --slurp needs --paginate and refuses --jq and
// --template.
func TestAPIGhSlurpWrapsThePagesInOneArray(t *testing.T) {
	s := newAPISandbox(t)
	var all struct {
		AuditRecords []struct{ AuditID string }
		Pagination   struct{ Total int }
	}
	_ = json.Unmarshal(s.gateway.do("GET", "/v2/consent/user/"+s.userID+"/audit?limit=100", nil), &all)
	out, errOut, code := s.api(t, nil, "/v2/consent/user/"+s.userID+"/audit", "-f", "limit=2", "--paginate", "--slurp")
	var pages []struct {
		AuditRecords []struct{ AuditID string }
	}
	if err := json.Unmarshal([]byte(out), &pages); code != exitOK || err != nil {
		t.Fatalf("--slurp: exit %d, %v, %q, %s", code, err, out, errOut)
	}
	if want := (all.Pagination.Total + 1) / 2; len(pages) != want || want < 2 {
		t.Fatalf("%d pages in the array, want %d (at least 2)", len(pages), want)
	}
	var ids []string
	for _, p := range pages {
		for _, r := range p.AuditRecords {
			ids = append(ids, r.AuditID)
		}
	}
	var want []string
	for _, r := range all.AuditRecords {
		want = append(want, r.AuditID)
	}
	if len(ids) != all.Pagination.Total || !reflect.DeepEqual(ids[:len(want)], want) {
		t.Errorf("records through the pages %v, want %v", ids, want)
	}
	for _, bad := range [][]string{
		{"/v1/user", "--slurp"},
		{"/v1/user", "--paginate", "--slurp", "--jq", "."},
		{"/v1/user", "--jq", ".", "--template", "{{.}}"},
		{"/v1/user", "--silent", "--jq", "."},
		{"-X", "GET", "POST", "/v1/user"},
	} {
		if _, errOut, code := s.api(t, nil, bad...); code != exitUsage {
			t.Errorf("%v: exit %d (%s), want 2", bad, code, errOut)
		}
	}
}

// gh: "--template: Format JSON output using a Go template; see gh help
// formatting", with its functions (tablerow, pluck, join, ...).
func TestAPIGhTemplate(t *testing.T) {
	s := newAPISandbox(t)
	if out, errOut, code := s.api(t, nil, "/v1/user", "--template", `{{.email}} {{.verificationState}}{{"\n"}}`); code != exitOK || out != "alice@demo.test VERIFIED\n" {
		t.Errorf("--template: exit %d %q %s", code, out, errOut)
	}
	var hooks []struct{ Name, URL string }
	_ = json.Unmarshal(s.gateway.do("GET", "/v1/webhooks", nil), &hooks)
	out, errOut, code := s.api(t, nil, "/v1/webhooks", "--template", `{{range .}}{{tablerow .name .url}}{{end}}`)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != exitOK || len(lines) != len(hooks) {
		t.Fatalf("tablerow: exit %d, %q, %s", code, out, errOut)
	}
	column := strings.Index(lines[0], hooks[0].URL)
	for i, line := range lines {
		if !strings.HasPrefix(line, hooks[i].Name) || strings.Index(line, hooks[i].URL) != column {
			t.Errorf("row %d %q: not aligned at %d", i, line, column)
		}
	}
	out, _, _ = s.api(t, nil, "/v1/webhooks", "--template", `{{. | pluck "name" | join ", "}}`)
	var names []string
	for _, h := range hooks {
		names = append(names, h.Name)
	}
	if out != strings.Join(names, ", ") {
		t.Errorf("pluck | join: %q", out)
	}
	if _, errOut, code := s.api(t, nil, "/v1/user", "--template", "{{.email"); code != exitUsage || !strings.Contains(errOut, "--template") {
		t.Errorf("a bad template: exit %d %q", code, errOut)
	}
}

// get takes --jq as api does: strings unquoted, one result a line.
func TestGetTakesJQ(t *testing.T) {
	s := newAPISandbox(t)
	out, errOut, code := cliRun(t, alice, append([]string{"get", "card", "--jq", ".status, .panLast4"}, s.args...)...)
	if code != exitOK || out != "ACTIVE\n4242\n" {
		t.Errorf("get card --jq: exit %d, %q, %s", code, out, errOut)
	}
	if _, errOut, code := cliRun(t, alice, append([]string{"get", "card", "--jq", ".[["}, s.args...)...); code != exitUsage || !strings.Contains(errOut, "--jq") {
		t.Errorf("a bad --jq: exit %d %q", code, errOut)
	}
}
