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
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
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
