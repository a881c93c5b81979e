package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
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

func jsonLen(list []map[string]any) string { return strings.TrimSpace(string(mustJSON(len(list)))) }

// gh: "-F/--field ... literal values true, false, null, and integer
// numbers get converted to appropriate JSON types; ... if the value starts
// with @, the rest of the value is interpreted as a filename to read the
// value from. Pass - to read from standard input." and "To pass nested
// parameters in the request payload, use key[subkey]=value syntax".
func TestAPIGhFieldsTypedAndNestedAsGhBuildsThem(t *testing.T) {
	file := filepath.Join(t.TempDir(), "myfile.txt")
	if err := os.WriteFile(file, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		raw, typed []string
		stdin      string
		want       string
	}{
		// gh's own example: gh api gists -F 'files[myfile.txt][content]=@myfile.txt'
		{typed: []string{"files[myfile.txt][content]=@" + file}, want: `{"files":{"myfile.txt":{"content":"hello"}}}`},
		// gh's own example of a deeply nested array.
		{typed: []string{"properties[][property_name]=environment", "properties[][default_value]=production",
			"properties[][allowed_values][]=staging", "properties[][allowed_values][]=production"},
			want: `{"properties":[{"allowed_values":["staging","production"],"default_value":"production","property_name":"environment"}]}`},
		{typed: []string{"n=42", "t=true", "f=false", "z=null", "x=1.5", "s=text"}, want: `{"f":false,"n":42,"s":"text","t":true,"x":"1.5","z":null}`},
		{raw: []string{"n=42", "t=true"}, want: `{"n":"42","t":"true"}`},                 // -f never types
		{raw: []string{"empty[]"}, want: `{"empty":[]}`},                                 // "To pass an empty array, use key[] without a value."
		{typed: []string{"body=@-"}, stdin: "from stdin", want: `{"body":"from stdin"}`}, // @- reads stdin
		{raw: []string{"a[b][c]=1", "a[b][d]=2", "a[e]=3"}, want: `{"a":{"b":{"c":"1","d":"2"},"e":"3"}}`},
	} {
		fields, err := parseFields(c.raw, c.typed, strings.NewReader(c.stdin))
		if err != nil {
			t.Errorf("%v %v: %v", c.raw, c.typed, err)
			continue
		}
		if got := string(mustJSON(fields)); got != c.want {
			t.Errorf("%v %v:\n got %s\nwant %s", c.raw, c.typed, got, c.want)
		}
	}
	for _, bad := range [][]string{{"key"}, {"=v"}, {"a=1", "a=2"}, {"a=1", "a[]=2"}, {"a[b]=1", "a=2"}} {
		if _, err := parseFields(bad, nil, nil); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
	// A GET's fields are its query: arrays as key[], objects as key[sub].
	fields, _ := parseFields([]string{"currency=usdc", "ids[]=a", "ids[]=b", "page[size]=2"}, nil, nil)
	if got := fieldsQuery(fields).Encode(); got != "currency=usdc&ids%5B%5D=a&ids%5B%5D=b&page%5Bsize%5D=2" {
		t.Errorf("query %s", got)
	}
}

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
	// The call: the body's bytes unchanged, POST implied, fields in the query.
	call, err := apiFlags{method: "GET", input: "-", rawFields: []string{"x-us-env=true"}}.call([]string{"/v1/wallet/whitelist"}, options{}, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if call.request.Method != "POST" || string(call.request.Body) != body || call.request.Query.Get("x-us-env") != "true" {
		t.Errorf("--input with a field: %s body %q query %v", call.request.Method, call.request.Body, call.request.Query)
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

// JSON is coloured on a terminal (gh's colours) and plain in a pipe.
func TestAnswerWriterColoursJSONOnATerminal(t *testing.T) {
	var out strings.Builder
	w := &answerWriter{w: &out, terminal: true, color: true}
	if err := w.raw([]byte(`{"name":"x` + "\u202e" + `","n":1,"ok":true,"none":null,"list":[]}`)); err != nil {
		t.Fatal(err)
	}
	want := "\x1b[1;38m{\x1b[m\n  \x1b[1;34m\"name\"\x1b[m\x1b[1;38m:\x1b[m \x1b[32m\"x\\u202e\"\x1b[m\x1b[1;38m,\x1b[m\n" +
		"  \x1b[1;34m\"n\"\x1b[m\x1b[1;38m:\x1b[m 1\x1b[1;38m,\x1b[m\n" +
		"  \x1b[1;34m\"ok\"\x1b[m\x1b[1;38m:\x1b[m \x1b[33mtrue\x1b[m\x1b[1;38m,\x1b[m\n" +
		"  \x1b[1;34m\"none\"\x1b[m\x1b[1;38m:\x1b[m \x1b[36mnull\x1b[m\x1b[1;38m,\x1b[m\n" +
		"  \x1b[1;34m\"list\"\x1b[m\x1b[1;38m:\x1b[m \x1b[1;38m[\x1b[m\x1b[1;38m]\x1b[m\n" +
		"\x1b[1;38m}\x1b[m\n"
	if out.String() != want {
		t.Errorf("coloured:\n got %q\nwant %q", out.String(), want)
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
