package e2e

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

// interfacePathRE matches the paths of the gateway interface (the
// operations it documents and those it only names), with an identifier
// where a path has one, and the sandbox's hosted pages that the
// interface's answers link to. Nothing else may reach a gateway that is
// not the sandbox.
var interfacePathRE = regexp.MustCompile(`^/(v1/(auth/(login|logout|oauth/(token|revoke|authorize/initiate))|user|` +
	`card/(status|freeze|unfreeze|order|set-pin/token|pin/token|details/token|transactions)|` +
	`wallet/(internal|internal/card_linked|external|credit|credit/withdraw-estimation|credit/withdraw|history|whitelist)|` +
	`delegation/(token|chain/config|evm/post-approval|solana/post-approval)|` +
	`order|order/products/available|order/[A-Za-z0-9._-]+|` +
	`webhooks|webhooks/[0-9a-f-]{36}|webhooks/[0-9a-f-]{36}/rotate-key)|` +
	`v2/consent/(onboarding|onboarding/[A-Za-z0-9._-]+|user/[A-Za-z0-9._-]+|user/[A-Za-z0-9._-]+/audit|consentSet/[A-Za-z0-9._-]+|consentSet/[A-Za-z0-9._-]+/consent/[A-Za-z0-9._-]+))$`)

// notTheSandbox is a plain gateway on a loopback port: a proxy to a
// sandbox that takes its announcement off every answer, and records every
// path it is sent. Tests of what the app does with a remote gateway use
// it: a sandbox given as --base-url is known for what it is.
type notTheSandbox struct {
	url   string
	mu    sync.Mutex
	paths []string
}

func newNotTheSandbox(t *testing.T, baseURL string) *notTheSandbox {
	t.Helper()
	target, _ := url.Parse(baseURL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(r *http.Response) error {
		r.Header.Del(apiclient.SandboxHeader)
		return nil
	}
	g := &notTheSandbox{}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g.mu.Lock()
		g.paths = append(g.paths, r.Method+" "+r.URL.Path)
		g.mu.Unlock()
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	g.url = hs.URL
	return g
}

func (g *notTheSandbox) sent() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.paths...)
}

// Against a gateway on a loopback port that is not the sandbox, opening a
// webhook sends only interface paths: no delivery log is asked for, and
// the detail says the interface has none.
func TestGatewayThatIsNotTheSandboxGetsOnlyInterfacePaths(t *testing.T) {
	g := newNotTheSandbox(t, startSandboxInProcess(t, sandbox.Options{}).URL)
	tm := startTerm(t, []string{"CARDTERM_SECRET_KEY=" + sandbox.DemoSecretKey},
		"--base-url", g.url, "--client-key", sandbox.DemoClientKey, "--environment", "staging")
	tm.waitFor("Sign in to the Card and Wallet Gateway")
	tm.signInWithForm("alice@demo.test", "demo-pass")
	tm.waitFor("Account")
	tm.open("Webhooks")
	tm.waitFor("2 endpoints · limit 5")
	tm.send("Enter")
	tm.waitFor("Delivery attempts", "for the sandbox gateway only")
	tm.send("Escape", "r")
	tm.waitFor("2 endpoints · limit 5")
	sent := g.sent()
	if len(sent) == 0 {
		t.Fatal("the gateway was sent nothing")
	}
	for _, s := range sent {
		_, path, _ := strings.Cut(s, " ")
		if !interfacePathRE.MatchString(path) {
			t.Errorf("a gateway that is not the sandbox was sent %s (all: %v)", s, sent)
		}
	}
}

// A headless `cardterm sandbox` given as --base-url is asked nothing at
// start: the sign-in screen says it does not know yet what the gateway
// is, no secret key is asked for (a demo tenant's client key), and the
// sandbox receives nothing while the screen waits. Signed in, its answers
// announce it, so the demo tenant's client id reaches the Orders screen.
func TestALocalSandboxIsAskedNothingBeforeSignIn(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	tm := startTerm(t, nil, "--base-url", sb.URL, "--client-key", sandbox.DemoClientKey, "--environment", "sandbox")
	s := tm.waitFor("Sign in to the Card and Wallet Gateway", "Not asked anything yet")
	if strings.Contains(s, "Secret key") {
		t.Fatalf("a secret key was asked for a demo tenant's client key:\n%s", s)
	}
	time.Sleep(2 * time.Second)
	if got := sb.Server.Requests(); len(got) != 0 {
		t.Fatalf("the sign-in screen sent %d requests while it waited: %v", len(got), got)
	}
	tm.signInWithForm("nora@demo.test", "demo-pass")
	tm.waitFor("Account")
	tm.open("Orders")
	tm.waitFor("eligible")
}
