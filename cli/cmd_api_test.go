package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/tabwriter"
)

func TestAnswerWriterOnATerminal(t *testing.T) {
	hostile := []byte("{\"name\":\"x\u202ey\u0085\"}")
	var out bytes.Buffer
	if err := (&apiCall{w: &out, terminal: true}).raw(hostile); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "{\n  \"name\": \"x\\u202ey\\u0085\"\n}\n" {
		t.Errorf("JSON on a terminal: %q", got)
	}
	out.Reset()
	_ = (&apiCall{w: &out, terminal: true}).raw([]byte("oops \x1b]52;c;aGk=\x07 \x1b[2J"))
	if strings.ContainsAny(out.String(), "\x1b\x07") {
		t.Errorf("text on a terminal keeps escapes: %q", out.String())
	}
	out.Reset()
	_ = (&apiCall{w: &out}).raw(hostile) // piped: byte for byte
	if !bytes.Equal(out.Bytes(), hostile) {
		t.Errorf("piped: %q, want %q", out.Bytes(), hostile)
	}
}

func TestNextPage(t *testing.T) {
	base, _ := url.Parse("https://gw.example/prefix")
	seen := map[string]bool{}
	next, err := nextPage(base, []byte(`{"_links":{"next":{"href":"/v2/x?offset=2","method":"GET"}}}`), seen)
	if err != nil || next != "/v2/x?offset=2" {
		t.Errorf("relative: %q %v", next, err)
	}
	next, err = nextPage(base, []byte(`{"_links":{"next":"https://gw.example/prefix/v2/x?offset=4"}}`), seen)
	if err != nil || next != "/v2/x?offset=4" {
		t.Errorf("absolute on the gateway: %q %v", next, err)
	}
	if _, err := nextPage(base, []byte(`{"_links":{"next":{"href":"https://evil.example/v2/x"}}}`), seen); err == nil {
		t.Error("a next page on another host is followed")
	}
	if _, err := nextPage(base, []byte(`{"_links":{"next":{"href":"/v2/x?offset=2"}}}`), seen); err == nil {
		t.Error("a page seen before is followed again")
	}
	for _, last := range []string{`{"_links":{"next":null}}`, `[1,2]`, `{}`, `not json`} {
		if next, err := nextPage(base, []byte(last), seen); next != "" || err != nil {
			t.Errorf("%s: next %q %v; want the last page", last, next, err)
		}
	}
}

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
		// key[][sub] fills the last object until sub comes again.
		{raw: []string{"w[][n]=a", "w[][n]=b", "w[][c]=x"}, want: `{"w":[{"n":"a"},{"c":"x","n":"b"}]}`},
		{raw: []string{"e[]", "e[]=1", "v=a=b"}, want: `{"e":["1"],"v":"a=b"}`},
	} {
		fields, _, err := parseFields(c.raw, c.typed, strings.NewReader(c.stdin))
		if err != nil {
			t.Errorf("%v %v: %v", c.raw, c.typed, err)
			continue
		}
		if got, _ := json.Marshal(fields); string(got) != c.want {
			t.Errorf("%v %v:\n got %s\nwant %s", c.raw, c.typed, got, c.want)
		}
	}
	for _, bad := range [][]string{{"key"}, {"=v"}, {"a=1", "a=2"}, {"a=1", "a[]=2"}, {"a[b]=1", "a=2"},
		{"a[]=1", "a[b]=2"}, {"a[b=1"}, {"a[b]c=1"}} {
		if _, _, err := parseFields(bad, nil, nil); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
	// A GET's fields are its query: arrays as key[], objects as key[sub].
	_, query, _ := parseFields([]string{"currency=usdc", "ids[]=a", "ids[]=b", "page[size]=2"}, nil, nil)
	if got := query.Encode(); got != "currency=usdc&ids%5B%5D=a&ids%5B%5D=b&page%5Bsize%5D=2" {
		t.Errorf("query %s", got)
	}
}

// JSON is coloured on a terminal (gh's colours) and plain in a pipe.
func TestAnswerWriterColoursJSONOnATerminal(t *testing.T) {
	var out strings.Builder
	w := &apiCall{w: &out, terminal: true, color: true}
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

// --input with a field: the body's bytes unchanged, POST implied, the
// fields in the query (gh's rule; the binary's side is in e2e).
func TestAPIInputWithAFieldIsPOSTWithTheFieldsInTheQuery(t *testing.T) {
	body := `{"walletIds": ["w1"]}`
	call := &apiCall{method: "GET", input: "-", rawFields: []string{"x-us-env=true"}}
	if err := call.prepare([]string{"/v1/wallet/whitelist"}, options{}, strings.NewReader(body)); err != nil {
		t.Fatal(err)
	}
	if call.request.Method != "POST" || string(call.request.Body) != body || call.request.Query.Get("x-us-env") != "true" {
		t.Errorf("--input with a field: %s body %q query %v", call.request.Method, call.request.Body, call.request.Query)
	}
}

// gh's template functions on one answer: any JSON value prints (an
// object as JSON), numbers keep their digits, autocolor paints only on a
// colour terminal, and a terminal gets the answer's strings and keys
// sanitized while the template's own colour stays.
func TestAnswerTemplateFunctions(t *testing.T) {
	body := []byte(`{"amount":12.50,"tags":["a",1,null],"meta":{"k":"v"},"when":"2024-01-02T03:04:05Z",` +
		`"name":"x` + "\\u001b[31m" + `y","list":[{"id":"p"},{"id":"q"}]}`)
	for _, c := range []struct {
		template string
		terminal bool
		want     string
	}{
		{`{{.amount}} {{join "," .tags}} {{tablerow .meta .amount}}`, false, "12.50 a,1, "},
		{`{{.list | pluck "id" | join "+"}} {{truncate 5 .meta}}`, false, `p+q {"...`},
		{`{{timefmt "2006-01-02" .when}} {{autocolor "red" "plain"}}`, false, "2024-01-02 plain"},
		{`{{.name}}`, false, "x\x1b[31my"},
		{`{{.name}} {{color "red" "ok"}}`, true, "xy \x1b[38;5;1mok\x1b[m"},
	} {
		var out bytes.Buffer
		call := &apiCall{template: c.template, w: &out, terminal: c.terminal, table: tabwriter.NewWriter(&out, 0, 0, 2, ' ', 0)}
		if err := call.parseTemplate(); err != nil {
			t.Fatal(err)
		}
		if err := call.execute(body); err != nil {
			t.Fatalf("%s: %v", c.template, err)
		}
		if out.String() != c.want {
			t.Errorf("%s (terminal %v):\n got %q\nwant %q", c.template, c.terminal, out.String(), c.want)
		}
	}
}

// A dry run names every variable its command needs, and says where one
// comes from only when there is something to say.
func TestAPIDryRunSaysWhichVariablesToSet(t *testing.T) {
	var out, errOut bytes.Buffer
	args := []string{"api", "-X", "POST", "/v1/auth/login", "-f", "username=a", "-f", "password=b", "--dry-run"}
	if code := Run(args, nil, &out, &errOut); code != exitOK || !strings.Contains(out.String(), "$CARDTERM_PASSWORD") {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errOut.String())
	}
	if got := errOut.String(); got != "Set $CARDTERM_PASSWORD first.\n" {
		t.Errorf("stderr %q", got)
	}
}

// Run without a stdin (in process): @- says so instead of failing to read.
func TestAPIFieldFromAMissingStdin(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Run([]string{"api", "-F", "body=@-", "/v1/user", "--dry-run"}, nil, &out, &errOut); code != exitUsage || !strings.Contains(errOut.String(), "@- reads stdin") {
		t.Errorf("exit %d, %q", code, errOut.String())
	}
}

// A page walk that stops before the last page (a page again, a next link
// off the gateway) prints what it read, once, and exits 5, as get's walks
// do: a script must not take the pages for the whole list.
func TestAPIPaginateThatStopsBeforeTheEndExitsIncomplete(t *testing.T) {
	useConfigDir(t)
	gateway := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v1/loop":
			fmt.Fprint(w, `{"page":1,"_links":{"next":"/v1/loop"}}`)
		case "/v1/away":
			fmt.Fprint(w, `{"page":1,"_links":{"next":"https://evil.example/v1/away"}}`)
		case "/v1/query": // back to page 1, its query in another order
			fmt.Fprint(w, `{"page":1,"_links":{"next":"/v1/query?b=2&a=1"}}`)
		}
	}))
	defer gateway.Close()
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"/v1/loop"}, "again"},
		{[]string{"v1/loop"}, "again"}, // no leading slash: still page 1
		{[]string{"/v1/query?a=1", "-f", "b=2"}, "again"},
		{[]string{"/v1/away"}, "not on the gateway"},
	} {
		args := append([]string{"api"}, tc.args...)
		out, errOut, code := runCLI(t, append(args, "--paginate", "-H", "Authorization: Bearer token",
			"--base-url", gateway.URL, "--client-key", "ck_test")...)
		if code != exitIncomplete || !strings.Contains(errOut, tc.says) || strings.Count(out, `"page":1`) != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want the page, why it stopped, exit %d", tc.args, code, out, errOut, exitIncomplete)
		}
	}
}
