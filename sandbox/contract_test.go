package sandbox_test

// Contract tests: the sandbox gateway answers exactly as the interface
// document says. testdata/gateway-openapi.yaml describes the whole interface
// (x-source: interface) and, where the interface says "not shown", what
// docs/internals/sandbox.md gives the sandbox (x-source: design). Every scripted request and
// every answer is validated against it with kin-openapi; an answer whose
// status the document does not describe for the operation fails.
//
// Known disagreements between the sandbox and the interface are not skipped:
// they fail with t.Errorf("DISAGREEMENT[<id>] ...") naming what the interface
// says and what the sandbox does (see the disagreements map).

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"cardterm/sandbox"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// contractSpec is the OpenAPI description, relative to this package.
const contractSpec = "testdata/gateway-openapi.yaml"

// contractT0 is the ManualClock start of the contract tests.
var contractT0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// disagreements are the known cases where the sandbox answers otherwise than
// the interface document. Each is reported with t.Errorf, never skipped; a
// marker that no longer reproduces fails too, so the list stays true.
var disagreements = map[string]string{}

// familyScripts are the contract calls of further endpoint families, one
// file each (contract_<family>_test.go registers its script in an init
// func), run inside TestContractSandbox before the coverage check.
var familyScripts []func(t *testing.T, h *harness, login loginFunc)

// loginFunc signs a demo user in on the demo client key (plus extra header
// pairs) and returns the access token.
type loginFunc func(user string, extra ...string) string

// interfaceOps is the explicit list of the operations the document marks
// x-source: interface. TestContractDocument checks it equals the document;
// TestContractSandbox requires every one the sandbox serves to be exercised.
var interfaceOps = []string{
	"POST /v1/auth/login",
	"POST /v1/auth/logout",
	"POST /v1/auth/oauth/token",
	"GET /v1/user",
	"GET /v1/card/status",
	"POST /v1/card/unfreeze",
	"POST /v1/card/set-pin/token",
	"POST /v1/card/pin/token",
	"POST /v1/wallet/internal/card_linked",
	"GET /v1/wallet/whitelist",
	"POST /v1/wallet/whitelist",
	"DELETE /v1/wallet/whitelist",
	"GET /v1/delegation/token",
	"GET /v1/delegation/chain/config",
	"POST /v1/order",
	"GET /v1/order/products/available",
	"PATCH /v2/consent/onboarding/{}",
	"GET /v2/consent/onboarding/{}",
	"GET /v2/consent/user/{}",
	"GET /v2/consent/user/{}/audit",
	"DELETE /v2/consent/consentSet/{}/consent/{}",
	"GET /v1/webhooks",
	"PUT /v1/webhooks/{}",
}

var defineFormats sync.Once

// loadContract loads and validates the document.
func loadContract(t *testing.T) *openapi3.T {
	t.Helper()
	defineFormats.Do(func() {
		// format: uuid is not checked by default; the seeded ids are version
		// 5 and the hosted tokens version 4.
		openapi3.DefineStringFormatValidator("uuid", openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForUUIDOfRFC9562))
	})
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(contractSpec)
	if err != nil {
		t.Fatalf("load %s: %v", contractSpec, err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatalf("validate %s: %v", contractSpec, err)
	}
	return doc
}

// opKey names an operation as "METHOD /path" with every path parameter
// written {} (the document and the sandbox may name them differently).
func opKey(method, path string) string {
	return strings.ToUpper(method) + " " + paramRE.ReplaceAllString(path, "{}")
}

var paramRE = regexp.MustCompile(`\{[^}]*\}`)

// docOps lists the document's operations by key with their x-source.
func docOps(doc *openapi3.T) map[string]string {
	out := map[string]string{}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			src, _ := op.Extensions["x-source"].(string)
			out[opKey(method, path)] = src
		}
	}
	return out
}

// sandboxRoutes reads the routes the sandbox registers (s.handle and
// s.mux.HandleFunc patterns with a method) from its sources.
func sandboxRoutes(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`s\.(?:handle|mux\.HandleFunc)\(\s*"([A-Z]+) (/[^"]*)"`)
	seen := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			p := strings.TrimSuffix(m[2], "{$}")
			p = strings.ReplaceAll(p, "...}", "}")
			seen[opKey(m[1], p)] = true
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	if len(out) == 0 {
		t.Fatal("found no sandbox routes (s.handle / s.mux.HandleFunc) in the package sources")
	}
	return out
}

// TestContractDocument checks the document: it loads and validates, every
// operation says where its shapes come from, and the explicit list of
// interface operations matches it.
func TestContractDocument(t *testing.T) {
	doc := loadContract(t)
	ops := docOps(doc)
	var docInterface []string
	for k, src := range ops {
		switch src {
		case "interface":
			docInterface = append(docInterface, k)
		case "design":
		default:
			t.Errorf("%s: x-source is %q, want interface or design", k, src)
		}
	}
	sort.Strings(docInterface)
	want := slices.Clone(interfaceOps)
	sort.Strings(want)
	if !slices.Equal(docInterface, want) {
		t.Errorf("operations marked x-source: interface in the document differ from interfaceOps:\n document: %v\n list:     %v", docInterface, want)
	}
}

// TestContractRoutes checks that every route the sandbox registers is in the
// document.
func TestContractRoutes(t *testing.T) {
	ops := docOps(loadContract(t))
	var missing []string
	for _, r := range sandboxRoutes(t) {
		if _, ok := ops[r]; !ok {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		t.Errorf("routes the sandbox serves that testdata/gateway-openapi.yaml does not describe:\n  %s", strings.Join(missing, "\n  "))
	}
}

// harness is a sandbox over real HTTP plus the document's router.
type harness struct {
	t       *testing.T
	ts      *httptest.Server
	srv     *sandbox.Server
	clock   *sandbox.ManualClock
	router  routers.Router
	opts    *openapi3filter.Options
	covered map[string]bool
}

func newHarness(t *testing.T, doc *openapi3.T, opts sandbox.Options, covered map[string]bool) *harness {
	t.Helper()
	clock := sandbox.NewManualClock(contractT0)
	opts.Clock = clock
	srv := sandbox.New(opts)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	d := *doc // the same paths, served from the test server
	d.Servers = openapi3.Servers{{URL: ts.URL}}
	router, err := gorillamux.NewRouter(&d)
	if err != nil {
		t.Fatalf("router: %v", err)
	}
	return &harness{
		t: t, ts: ts, srv: srv, clock: clock, router: router, covered: covered,
		opts: &openapi3filter.Options{
			AuthenticationFunc:                openapi3filter.NoopAuthenticationFunc, // the sandbox enforces auth; the test checks its answers
			IncludeResponseStatus:             true,                                  // an undocumented status fails
			RejectWhenRequestBodyNotSpecified: true,
			SkipSettingDefaults:               true,
			MultiError:                        true,
		},
	}
}

// req is one scripted call.
type req struct {
	method, path string
	hdr          http.Header
	body         any // nil, string (raw JSON), url.Values (form) or a JSON value
	want         int
	// badRequest: the request deliberately breaks the document (a missing
	// required header, field or parameter); its validation must fail.
	badRequest bool
	// disagreement: the id of a known disagreement this answer shows.
	disagreement string
}

// res is an answer.
type res struct {
	status int
	header http.Header
	raw    []byte
	body   any
}

func (r res) obj() map[string]any { m, _ := r.body.(map[string]any); return m }
func (r res) arr() []any          { a, _ := r.body.([]any); return a }
func (r res) str(k string) string { s, _ := r.obj()[k].(string); return s }

var noFollow = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// build makes an http.Request for c.
func (h *harness) build(c req) *http.Request {
	var raw []byte
	ctype := ""
	switch b := c.body.(type) {
	case nil:
	case string:
		raw, ctype = []byte(b), "application/json"
	case url.Values:
		raw, ctype = []byte(b.Encode()), "application/x-www-form-urlencoded"
	default:
		j, err := json.Marshal(b)
		if err != nil {
			h.t.Fatal(err)
		}
		raw, ctype = j, "application/json"
	}
	var rd io.Reader
	if raw != nil {
		rd = bytes.NewReader(raw)
	}
	r, err := http.NewRequest(c.method, h.ts.URL+c.path, rd)
	if err != nil {
		h.t.Fatal(err)
	}
	for k, v := range c.hdr {
		r.Header[k] = v
	}
	if ctype != "" && r.Header.Get("Content-Type") == "" {
		r.Header.Set("Content-Type", ctype)
	}
	return r
}

// do runs c as a subtest named name: validates the request against the
// document, sends it, checks the status, validates the answer.
func (h *harness) do(name string, c req) res {
	h.t.Helper()
	var out res
	h.t.Run(name, func(t *testing.T) {
		out = h.run(t, c)
	})
	return out
}

func (h *harness) run(t *testing.T, c req) res {
	ctx := context.Background()
	vreq := h.build(c)
	route, params, findErr := h.router.FindRoute(vreq)
	var input *openapi3filter.RequestValidationInput
	if findErr != nil {
		t.Errorf("%s %s: no operation of the document matches: %v", c.method, c.path, findErr)
	} else {
		h.covered[opKey(route.Method, route.Path)] = true
		input = &openapi3filter.RequestValidationInput{Request: vreq, PathParams: params, Route: route, Options: h.opts}
		err := openapi3filter.ValidateRequest(ctx, input)
		switch {
		case c.badRequest && err == nil:
			t.Errorf("%s %s: the request was meant to break the document but validates", c.method, c.path)
		case !c.badRequest && err != nil:
			t.Errorf("%s %s: the request does not match the document: %v", c.method, c.path, err)
		}
	}

	hr, err := noFollow.Do(h.build(c))
	if err != nil {
		t.Fatalf("%s %s: %v", c.method, c.path, err)
	}
	raw, _ := io.ReadAll(hr.Body)
	hr.Body.Close()
	out := res{status: hr.StatusCode, header: hr.Header, raw: raw}
	_ = json.Unmarshal(raw, &out.body)
	if out.status != c.want {
		t.Errorf("%s %s: status %d, want %d; body %.300s", c.method, c.path, out.status, c.want, raw)
	}
	if input == nil {
		return out
	}
	rin := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: input, Status: out.status, Header: hr.Header, Options: h.opts,
	}
	rin.SetBodyBytes(raw)
	verr := openapi3filter.ValidateResponse(ctx, rin)
	switch {
	case verr != nil && c.disagreement != "":
		t.Errorf("DISAGREEMENT[%s] %s\n  answer %d %.300s\n  validation: %v", c.disagreement, disagreements[c.disagreement], out.status, raw, verr)
	case verr != nil:
		t.Errorf("%s %s: the answer %d does not match the document: %v\n  body %.300s", c.method, c.path, out.status, verr, raw)
	case c.disagreement != "":
		t.Errorf("disagreement %q no longer reproduces (the answer %d matches the document): remove its marker", c.disagreement, out.status)
	}
	return out
}

// Header helpers. hdrs builds headers from key/value pairs.
var hdrs = sandbox.HeaderPairs

func withKey(kv ...string) http.Header {
	return hdrs(append([]string{"x-client-key", sandbox.DemoClientKey}, kv...)...)
}

func withBearer(tok string, kv ...string) http.Header {
	return withKey(append([]string{"Authorization", "Bearer " + tok}, kv...)...)
}

// withSecret is the demo client key and secret key, plus more pairs: the
// consent writes, the OAuth token exchange and the sandbox tools.
func withSecret(kv ...string) http.Header {
	return withKey(append([]string{"x-secret-key", sandbox.DemoSecretKey}, kv...)...)
}

// bearerOnly is the bearer token alone: webhook endpoints take no client key.
func bearerOnly(tok string) http.Header { return hdrs("Authorization", "Bearer "+tok) }

// unknownID is a well-formed id that names nothing, for the 404 calls.
const unknownID = "00000000-0000-4000-8000-000000000000"

// checkf reports a failed expectation about an answer's content.
func checkf(t *testing.T, ok bool, format string, args ...any) {
	t.Helper()
	if !ok {
		t.Errorf(format, args...)
	}
}

var hiddenSession = regexp.MustCompile(`name="session" value="([^"]+)"`)

// TestContractSandbox runs the scripted calls against a sandbox and
// validates every request and answer against the document; at the end every
// interface operation the sandbox serves must have been exercised.
func TestContractSandbox(t *testing.T) {
	doc := loadContract(t)
	covered := map[string]bool{}
	h := newHarness(t, doc, sandbox.Options{}, covered)

	login := func(user string, extra ...string) string {
		r := h.do("login "+user, req{method: "POST", path: "/v1/auth/login", hdr: withKey(extra...),
			body: map[string]string{"username": user, "password": "demo-pass"}, want: 200})
		if r.str("accessToken") == "" {
			t.Fatalf("login %s: no access token: %s", user, r.raw)
		}
		return r.str("accessToken")
	}

	// ---------------------------------------------------------------- auth
	alice := login("alice@demo.test")
	frank := login("frank@demo.test")
	bruno := login("bruno@demo.test")
	nora := login("nora@demo.test")
	umar := login("umar@demo.test")
	lena := login("lena@demo.test")
	sam := login("sam@demo.test", "x-us-env", "true")
	r := h.do("login expiresIn", req{method: "POST", path: "/v1/auth/login", hdr: withKey(),
		body: map[string]string{"username": "pia@demo.test", "password": "demo-pass"}, want: 200})
	checkf(t, r.obj()["expiresIn"] == float64(21600), "login expiresIn = %v, want 21600", r.obj()["expiresIn"])
	h.do("login 499 no client key", req{method: "POST", path: "/v1/auth/login", hdr: hdrs(),
		body: map[string]string{"username": "alice@demo.test", "password": "demo-pass"}, want: 499, badRequest: true})
	h.do("login 498 bad client key", req{method: "POST", path: "/v1/auth/login", hdr: hdrs("x-client-key", "ck_nope"),
		body: map[string]string{"username": "alice@demo.test", "password": "demo-pass"}, want: 498})
	h.do("login 401 wrong password", req{method: "POST", path: "/v1/auth/login", hdr: withKey(),
		body: map[string]string{"username": "alice@demo.test", "password": "nope"}, want: 401})
	h.do("login 400 missing fields", req{method: "POST", path: "/v1/auth/login", hdr: withKey(),
		body: map[string]string{}, want: 400, badRequest: true})

	// ---------------------------------------------------------------- user
	r = h.do("user 200", req{method: "GET", path: "/v1/user", hdr: withBearer(alice), want: 200})
	checkf(t, r.str("verificationState") == "VERIFIED" && r.str("email") == "alice@demo.test", "alice profile: %s", r.raw)
	r = h.do("user 200 US", req{method: "GET", path: "/v1/user", hdr: withBearer(sam, "x-us-env", "true"), want: 200})
	checkf(t, r.str("ssn") != "" && !strings.Contains(r.str("ssn"), "123-45") && r.str("usState") == "CA",
		"US user: ssn must be present and masked, usState CA: %s", r.raw)
	r = h.do("user 200 unverified", req{method: "GET", path: "/v1/user", hdr: withBearer(umar), want: 200})
	checkf(t, r.str("verificationState") == "UNVERIFIED", "umar: %s", r.raw)
	h.do("user 401 US token on EU backend", req{method: "GET", path: "/v1/user", hdr: withBearer(sam), want: 401})
	h.do("user 401 no token", req{method: "GET", path: "/v1/user", hdr: withKey(), want: 401})
	h.do("user 401 bad token", req{method: "GET", path: "/v1/user", hdr: withBearer("sbx_at_nope"), want: 401})
	h.do("user 499", req{method: "GET", path: "/v1/user", hdr: hdrs("Authorization", "Bearer "+alice), want: 499, badRequest: true})
	h.do("user 498", req{method: "GET", path: "/v1/user", hdr: hdrs("x-client-key", "ck_nope", "Authorization", "Bearer "+alice), want: 498})

	// ---------------------------------------------------------------- card status
	for _, c := range []struct{ name, tok, status string }{{"alice", alice, "ACTIVE"}, {"frank", frank, "FROZEN"}, {"bruno", bruno, "BLOCKED"}} {
		r = h.do("card status "+c.name, req{method: "GET", path: "/v1/card/status", hdr: withBearer(c.tok), want: 200})
		checkf(t, r.str("status") == c.status, "%s card status %q, want %s", c.name, r.str("status"), c.status)
		checkf(t, r.str("holderName") == strings.ToUpper(r.str("holderName")), "%s holderName %q is not upper case", c.name, r.str("holderName"))
		for k := range r.obj() {
			lk := strings.ToLower(k)
			checkf(t, !strings.Contains(lk, "cvv") && !strings.Contains(lk, "pin") && lk != "pan" && !strings.Contains(lk, "cardnumber"),
				"%s card answer has field %q: the full number, CVV and PIN are never returned", c.name, k)
		}
	}
	h.do("card status US", req{method: "GET", path: "/v1/card/status", hdr: withBearer(sam, "x-us-env", "true"), want: 200})
	h.do("card status 404 no card", req{method: "GET", path: "/v1/card/status", hdr: withBearer(nora), want: 404})
	h.do("card status 403 unverified", req{method: "GET", path: "/v1/card/status", hdr: withBearer(umar), want: 403})
	h.do("card status 401", req{method: "GET", path: "/v1/card/status", hdr: withKey(), want: 401})
	h.do("card status 499", req{method: "GET", path: "/v1/card/status", hdr: hdrs("Authorization", "Bearer "+alice), want: 499, badRequest: true})
	h.do("card status 498", req{method: "GET", path: "/v1/card/status", hdr: hdrs("x-client-key", "ck_nope", "Authorization", "Bearer "+alice), want: 498})

	// ---------------------------------------------------------------- freeze / unfreeze
	r = h.do("unfreeze 400 active", req{method: "POST", path: "/v1/card/unfreeze", hdr: withBearer(alice), want: 400})
	checkf(t, r.str("message") == "Card is not frozen", "unfreeze ACTIVE message %q", r.str("message"))
	h.do("unfreeze 400 blocked", req{method: "POST", path: "/v1/card/unfreeze", hdr: withBearer(bruno), want: 400})
	h.do("unfreeze 200 frozen", req{method: "POST", path: "/v1/card/unfreeze", hdr: withBearer(frank), want: 200})
	r = h.do("card status after unfreeze", req{method: "GET", path: "/v1/card/status", hdr: withBearer(frank), want: 200})
	checkf(t, r.str("status") == "ACTIVE", "after unfreeze: %q", r.str("status"))
	h.do("freeze 200", req{method: "POST", path: "/v1/card/freeze", hdr: withBearer(frank), want: 200})
	r = h.do("freeze 400 already frozen", req{method: "POST", path: "/v1/card/freeze", hdr: withBearer(frank), want: 400})
	checkf(t, r.str("message") == "Card is already frozen", "freeze FROZEN message %q", r.str("message"))
	h.do("freeze 400 blocked", req{method: "POST", path: "/v1/card/freeze", hdr: withBearer(bruno), want: 400})
	h.do("freeze 404 no card", req{method: "POST", path: "/v1/card/freeze", hdr: withBearer(nora), want: 404})
	h.do("unfreeze 404 no card", req{method: "POST", path: "/v1/card/unfreeze", hdr: withBearer(nora), want: 404})
	h.do("unfreeze 403", req{method: "POST", path: "/v1/card/unfreeze", hdr: withBearer(umar), want: 403})
	h.do("unfreeze 401", req{method: "POST", path: "/v1/card/unfreeze", hdr: withKey(), want: 401})
	h.do("unfreeze 499", req{method: "POST", path: "/v1/card/unfreeze", hdr: hdrs("Authorization", "Bearer "+frank), want: 499, badRequest: true})
	h.do("unfreeze 498", req{method: "POST", path: "/v1/card/unfreeze", hdr: hdrs("x-client-key", "x", "Authorization", "Bearer "+frank), want: 498})

	// ---------------------------------------------------------------- set-PIN token and hosted page
	setPIN := func(name, tok string, body any, want int) res {
		return h.do(name, req{method: "POST", path: "/v1/card/set-pin/token", hdr: withBearer(tok), body: body, want: want})
	}
	plain := setPIN("set-pin 200 no body", alice, nil, 200)
	redirect := setPIN("set-pin 200 redirect", alice, map[string]any{
		"redirectUrl": "https://app.example/pin-done", "isEmbedded": false,
		"customCss": map[string]any{"backgroundColor": "#FFFFFF", "textColor": "#111", "backgroundColorPrimary": "#0A84FF",
			"textColorPrimary": "#FFFFFF", "buttonBorderRadius": 12, "pinBorderRadius": 6, "pinBorderColor": "#333333"},
	}, 200)
	embedded := setPIN("set-pin 200 embedded", alice, map[string]any{"isEmbedded": true}, 200)
	setPIN("set-pin 404 no card", nora, map[string]any{}, 404)
	setPIN("set-pin 403", umar, map[string]any{}, 403)
	setPIN("set-pin 401", "", map[string]any{}, 401)
	// The interface lists no validation error for set-PIN: a text colour
	// equal to its background is not refused (the sandbox uses the defaults).
	setPIN("set-pin 200 colours equal", alice, map[string]any{"customCss": map[string]any{"backgroundColor": "#000000", "textColor": "#000000"}}, 200)
	h.do("set-pin 499", req{method: "POST", path: "/v1/card/set-pin/token", hdr: hdrs("Authorization", "Bearer "+alice), body: map[string]any{}, want: 499, badRequest: true})
	h.do("set-pin 498", req{method: "POST", path: "/v1/card/set-pin/token", hdr: hdrs("x-client-key", "x", "Authorization", "Bearer "+alice), body: map[string]any{}, want: 498})

	pagePath := func(r res, field string) string {
		u, err := url.Parse(r.str(field))
		if err != nil || u.Path == "" {
			t.Fatalf("%s %q is not a URL", field, r.str(field))
		}
		return u.RequestURI()
	}
	openPage := func(name string, r res) string {
		p := h.do(name, req{method: "GET", path: pagePath(r, "hostedPageUrl"), want: 200})
		m := hiddenSession.FindSubmatch(p.raw)
		if m == nil {
			t.Fatalf("%s: no form session in the page", name)
		}
		return string(m[1])
	}
	sess := openPage("pin page 200", plain)
	h.do("pin page 410 second visit", req{method: "GET", path: pagePath(plain, "hostedPageUrl"), want: 410})
	h.do("pin page 404 unknown token", req{method: "GET", path: "/pin-direct/set?token=nope", want: 404})
	h.do("pin page 422 same digits", req{method: "POST", path: "/pin-direct/set",
		body: url.Values{"session": {sess}, "pin": {"1111"}, "confirm": {"1111"}, "action": {"set"}}, want: 422})
	h.do("pin page 422 confirmation differs", req{method: "POST", path: "/pin-direct/set",
		body: url.Values{"session": {sess}, "pin": {"4821"}, "confirm": {"4822"}, "action": {"set"}}, want: 422})
	h.do("pin page 422 not digits", req{method: "POST", path: "/pin-direct/set",
		body: url.Values{"session": {sess}, "pin": {"48a1"}, "confirm": {"48a1"}, "action": {"set"}}, want: 422})
	h.do("pin page 422 five digits", req{method: "POST", path: "/pin-direct/set",
		body: url.Values{"session": {sess}, "pin": {"48213"}, "confirm": {"48213"}, "action": {"set"}}, want: 422})
	h.do("pin page 200 set", req{method: "POST", path: "/pin-direct/set",
		body: url.Values{"session": {sess}, "pin": {"4821"}, "confirm": {"4821"}, "action": {"set"}}, want: 200})
	h.do("pin page 410 session over", req{method: "POST", path: "/pin-direct/set",
		body: url.Values{"session": {sess}, "pin": {"4821"}, "confirm": {"4821"}}, want: 410})
	sess = openPage("pin page 200 redirect mode", redirect)
	r = h.do("pin page 303 redirect", req{method: "POST", path: "/pin-direct/set",
		body: url.Values{"session": {sess}, "action": {"cancel"}}, want: 303})
	checkf(t, strings.HasPrefix(r.header.Get("Location"), "https://app.example/pin-done"), "redirect Location %q", r.header.Get("Location"))
	sess = openPage("pin page 200 embedded mode", embedded)
	r = h.do("pin page 200 embedded abort", req{method: "POST", path: "/pin-direct/set",
		body: url.Values{"session": {sess}, "pin": {"1357"}, "confirm": {"1357"}, "action": {"set"}}, want: 200})
	checkf(t, bytes.Contains(r.raw, []byte(`type:"abort"`)), "embedded page must post a message of type abort")

	// ---------------------------------------------------------------- view-PIN and details images
	pinTok := h.do("pin token 200", req{method: "POST", path: "/v1/card/pin/token", hdr: withBearer(alice),
		body: map[string]any{"customCss": map[string]any{"backgroundColor": "#112233", "textColor": "#FFFFFF"}}, want: 200})
	h.do("pin token 200 no body", req{method: "POST", path: "/v1/card/pin/token", hdr: withBearer(alice), want: 200})
	r = h.do("pin token 422 bad colour", req{method: "POST", path: "/v1/card/pin/token", hdr: withBearer(alice),
		body: map[string]any{"customCss": map[string]any{"backgroundColor": "blue"}}, want: 422, badRequest: true})
	if errs, _ := r.obj()["errors"].([]any); len(errs) > 0 {
		f, _ := errs[0].(map[string]any)
		checkf(t, f["field"] == "customCss.backgroundColor", "422 errors[0].field = %v", f["field"])
	}
	h.do("pin token 422 same colours", req{method: "POST", path: "/v1/card/pin/token", hdr: withBearer(alice),
		body: map[string]any{"customCss": map[string]any{"backgroundColor": "#FFFFFF", "textColor": "#fff"}}, want: 422})
	h.do("pin token 404 no card", req{method: "POST", path: "/v1/card/pin/token", hdr: withBearer(nora), want: 404})
	h.do("pin token 403", req{method: "POST", path: "/v1/card/pin/token", hdr: withBearer(umar), want: 403})
	h.do("pin token 401", req{method: "POST", path: "/v1/card/pin/token", hdr: withBearer("bad"), want: 401})
	h.do("pin token 499", req{method: "POST", path: "/v1/card/pin/token", hdr: hdrs("Authorization", "Bearer "+alice), want: 499, badRequest: true})
	h.do("pin token 498", req{method: "POST", path: "/v1/card/pin/token", hdr: hdrs("x-client-key", "x", "Authorization", "Bearer "+alice), want: 498})
	r = h.do("pin image 200", req{method: "GET", path: pagePath(pinTok, "imageUrl"), want: 200})
	checkf(t, bytes.HasPrefix(r.raw, []byte("\x89PNG")), "PIN image is not a PNG")
	h.do("pin image 410 single use", req{method: "GET", path: pagePath(pinTok, "imageUrl"), want: 410})
	h.do("image 404 unknown token", req{method: "GET", path: "/details-image?token=nope", want: 404})
	det := h.do("details token 200", req{method: "POST", path: "/v1/card/details/token", hdr: withBearer(alice),
		body: map[string]any{"customCss": map[string]any{"cardBackgroundColor": "#1A1F36", "panTextColor": "#EEEEEE"}}, want: 200})
	h.do("details image 200", req{method: "GET", path: pagePath(det, "imageUrl"), want: 200})
	h.do("details token 422", req{method: "POST", path: "/v1/card/details/token", hdr: withBearer(alice),
		body: map[string]any{"customCss": map[string]any{"cardTextColor": "#123456", "cardBackgroundColor": "#123456"}}, want: 422})
	h.do("details token 404", req{method: "POST", path: "/v1/card/details/token", hdr: withBearer(nora), want: 404})

	// ---------------------------------------------------------------- transactions
	r = h.do("transactions 200", req{method: "GET", path: "/v1/card/transactions", hdr: withBearer(alice), want: 200})
	checkf(t, len(r.arr()) > 0, "alice has no transactions")
	h.do("transactions 200 filtered", req{method: "GET", path: "/v1/card/transactions?dateFrom=2026-01-01&dateTo=2026-12-31&mccCategories=GROCERIES,TRAVEL&searchKey=paris&page=1",
		hdr: withBearer(alice), want: 200})
	h.do("transactions 422 dateFrom alone", req{method: "GET", path: "/v1/card/transactions?dateFrom=2026-01-01", hdr: withBearer(alice), want: 422})
	h.do("transactions 422 bad page", req{method: "GET", path: "/v1/card/transactions?page=-1", hdr: withBearer(alice), want: 422, badRequest: true})
	h.do("transactions 404 no card", req{method: "GET", path: "/v1/card/transactions", hdr: withBearer(nora), want: 404})
	h.do("transactions 403", req{method: "GET", path: "/v1/card/transactions", hdr: withBearer(umar), want: 403})

	// ---------------------------------------------------------------- card order (after the no-card cases)
	h.do("card order 400 has a card", req{method: "POST", path: "/v1/card/order", hdr: withBearer(alice), body: map[string]any{"type": "VIRTUAL"}, want: 400})
	h.do("card order 422 bad type", req{method: "POST", path: "/v1/card/order", hdr: withBearer(nora), body: map[string]any{"type": "GOLD"}, want: 422, badRequest: true})
	h.do("card order 200", req{method: "POST", path: "/v1/card/order", hdr: withBearer(nora), body: map[string]any{"type": "VIRTUAL"}, want: 200})
	h.do("card order 200 replaces blocked", req{method: "POST", path: "/v1/card/order", hdr: withBearer(bruno), body: map[string]any{"type": "METAL"}, want: 200})
	r = h.do("card status after order", req{method: "GET", path: "/v1/card/status", hdr: withBearer(nora), want: 200})
	checkf(t, r.str("status") == "ACTIVE" && r.str("type") == "VIRTUAL", "ordered card: %s", r.raw)

	// ---------------------------------------------------------------- wallets
	r = h.do("internal wallets 200", req{method: "GET", path: "/v1/wallet/internal", hdr: withBearer(alice), want: 200})
	addrOf := map[string]string{}
	idOf := map[string]string{}
	for _, w := range r.arr() {
		m, _ := w.(map[string]any)
		cur, _ := m["currency"].(string)
		addrOf[cur], _ = m["addressId"].(string)
		idOf[cur], _ = m["id"].(string)
	}
	if addrOf["eth"] == "" || idOf["usdc"] == "" {
		t.Fatalf("alice's internal wallets lack eth or usdc: %s", r.raw)
	}
	h.do("internal wallets 403", req{method: "GET", path: "/v1/wallet/internal", hdr: withBearer(umar), want: 403})
	h.do("linked wallets 200", req{method: "GET", path: "/v1/wallet/internal/card_linked", hdr: withBearer(alice), want: 200})
	link := func(name, tok string, body any, want int, bad bool) res {
		return h.do(name, req{method: "POST", path: "/v1/wallet/internal/card_linked", hdr: withBearer(tok), body: body, want: want, badRequest: bad})
	}
	link("link 201", alice, map[string]string{"addressId": addrOf["eth"]}, 201, false)
	link("link 400 already linked", alice, map[string]string{"addressId": addrOf["eth"]}, 400, false)
	link("link 404 unknown wallet", alice, map[string]string{"addressId": "nope"}, 404, false)
	link("link 422 no addressId", alice, map[string]string{}, 422, true)
	r = h.do("internal wallets lena", req{method: "GET", path: "/v1/wallet/internal", hdr: withBearer(lena), want: 200})
	lenaBTC := ""
	for _, w := range r.arr() {
		if m, _ := w.(map[string]any); m["currency"] == "btc" {
			lenaBTC, _ = m["addressId"].(string)
		}
	}
	r = link("link 400 sixth wallet", lena, map[string]string{"addressId": lenaBTC}, 400, false)
	checkf(t, strings.Contains(r.str("message"), "maximum of 5"), "sixth link message %q should say a maximum of 5 wallets can be linked", r.str("message"))
	link("link 403", umar, map[string]string{"addressId": "x"}, 403, false)
	link("link 401", "", map[string]string{"addressId": "x"}, 401, false)
	h.do("link 499", req{method: "POST", path: "/v1/wallet/internal/card_linked", hdr: hdrs("Authorization", "Bearer "+alice),
		body: map[string]string{"addressId": "x"}, want: 499, badRequest: true})
	h.do("link 498", req{method: "POST", path: "/v1/wallet/internal/card_linked", hdr: hdrs("x-client-key", "x", "Authorization", "Bearer "+alice),
		body: map[string]string{"addressId": "x"}, want: 498})
	h.do("unlink 200", req{method: "DELETE", path: "/v1/wallet/internal/card_linked", hdr: withBearer(alice), body: map[string]string{"addressId": addrOf["eth"]}, want: 200})
	h.do("unlink 404", req{method: "DELETE", path: "/v1/wallet/internal/card_linked", hdr: withBearer(alice), body: map[string]string{"addressId": addrOf["eth"]}, want: 404})
	h.do("external wallets 200", req{method: "GET", path: "/v1/wallet/external", hdr: withBearer(alice), want: 200})
	r = h.do("credit wallet 200", req{method: "GET", path: "/v1/wallet/credit", hdr: withBearer(alice), want: 200})
	creditID := r.str("id")
	checkf(t, r.obj()["isWithdrawable"] == true, "alice's credit wallet should be withdrawable: %s", r.raw)
	h.do("credit wallet 404", req{method: "GET", path: "/v1/wallet/credit", hdr: withBearer(nora), want: 404})
	h.do("withdraw estimation 200", req{method: "GET", path: "/v1/wallet/credit/withdraw-estimation", hdr: withBearer(alice), want: 200})
	h.do("withdraw estimation 404", req{method: "GET", path: "/v1/wallet/credit/withdraw-estimation", hdr: withBearer(nora), want: 404})
	withdraw := func(name, tok, amount string, want int, bad bool) res {
		return h.do(name, req{method: "POST", path: "/v1/wallet/credit/withdraw?x-us-env=false", hdr: withBearer(tok),
			body: map[string]string{"amount": amount}, want: want, badRequest: bad})
	}
	r = withdraw("withdraw 200", alice, "10.00", 200, false)
	checkf(t, strings.HasPrefix(r.str("txHash"), "0x"), "txHash %q", r.str("txHash"))
	withdraw("withdraw 409 in progress", alice, "5.00", 409, false)
	withdraw("withdraw 422 not an amount", alice, "ten", 422, true)
	h.clock.Advance(10 * time.Second) // the first withdrawal settles
	withdraw("withdraw 422 below the fee", alice, "0.10", 422, false)
	withdraw("withdraw 400 insufficient", alice, "100000.00", 400, false)
	withdraw("withdraw 403 not withdrawable", bruno, "1.00", 403, false)
	withdraw("withdraw 400 no external wallet", frank, "1.00", 400, false)
	withdraw("withdraw 404 no credit wallet", nora, "1.00", 404, false)
	withdraw("withdraw 403 unverified", umar, "1.00", 403, false)
	r = h.do("history 200", req{method: "GET", path: "/v1/wallet/history?walletId=" + idOf["usdc"], hdr: withBearer(alice), want: 200})
	checkf(t, len(r.arr()) == 10, "history page 0 has %d items, want 10", len(r.arr()))
	h.do("history 200 page 2", req{method: "GET", path: "/v1/wallet/history?walletId=" + idOf["usdc"] + "&walletType=internal&walletCurrency=usdc&page=2", hdr: withBearer(alice), want: 200})
	r = h.do("history 200 credit", req{method: "GET", path: "/v1/wallet/history?walletId=" + creditID + "&walletType=credit", hdr: withBearer(alice), want: 200})
	checkf(t, len(r.arr()) >= 2, "credit history should show the withdrawal: %s", r.raw)
	h.do("history 422 no walletId", req{method: "GET", path: "/v1/wallet/history", hdr: withBearer(alice), want: 422, badRequest: true})
	h.do("history 422 bad walletType", req{method: "GET", path: "/v1/wallet/history?walletId=x&walletType=savings", hdr: withBearer(alice), want: 422, badRequest: true})
	h.do("history 404 unknown wallet", req{method: "GET", path: "/v1/wallet/history?walletId=nope", hdr: withBearer(alice), want: 404})

	// ---------------------------------------------------------------- whitelist
	r = h.do("whitelist 200", req{method: "GET", path: "/v1/wallet/whitelist?currency=usdc&x-us-env=false", hdr: withBearer(alice), want: 200})
	checkf(t, len(r.arr()) == 2, "alice has %d usdc whitelist entries, want 2", len(r.arr()))
	r = h.do("whitelist 200 memo currency", req{method: "GET", path: "/v1/wallet/whitelist?currency=xrp", hdr: withBearer(alice), want: 200})
	if len(r.arr()) == 1 {
		m, _ := r.arr()[0].(map[string]any)
		checkf(t, m["walletMemo"] == "123456", "xrp entry memo %v", m["walletMemo"])
	}
	r = h.do("whitelist 422 no currency", req{method: "GET", path: "/v1/wallet/whitelist", hdr: withBearer(alice), want: 422, badRequest: true})
	checkf(t, strings.Contains(strings.ToLower(r.str("message")), "currency"), "422 message %q should say the currency parameter is required", r.str("message"))
	h.do("whitelist 422 unsupported currency", req{method: "GET", path: "/v1/wallet/whitelist?currency=doge", hdr: withBearer(alice), want: 422})
	h.do("whitelist 403", req{method: "GET", path: "/v1/wallet/whitelist?currency=usdc", hdr: withBearer(umar), want: 403})
	h.do("whitelist 401", req{method: "GET", path: "/v1/wallet/whitelist?currency=usdc", hdr: withKey(), want: 401})
	h.do("whitelist 499", req{method: "GET", path: "/v1/wallet/whitelist?currency=usdc", hdr: hdrs("Authorization", "Bearer "+alice), want: 499, badRequest: true})
	h.do("whitelist 498", req{method: "GET", path: "/v1/wallet/whitelist?currency=usdc", hdr: hdrs("x-client-key", "x", "Authorization", "Bearer "+alice), want: 498})
	entry := func(cur, addr string, memo ...string) map[string]string {
		e := map[string]string{"currency": cur, "name": "Test " + cur, "beneficiaryFirstName": "Alice", "beneficiaryLastName": "Martin", "walletAddress": addr}
		if len(memo) > 0 {
			e["walletMemo"] = memo[0]
		}
		return e
	}
	addWL := func(name string, body any, want int, bad bool) res {
		return h.do(name, req{method: "POST", path: "/v1/wallet/whitelist", hdr: withBearer(alice), body: body, want: want, badRequest: bad})
	}
	addWL("whitelist add 201", map[string]any{"wallets": []any{
		entry("usdc", "0x1111111111111111111111111111111111111111"),
		entry("xrp", "rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYf", "42"),
	}}, 201, false)
	r = addWL("whitelist add 422 bad address", map[string]any{"wallets": []any{entry("usdc", "0x123")}}, 422, false)
	checkf(t, strings.Contains(strings.ToLower(r.str("message")), "address"), "422 message %q should name the invalid address", r.str("message"))
	addWL("whitelist add 422 memo missing", map[string]any{"wallets": []any{entry("xrp", "rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYg")}}, 422, false)
	addWL("whitelist add 422 no wallets", map[string]any{}, 422, true)
	addWL("whitelist add 422 empty wallets", map[string]any{"wallets": []any{}}, 422, false)
	h.do("whitelist add 403", req{method: "POST", path: "/v1/wallet/whitelist", hdr: withBearer(umar),
		body: map[string]any{"wallets": []any{entry("usdc", "0x1111111111111111111111111111111111111111")}}, want: 403})
	r = h.do("whitelist 200 after add", req{method: "GET", path: "/v1/wallet/whitelist?currency=usdc", hdr: withBearer(alice), want: 200})
	newID := ""
	for _, e := range r.arr() {
		if m, _ := e.(map[string]any); m["walletAddress"] == "0x1111111111111111111111111111111111111111" {
			newID, _ = m["id"].(string)
		}
	}
	checkf(t, newID != "", "the added entry is not listed: %s", r.raw)
	delWL := func(name string, body any, want int, bad bool) res {
		return h.do(name, req{method: "DELETE", path: "/v1/wallet/whitelist", hdr: withBearer(alice), body: body, want: want, badRequest: bad})
	}
	delWL("whitelist delete 200", map[string]any{"walletIds": []string{newID}}, 200, false)
	r = delWL("whitelist delete 422 unknown id", map[string]any{"walletIds": []string{newID}}, 422, false)
	checkf(t, strings.Contains(strings.ToLower(r.str("message")), "invalid wallet id"), "422 message %q should say invalid wallet id", r.str("message"))
	delWL("whitelist delete 422 no ids", map[string]any{}, 422, true)

	// ---------------------------------------------------------------- OAuth
	verifier := "contract-test-verifier-0123456789-abcdefghijklmnopqrstuvwxyz"
	sum := sha256.Sum256([]byte(verifier))
	challenge := base64.RawURLEncoding.EncodeToString(sum[:])
	redirectURI := "http://127.0.0.1:9/callback"
	q := url.Values{"client_id": {sandbox.DemoClientKey}, "code_challenge": {challenge}, "code_challenge_method": {"S256"},
		"redirect_uri": {redirectURI}, "state": {"st4te"}, "response_type": {"code"}}
	r = h.do("oauth initiate 200", req{method: "GET", path: "/v1/auth/oauth/authorize/initiate?" + q.Encode(), want: 200})
	signIn, err := url.Parse(r.str("url"))
	if err != nil || signIn.Query().Get("session") == "" {
		t.Fatalf("initiate url %q", r.str("url"))
	}
	bad := url.Values{"client_id": {"nobody"}, "code_challenge": {challenge}, "code_challenge_method": {"S256"}}
	h.do("oauth initiate 498 unknown client", req{method: "GET", path: "/v1/auth/oauth/authorize/initiate?" + bad.Encode(), want: 498})
	h.do("oauth initiate 400 no challenge", req{method: "GET", path: "/v1/auth/oauth/authorize/initiate?client_id=" + sandbox.DemoClientKey, want: 400, badRequest: true})
	h.do("sign-in page 200", req{method: "GET", path: signIn.RequestURI(), want: 200})
	h.do("sign-in page 400 unknown session", req{method: "GET", path: "/oauth/sign-in?session=nope", want: 400})
	session := signIn.Query().Get("session")
	h.do("sign-in 200 wrong password", req{method: "POST", path: "/oauth/sign-in",
		body: url.Values{"session": {session}, "username": {"alice@demo.test"}, "password": {"nope"}}, want: 200})
	r = h.do("sign-in 302", req{method: "POST", path: "/oauth/sign-in",
		body: url.Values{"session": {session}, "username": {"alice@demo.test"}, "password": {"demo-pass"}}, want: 302})
	loc, _ := url.Parse(r.header.Get("Location"))
	code := ""
	if loc != nil {
		code = loc.Query().Get("code")
		checkf(t, loc.Query().Get("state") == "st4te", "redirect state %q", loc.Query().Get("state"))
	}
	if code == "" {
		t.Fatalf("sign-in redirect %q carries no code", r.header.Get("Location"))
	}
	h.do("sign-in 400 session used", req{method: "POST", path: "/oauth/sign-in",
		body: url.Values{"session": {session}, "username": {"alice@demo.test"}, "password": {"demo-pass"}}, want: 400})
	tokenCall := func(name string, hd http.Header, body any, want int, bad bool) res {
		return h.do(name, req{method: "POST", path: "/v1/auth/oauth/token", hdr: hd, body: body, want: want, badRequest: bad})
	}
	r = tokenCall("oauth token 200 code", withSecret(), map[string]string{"grant_type": "authorization_code", "code": code,
		"code_verifier": verifier, "redirect_uri": redirectURI}, 200, false)
	oauthAccess, oauthRefresh := r.str("access_token"), r.str("refresh_token")
	tokenCall("oauth token 400 code reused", withSecret(), map[string]string{"grant_type": "authorization_code", "code": code,
		"code_verifier": verifier, "redirect_uri": redirectURI}, 400, false)
	r = tokenCall("oauth token 200 refresh", withSecret(), map[string]string{"grant_type": "refresh_token", "refresh_token": oauthRefresh}, 200, false)
	if r.str("access_token") != "" {
		oauthAccess = r.str("access_token")
	}
	tokenCall("oauth token 400 refresh spent", withSecret(), map[string]string{"grant_type": "refresh_token", "refresh_token": oauthRefresh}, 400, false)
	tokenCall("oauth token 400 no grant", withSecret(), map[string]string{"refresh_token": "x"}, 400, true)
	tokenCall("oauth token 401 bad secret", withKey("x-secret-key", "sk_wrong"), map[string]string{"grant_type": "refresh_token", "refresh_token": "x"}, 401, false)
	tokenCall("oauth token 499", hdrs("x-secret-key", sandbox.DemoSecretKey), map[string]string{"grant_type": "refresh_token", "refresh_token": "x"}, 499, true)
	tokenCall("oauth token 498", hdrs("x-client-key", "x", "x-secret-key", sandbox.DemoSecretKey), map[string]string{"grant_type": "refresh_token", "refresh_token": "x"}, 498, false)
	h.do("user 200 oauth token", req{method: "GET", path: "/v1/user", hdr: withBearer(oauthAccess), want: 200})
	h.do("revoke 200", req{method: "DELETE", path: "/v1/auth/oauth/revoke", hdr: withBearer(oauthAccess), want: 200})
	h.do("user 401 after revoke", req{method: "GET", path: "/v1/user", hdr: withBearer(oauthAccess), want: 401})
	h.do("revoke 401", req{method: "DELETE", path: "/v1/auth/oauth/revoke", hdr: withBearer(oauthAccess), want: 401})

	// ---------------------------------------------------------------- logout
	bye := login("alice@demo.test")
	r = h.do("logout 200", req{method: "POST", path: "/v1/auth/logout", hdr: withBearer(bye), want: 200})
	checkf(t, r.obj()["success"] == true, "logout: %s", r.raw)
	h.do("user 401 after logout", req{method: "GET", path: "/v1/user", hdr: withBearer(bye), want: 401})
	h.do("logout 401", req{method: "POST", path: "/v1/auth/logout", hdr: withBearer(bye), want: 401})
	h.do("logout 499", req{method: "POST", path: "/v1/auth/logout", hdr: hdrs("Authorization", "Bearer "+alice), want: 499, badRequest: true})

	// ---------------------------------------------------------------- faults: 429 and 500 in each family's shape
	burst := func(name string, c req) res {
		h.srv.SetFaults(sandbox.Faults{Burst429: 1})
		c.want = http.StatusTooManyRequests
		r := h.do(name, c)
		checkf(t, r.header.Get("Retry-After") != "", "%s: 429 without Retry-After", name)
		return r
	}
	burst("429 card", req{method: "GET", path: "/v1/card/status", hdr: withBearer(alice)})
	burst("429 oauth", req{method: "POST", path: "/v1/auth/oauth/token", hdr: withSecret(), body: map[string]string{"grant_type": "refresh_token", "refresh_token": "x"}})
	burst("429 consent", req{method: "GET", path: "/v2/consent/user/" + "u-1", hdr: withKey()})
	burst("429 hosted page", req{method: "GET", path: "/pin-direct/set?token=nope"})
	h.srv.SetFaults(sandbox.Faults{ErrorRate: 1})
	h.do("500 card", req{method: "GET", path: "/v1/card/status", hdr: withBearer(alice), want: 500})
	h.do("500 whitelist", req{method: "GET", path: "/v1/wallet/whitelist?currency=usdc", hdr: withBearer(alice), want: 500})
	h.do("500 oauth", req{method: "POST", path: "/v1/auth/oauth/token", hdr: withSecret(), body: map[string]string{"grant_type": "refresh_token", "refresh_token": "x"}, want: 500})
	h.do("500 consent", req{method: "GET", path: "/v2/consent/user/u-1/audit", hdr: withKey(), want: 500})
	h.srv.SetFaults(sandbox.Faults{})

	// ---------------------------------------------------------------- hosted tokens live about 10 minutes
	late := h.do("pin token for expiry", req{method: "POST", path: "/v1/card/pin/token", hdr: withBearer(alice), want: 200})
	latePage := setPIN("set-pin token for expiry", alice, nil, 200)
	h.clock.Advance(10*time.Minute + time.Second)
	h.do("pin image 410 expired", req{method: "GET", path: pagePath(late, "imageUrl"), want: 410})
	h.do("pin page 410 expired", req{method: "GET", path: pagePath(latePage, "hostedPageUrl"), want: 410})

	// ---------------------------------------------------------------- the 6-hour access token
	h.clock.Advance(6*time.Hour + time.Second)
	h.do("user 401 expired token", req{method: "GET", path: "/v1/user", hdr: withBearer(alice), want: 401})

	// ---------------------------------------------------------------- /v1/user rate limit (its own sandbox)
	rl := newHarness(t, doc, sandbox.Options{UserRateLimitPerMinute: 2}, covered)
	rlr := rl.do("rate login", req{method: "POST", path: "/v1/auth/login", hdr: withKey(),
		body: map[string]string{"username": "alice@demo.test", "password": "demo-pass"}, want: 200})
	tok := rlr.str("accessToken")
	rl.do("rate user 1", req{method: "GET", path: "/v1/user", hdr: withBearer(tok), want: 200})
	rl.do("rate user 2", req{method: "GET", path: "/v1/user", hdr: withBearer(tok), want: 200})
	rlr = rl.do("rate user 429", req{method: "GET", path: "/v1/user", hdr: withBearer(tok), want: 429})
	if n, err := strconv.Atoi(rlr.header.Get("Retry-After")); err != nil || n < 1 || n > 60 {
		t.Errorf("user 429 Retry-After %q, want whole seconds 1..60", rlr.header.Get("Retry-After"))
	}
	rl.clock.Advance(time.Minute)
	rl.do("rate user after the window", req{method: "GET", path: "/v1/user", hdr: withBearer(tok), want: 200})

	// per client and hour: two users' tokens share the client's budget
	hr := newHarness(t, doc, sandbox.Options{UserRateLimitPerHour: 2}, covered)
	toks := []string{}
	for _, u := range []string{"alice@demo.test", "frank@demo.test"} {
		lr := hr.do("hourly login "+u, req{method: "POST", path: "/v1/auth/login", hdr: withKey(),
			body: map[string]string{"username": u, "password": "demo-pass"}, want: 200})
		toks = append(toks, lr.str("accessToken"))
	}
	hr.do("hourly user 1", req{method: "GET", path: "/v1/user", hdr: withBearer(toks[0]), want: 200})
	hr.do("hourly user 2", req{method: "GET", path: "/v1/user", hdr: withBearer(toks[1]), want: 200})
	hr.do("hourly user 429", req{method: "GET", path: "/v1/user", hdr: withBearer(toks[0]), want: 429})

	// ------------------------------------------------------- later families
	for _, script := range familyScripts {
		script(t, h, login)
	}

	// ---------------------------------------------------------------- coverage
	ops := docOps(doc)
	served := sandboxRoutes(t)
	var unexercised, designLeft, notServed []string
	for _, k := range served {
		if covered[k] {
			continue
		}
		if ops[k] == "interface" {
			unexercised = append(unexercised, k)
		} else {
			designLeft = append(designLeft, k)
		}
	}
	for _, k := range interfaceOps {
		if !slices.Contains(served, k) {
			notServed = append(notServed, k)
		}
	}
	if len(unexercised) > 0 {
		t.Errorf("interface operations the sandbox serves but the contract script never exercises (add calls to TestContractSandbox):\n  %s",
			strings.Join(unexercised, "\n  "))
	}
	if len(designLeft) > 0 {
		t.Logf("design operations served but not exercised:\n  %s", strings.Join(designLeft, "\n  "))
	}
	if len(notServed) > 0 {
		t.Logf("interface operations the sandbox does not serve yet:\n  %s", strings.Join(notServed, "\n  "))
	}

}
