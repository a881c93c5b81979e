// Package sandbox is the sandbox gateway: a real, stateful, in-memory
// implementation of the Card and Wallet Gateway over net/http. `go run .`,
// the demos, `cardterm sandbox` and every test talk to it; it is never a mock.
package sandbox

import (
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Faults makes the sandbox misbehave on purpose, so tests and demos can show
// how the app copes with a slow, failing or throttling gateway.
type Faults struct {
	Latency   time.Duration // added to every request (cancelled with the request)
	ErrorRate float64       // 0..1 fraction of requests answered 500 {message:"Internal server error"}
	Burst429  int           // the next N requests answer 429 with Retry-After: 1
	Malformed bool          // bodies of 2xx answers are truncated / not JSON
	// Routes make single endpoints slow or failing (faults_routes.go).
	Routes []RouteFault
}

// Options configures a sandbox Server. The zero value is a working sandbox
// on the wall clock with the interface's real limits; the seed is always the
// same deterministic demo data.
type Options struct {
	Clock                  Clock  // nil = real time
	Faults                 Faults // initial faults; change later with SetFaults
	UserRateLimitPerMinute int    // GET /v1/user limit per access token; 0 = 1000
	UserRateLimitPerHour   int    // GET /v1/user limit per client key; 0 = 10000
	// WebhookClient sends webhook deliveries (tests pass one trusting
	// httptest.NewTLSServer); nil = a default client that delivers to
	// loopback hosts only (webhook_delivery.go).
	WebhookClient *http.Client
	// WebhookTimeout bounds one delivery attempt; 0 = 10 s.
	WebhookTimeout time.Duration
	// AltShapes answers every shape the interface leaves "not shown"
	// (transactions, wallets, history, fee estimation, order status, ...)
	// with other field names, nesting and extra fields than the default,
	// as another tenant's gateway may: no screen may depend on the
	// sandbox's own names (cardterm sandbox --alt-shapes).
	AltShapes bool
	// PublicURL is the base URL put in links (hosted pages, QR codes) when
	// the address the sandbox listens on is not what a phone or another
	// machine reaches (behind a tunnel or a proxy); see public_url.go.
	PublicURL string
	// Store is the data directory the state lives in (OpenStore): its
	// state replaces the seed's at start and every change is committed
	// before it is answered (persist.go). nil keeps the state in memory.
	Store *Store
	// RecordBodies keeps each request's query and body in the request log
	// (Requests), for tests that compare what a client sent with what it
	// showed before sending. Off by default: secrets travel there.
	RecordBodies bool
	// Fixture is a fixture (CheckFixture it first) whose state replaces
	// the seed's at start, in memory: cardterm sandbox --fixture.
	Fixture []byte
}

// Server is the sandbox gateway. It implements http.Handler, so it can be
// served by net/http, httptest.NewServer or Start.
type Server struct {
	clock Clock
	// shift is how far POST /sandbox/clock moved the sandbox's time from
	// clock, in nanoseconds (clock_shift.go); now adds it.
	shift atomic.Int64
	opts  Options
	mux   *http.ServeMux
	// signingTimes keeps a body sent again from being signed as before.
	signingTimes signingTimes

	mu       sync.Mutex // guards everything below
	backends map[backendKey]*backend
	access   map[string]*accessToken
	refresh  map[string]*refreshToken
	sessions map[string]*oauthSession
	codes    map[string]*authCode
	limiter  limiter
	pin      pinState // hosted PIN tokens, set-PIN pages, PINs set (pin.go)

	persist persistence // the data directory, when Options.Store is set

	tail requestTail // the streams of GET /sandbox/logs (request_tail.go)

	cfgMu     sync.Mutex // guards faults, burstLeft, baseURL
	requests  requestLog
	faults    Faults
	burstLeft int
	baseURL   string

	quit     chan struct{} // closed by Close: webhook retries stop waiting
	quitOnce sync.Once
}

// New builds a seeded sandbox gateway.
func New(opts Options) *Server {
	if opts.Clock == nil {
		opts.Clock = realClock{}
	}
	if opts.UserRateLimitPerMinute <= 0 {
		opts.UserRateLimitPerMinute = 1000
	}
	if opts.UserRateLimitPerHour <= 0 {
		opts.UserRateLimitPerHour = 10000
	}
	s := &Server{
		clock:    opts.Clock,
		opts:     opts,
		mux:      http.NewServeMux(),
		backends: seedBackends(),
		access:   map[string]*accessToken{},
		refresh:  map[string]*refreshToken{},
		sessions: map[string]*oauthSession{},
		codes:    map[string]*authCode{},
		limiter:  limiter{hits: map[string][]time.Time{}},
		quit:     make(chan struct{}),
	}
	if opts.Store != nil {
		s.openPersistence(opts.Store)
	}
	if len(opts.Fixture) > 0 {
		s.loadFixture(opts.Fixture)
	}
	s.SetFaults(opts.Faults)
	s.routes()
	return s
}

// Close stops the webhook retries still waiting for their turn (an attempt
// under way finishes) and commits what is pending to the data directory.
// The handler keeps answering; Running.Close calls it.
func (s *Server) Close() {
	s.quitOnce.Do(func() { close(s.quit) })
	s.commitLogged()
}

// routes registers every endpoint with the identifier, auth and error-shape
// rules of its family.
func (s *Server) routes() {
	ck := routeSpec{fam: familyMessage, ident: identClientKey}
	authed := routeSpec{fam: familyMessage, ident: identClientKey, auth: true}
	verified := routeSpec{fam: familyMessage, ident: identClientKey, auth: true, verified: true}

	s.handle("POST /v1/auth/login", ck, s.login)
	s.handle("POST /v1/auth/logout", authed, s.logout)
	s.handle("POST /v1/auth/oauth/token", routeSpec{fam: familyOAuth, ident: identClientKey, secret: true}, s.oauthToken)
	s.handle("GET /v1/auth/oauth/authorize/initiate", routeSpec{fam: familyOAuth, ident: identNone}, s.oauthInitiate)
	s.handle("DELETE /v1/auth/oauth/revoke", authed, s.revoke)
	s.mux.HandleFunc("GET /oauth/sign-in", s.signInPage)
	s.mux.HandleFunc("POST /oauth/sign-in", s.signInSubmit)

	s.handle("GET /v1/user", authed, s.getUser)

	s.handle("GET /v1/card/status", verified, s.cardStatus)
	s.handle("POST /v1/card/freeze", verified, s.cardFreeze)
	s.handle("POST /v1/card/unfreeze", verified, s.cardUnfreeze)
	s.handle("POST /v1/card/order", verified, s.cardOrder)
	s.handle("POST /v1/card/set-pin/token", verified, s.setPINToken)
	s.handle("POST /v1/card/pin/token", verified, s.viewPINToken())
	s.handle("POST /v1/card/details/token", verified, s.detailsToken())
	s.handle("GET /v1/card/transactions", verified, s.cardTransactions)
	s.mux.HandleFunc("GET /pin-direct/set", s.pinPageGet)
	s.mux.HandleFunc("POST /pin-direct/set", s.pinPagePost)
	s.mux.HandleFunc("GET /details-image", s.detailsImageRoute)

	s.handle("GET /v1/wallet/internal", verified, s.walletInternal)
	s.handle("GET /v1/wallet/internal/card_linked", verified, s.walletLinked)
	s.handle("POST /v1/wallet/internal/card_linked", verified, s.walletLink)
	s.handle("DELETE /v1/wallet/internal/card_linked", verified, s.walletUnlink)
	s.handle("GET /v1/wallet/external", verified, s.walletExternal)
	s.handle("GET /v1/wallet/credit", verified, s.walletCredit)
	s.handle("GET /v1/wallet/credit/withdraw-estimation", verified, s.withdrawEstimation)
	s.handle("POST /v1/wallet/credit/withdraw", verified, s.withdraw)
	s.handle("GET /v1/wallet/history", verified, s.walletHistory)
	s.handle("GET /v1/wallet/whitelist", verified, s.whitelistList)
	s.handle("POST /v1/wallet/whitelist", verified, s.whitelistAdd)
	s.handle("DELETE /v1/wallet/whitelist", verified, s.whitelistDelete)

	s.handle("GET /v1/delegation/token", verified, s.delegationToken)
	s.handle("GET /v1/delegation/chain/config", verified, s.chainConfig)
	s.handle("POST /v1/delegation/evm/post-approval", verified, s.postApproval("evm"))
	s.handle("POST /v1/delegation/solana/post-approval", verified, s.postApproval("solana"))

	order := routeSpec{fam: familyMessage, ident: identClientID, auth: true}
	s.handle("GET /v1/order/products/available", order, s.ordProducts)
	s.handle("POST /v1/order", order, s.ordCreate)
	s.handle("GET /v1/order/{orderId}", order, s.ordLookup)

	s.webhookRoutes()
	s.consentRoutes()
	s.sandboxToolRoutes()
	s.clockRoutes()
	s.eventHistoryRoutes()

	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeFamilyError(w, familyForPath(r.URL.Path), http.StatusNotFound, "Not found")
	})
}

// AnnounceHeader is on every answer of the sandbox (value "1"), so a
// client knows it talks to the sandbox by what it says, not by where it
// lives; the client keeps its own copy of the name (it imports nothing
// of the sandbox's).
const AnnounceHeader = "X-Cardterm-Sandbox"

// ServeHTTP logs the request, applies fault injection, then routes it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Every answer says it comes from the sandbox: clients send the
	// sandbox-only calls only to a gateway that says so.
	w.Header().Set(AnnounceHeader, "1")
	s.announceShift(w)
	logged := LoggedRequest{Time: s.clock.Now(), Method: r.Method, Path: r.URL.Path}
	if s.opts.RecordBodies {
		logged.Query, logged.Body = r.URL.RawQuery, recordBody(r)
	}
	s.requests.add(logged)
	w, r, published := s.tailed(w, r)
	defer published()
	if s.persist.store != nil {
		cw := &committingWriter{ResponseWriter: w, s: s}
		defer cw.ready() // a handler that wrote nothing still commits
		w = cw
	}
	f, burst := s.takeFaults()
	if f.Latency > 0 {
		t := time.NewTimer(f.Latency)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return // the client is gone; nobody reads an answer
		}
	}
	if answerRouteFault(w, r, f.Routes) {
		return
	}
	fam := familyForPath(r.URL.Path)
	if burst {
		w.Header().Set("Retry-After", "1")
		writeFamilyError(w, fam, http.StatusTooManyRequests, "Too many requests")
		return
	}
	if f.ErrorRate > 0 && randFloat() < f.ErrorRate {
		writeFamilyError(w, fam, http.StatusInternalServerError, "Internal server error")
		return
	}
	if f.Malformed {
		mw := &malformedWriter{ResponseWriter: w, status: http.StatusOK}
		s.mux.ServeHTTP(mw, r)
		mw.finish()
		return
	}
	s.mux.ServeHTTP(w, r)
}

// SetFaults replaces the active faults at runtime (safe while serving); it
// also restarts the Burst429 count.
func (s *Server) SetFaults(f Faults) {
	s.cfgMu.Lock()
	s.faults = f
	s.burstLeft = f.Burst429
	s.cfgMu.Unlock()
}

// SetBaseURL sets the public base URL used in links to hosted pages. Start
// sets it; without it links use the Host the request came to.
func (s *Server) SetBaseURL(u string) {
	s.cfgMu.Lock()
	s.baseURL = strings.TrimRight(u, "/")
	s.cfgMu.Unlock()
}

// publicBase is the base URL for hosted-page links in answer to r.
func (s *Server) publicBase(r *http.Request) string {
	s.cfgMu.Lock()
	b := s.baseURL
	s.cfgMu.Unlock()
	if b != "" {
		return b
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// takeFaults snapshots the faults and consumes one 429 of a burst.
func (s *Server) takeFaults() (Faults, bool) {
	s.cfgMu.Lock()
	defer s.cfgMu.Unlock()
	burst := false
	if s.burstLeft > 0 {
		s.burstLeft--
		burst = true
	}
	return s.faults, burst
}
