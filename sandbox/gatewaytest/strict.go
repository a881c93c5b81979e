package gatewaytest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Strict is a gateway written from the gateway interface alone: every
// request is checked against the interface's rules (its paths and
// methods, the headers each endpoint requires, where a body goes and
// the members a documented body may have) before the wrapped gateway
// answers it, and each broken rule is a test failure. Its answers never
// announce the cardterm sandbox, so a client sees a gateway it knows
// nothing about.
type Strict struct {
	T    testing.TB
	Next http.Handler

	mu       sync.Mutex
	requests []string
}

// endpoint is one operation of the interface and what it requires.
type endpoint struct {
	method string
	path   *regexp.Regexp
	// headers each request must carry.
	headers []string
	// body: "" none allowed, "json" any JSON object or array, or the
	// members a documented body may have, space-separated.
	body string
}

const (
	clientKey = "x-client-key"
	bearer    = "Authorization"
	secretKey = "x-secret-key"
	clientID  = "X-Client-ID"
	anyJSON   = "json"
)

func op(method, path, body string, headers ...string) endpoint {
	return endpoint{method: method, path: regexp.MustCompile("^" + path + "$"), headers: headers, body: body}
}

// segment is one identifier in a path.
const segment = `[A-Za-z0-9._~%-]+`

// interfaceEndpoints are the operations of the gateway interface, the
// documented ones with their rules, those only named with the common
// headers (x-client-key and, for a user's data, the bearer token).
var interfaceEndpoints = []endpoint{
	op("POST", "/v1/auth/login", "username password", clientKey),
	op("POST", "/v1/auth/logout", "", clientKey, bearer),
	op("POST", "/v1/auth/oauth/token", "grant_type code code_verifier redirect_uri refresh_token", clientKey, secretKey),
	op("GET", "/v1/auth/oauth/authorize/initiate", "", clientKey),
	op("DELETE", "/v1/auth/oauth/revoke", anyJSON, clientKey),
	op("GET", "/v1/user", "", clientKey, bearer),
	op("GET", "/v1/card/status", "", clientKey, bearer),
	op("POST", "/v1/card/(freeze|unfreeze)", "", clientKey, bearer),
	op("POST", "/v1/card/order", anyJSON, clientKey, bearer),
	op("POST", "/v1/card/set-pin/token", "redirectUrl isEmbedded customCss", clientKey, bearer),
	op("POST", "/v1/card/pin/token", "customCss", clientKey, bearer),
	op("POST", "/v1/card/details/token", anyJSON, clientKey, bearer),
	op("GET", "/v1/card/transactions", "", clientKey, bearer),
	op("GET", "/v1/wallet/(internal|internal/card_linked|external|credit|credit/withdraw-estimation|history)", "", clientKey, bearer),
	op("(POST|DELETE)", "/v1/wallet/internal/card_linked", "addressId", clientKey, bearer),
	op("PUT", "/v1/wallet/internal/card_linked", anyJSON, clientKey, bearer),
	op("POST", "/v1/wallet/credit/withdraw", "amount", clientKey, bearer),
	op("GET", "/v1/wallet/whitelist", "", clientKey, bearer),
	op("POST", "/v1/wallet/whitelist", "wallets", clientKey, bearer),
	op("DELETE", "/v1/wallet/whitelist", "walletIds", clientKey, bearer),
	op("GET", "/v1/delegation/(token|chain/config)", "", clientKey, bearer),
	op("POST", "/v1/delegation/(evm|solana)/post-approval", anyJSON, clientKey, bearer),
	op("POST", "/v1/order", "productId paymentMethod", bearer, clientID),
	op("GET", "/v1/order/products/available", "", bearer, clientID),
	op("GET", "/v1/order/"+segment, "", bearer, clientID),
	op("POST", "/v2/consent/onboarding", anyJSON, clientKey, secretKey),
	op("PATCH", "/v2/consent/onboarding/"+segment, "userId", clientKey, secretKey),
	op("GET", "/v2/consent/onboarding/"+segment, "", clientKey),
	op("GET", "/v2/consent/user/"+segment+"(/audit)?", "", clientKey),
	op("GET", "/v2/consent/consentSet/"+segment, "", clientKey),
	op("DELETE", "/v2/consent/consentSet/"+segment+"/consent/"+segment, "", clientKey, secretKey),
	op("(GET|POST)", "/v1/webhooks", anyJSON, bearer),
	op("(GET|DELETE)", "/v1/webhooks/"+segment, "", bearer),
	op("PUT", "/v1/webhooks/"+segment, "name url event_types is_active metadata", bearer),
	op("POST", "/v1/webhooks/"+segment+"/rotate-key", "", bearer),
}

// Hosted pages the interface's answers link to (PIN pages, images, the
// OAuth sign-in page) are the gateway's too, reached by a browser.
var hostedPage = regexp.MustCompile(`^/(pin-direct/set|details-image|pin-image|card-details-image|oauth/|hosted/)`)

func (g *Strict) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	if problem := check(r, body); problem != "" {
		g.T.Errorf("strict gateway: %s %s: %s", r.Method, r.URL.Path, problem)
	}
	g.mu.Lock()
	g.requests = append(g.requests, r.Method+" "+r.URL.Path)
	g.mu.Unlock()
	g.Next.ServeHTTP(withoutAnnouncement{w}, r)
}

// Requests are the requests received, "METHOD /path", in order.
func (g *Strict) Requests() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.requests)
}

// check is the first rule of the interface r breaks, or "".
func check(r *http.Request, body []byte) string {
	if hostedPage.MatchString(r.URL.Path) && r.Method == http.MethodGet {
		return ""
	}
	var found *endpoint
	for i, e := range interfaceEndpoints {
		if e.path.MatchString(r.URL.Path) {
			if m, _ := regexp.MatchString("^"+e.method+"$", r.Method); m {
				found = &interfaceEndpoints[i]
				break
			}
		}
	}
	if found == nil {
		return "not an operation of the interface"
	}
	for _, h := range found.headers {
		v := r.Header.Get(h)
		switch {
		case v == "":
			return "the required header " + h + " is missing"
		case h == bearer && !strings.HasPrefix(v, "Bearer "):
			return "Authorization is not a bearer token"
		}
	}
	if v := r.Header.Get("x-us-env"); v != "" && v != "true" && v != "false" {
		return "x-us-env is not a boolean: " + v
	}
	return checkBody(*found, r, body)
}

// checkBody checks where a body is sent and what a documented one holds.
func checkBody(e endpoint, r *http.Request, body []byte) string {
	if len(bytes.TrimSpace(body)) == 0 {
		return ""
	}
	if e.body == "" {
		return "a body was sent to an operation that takes none"
	}
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		return "a body without Content-Type: application/json"
	}
	var members map[string]json.RawMessage
	if e.body == anyJSON {
		if !json.Valid(body) {
			return "the body is not JSON"
		}
		return ""
	}
	if err := json.Unmarshal(body, &members); err != nil {
		return "the body is not a JSON object: " + err.Error()
	}
	allowed := strings.Fields(e.body)
	for name := range members {
		if !slices.Contains(allowed, name) {
			return fmt.Sprintf("the body has %q, which the interface does not document (it takes %s)", name, strings.Join(allowed, ", "))
		}
	}
	return ""
}

// withoutAnnouncement takes the sandbox's word off every answer.
type withoutAnnouncement struct{ http.ResponseWriter }

func (w withoutAnnouncement) WriteHeader(status int) {
	w.Header().Del("X-Cardterm-Sandbox")
	w.ResponseWriter.WriteHeader(status)
}

func (w withoutAnnouncement) Write(b []byte) (int, error) {
	w.Header().Del("X-Cardterm-Sandbox")
	return w.ResponseWriter.Write(b)
}

// Flush passes a streamed answer on.
func (w withoutAnnouncement) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
