package sandbox

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// SANDBOX-ONLY endpoints, which no real gateway has: they let a partner
// make the sandbox do what in production only the gateway's own processes
// do. Both identify the tenant like the consent writes (x-client-key and
// x-secret-key, so only the tenant's backend can call them), and name a
// user by id or username (default: the backend's first demo user).
//
//	POST /sandbox/trigger {event_type, user, fixture, overrides}
//	  sends a test event of any type to every active configuration
//	  subscribed to it -> 200 {eventId, eventType, userId, deliveries:[{id, name, url}]}
//	  (fixture and overrides shape it: sandbox_events.go)
//	POST /sandbox/events/{eventId}/resend {webhookId}
//	  delivers a kept event again (sandbox_events.go)
//	GET /sandbox/logs
//	  streams the requests the sandbox answers (request_tail.go)
//	POST /sandbox/kyc {user, verificationState}
//	  changes a user's verification state and emits kyc.status.changed
//	  -> 200 {userId, previousVerificationState, verificationState}
//	POST /sandbox/simulate {type, user, amount, currency, merchant, mcc, reason, authorizationId}
//	  makes an authorization, decline, clearing or refund happen (simulate.go)
//	POST /sandbox/whitelist {user, currency, count}
//	  adds count generated entries to a user's whitelist (large lists for
//	  demos and load tests) -> 200 {userId, currency, added, total}

// verificationStates are the interface's verification states.
var verificationStates = []string{"UNVERIFIED", "PENDING", "VERIFIED", "REJECTED"}

// sandboxToolRoutes registers the sandbox-only endpoints (called from routes).
func (s *Server) sandboxToolRoutes() {
	spec := routeSpec{fam: familyMessage, ident: identClientKey, secret: true}
	s.handle("POST /sandbox/trigger", spec, s.triggerRoute)
	s.handle("POST /sandbox/kyc", spec, s.kycRoute)
	s.handle("POST /sandbox/whitelist", spec, s.seedWhitelistRoute)
	s.handle("POST /sandbox/simulate", spec, s.simulateRoute)
	s.handle("POST /sandbox/events/{eventId}/resend", spec, s.resendRoute)
	s.handle("GET /sandbox/logs", spec, s.logsRoute)
}

// TriggerResult is what a test event became.
type TriggerResult struct {
	EventID    string              `json:"eventId"`
	EventType  string              `json:"eventType"`
	UserID     string              `json:"userId"`
	Deliveries []webhookSubscriber `json:"deliveries"` // where it is being sent
}

// errNoUser is a user name or id the backend does not know.
var errNoUser = errors.New("no such user")

// Trigger sends a signed test event of eventType about user (an id or a
// username; "" = the first demo user of the demo client key) to every
// active configuration of the user's partner subscribed to that type. The
// deliveries run on their own, with the usual retries.
func (s *Server) Trigger(eventType, user string) (TriggerResult, error) {
	if !webhookEventRE.get().MatchString(eventType) {
		return TriggerResult{}, fmt.Errorf("invalid event type %q: use dotted lower-case names such as card.frozen", eventType)
	}
	s.mu.Lock()
	be, u := s.findUserLocked(user)
	if u == nil {
		s.mu.Unlock()
		return TriggerResult{}, fmt.Errorf("%w %q", errNoUser, user)
	}
	out := s.triggerLocked(be, u, eventType)
	s.mu.Unlock()
	s.commitLogged()
	return out, nil
}

// findUserLocked finds a user by id or username on any backend; "" is the
// demo client key's first user. Call with s.mu held.
func (s *Server) findUserLocked(user string) (*backend, *userRecord) {
	if user == "" {
		cred, _ := credByKey(DemoClientKey)
		be := s.backendFor(cred, "eu")
		return be, be.order[0]
	}
	for _, be := range s.backends {
		if u := userOf(be, user); u != nil {
			return be, u
		}
	}
	return nil, nil
}

// userOf finds a user of be by id or username; "" is be's first user.
func userOf(be *backend, user string) *userRecord {
	if user == "" {
		if len(be.order) == 0 {
			return nil
		}
		return be.order[0]
	}
	if u := be.users[user]; u != nil {
		return u
	}
	return be.byName[strings.ToLower(user)]
}

// triggerLocked emits a test event with a sample object. Call with s.mu held.
func (s *Server) triggerLocked(be *backend, u *userRecord, eventType string) TriggerResult {
	id, object := sampleObject(u, eventType, s.now())
	ev, to := s.emitLocked(be, u.ID, eventType, id, object)
	if to == nil {
		to = []webhookSubscriber{}
	}
	return TriggerResult{EventID: ev.EventID, EventType: eventType, UserID: u.ID, Deliveries: to}
}

// kycRoute: POST /sandbox/kyc.
func (s *Server) kycRoute(c *call) {
	var in struct {
		User  string `json:"user"`
		State string `json:"verificationState"`
	}
	if !c.decode(&in) {
		return
	}
	state := strings.ToUpper(strings.TrimSpace(in.State))
	if !slices.Contains(verificationStates, state) {
		c.fail(http.StatusBadRequest, "verificationState must be one of "+strings.Join(verificationStates, ", "))
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	u := userOf(c.be, strings.TrimSpace(in.User))
	if u == nil {
		c.fail(http.StatusNotFound, "User not found in this tenant and region")
		return
	}
	previous := u.Verification
	u.Verification = state
	s.keepUserLocked(u)
	out := map[string]any{"userId": u.ID, "previousVerificationState": previous, "verificationState": state}
	if previous != state {
		s.emitLocked(c.be, u.ID, WebhookEventKYCStatusChanged, u.ID, out)
	}
	c.json(http.StatusOK, out)
}

// maxSeededWhitelist bounds one POST /sandbox/whitelist.
const maxSeededWhitelist = 1_000_000

// SeedWhitelist adds n generated entries of currency (an EVM-address
// currency such as usdc) to user's whitelist ("" = the first demo user of
// the demo client key) and returns how many of that currency it holds.
func (s *Server) SeedWhitelist(user, currency string, n int) (int, error) {
	s.mu.Lock()
	_, u := s.findUserLocked(user)
	if u == nil {
		s.mu.Unlock()
		return 0, fmt.Errorf("%w %q", errNoUser, user)
	}
	total, err := s.seedWhitelistLocked(u, currency, n)
	s.mu.Unlock()
	s.commitLogged()
	return total, err
}

// seedWhitelistLocked adds n generated entries. Call with s.mu held.
func (s *Server) seedWhitelistLocked(u *userRecord, currency string, n int) (int, error) {
	currency = strings.ToLower(strings.TrimSpace(currency))
	if !whitelistCurrency(currency) {
		return 0, fmt.Errorf("unsupported currency %q", currency)
	}
	if n < 1 || n > maxSeededWhitelist {
		return 0, fmt.Errorf("count must be between 1 and %d", maxSeededWhitelist)
	}
	ws := walletsOf(u)
	before := len(ws.whitelist)
	ws.whitelist = slices.Grow(ws.whitelist, n)
	for range n {
		seq := ws.whitelistSeq
		ws.whitelistSeq++
		var lastUsed *string
		if seq%3 == 0 {
			lastUsed = strp(seedTime().Add(time.Duration(seq) * time.Minute).Format(time.RFC3339))
		}
		ws.whitelist = append(ws.whitelist, &whitelistRecord{
			Seq: seq, ID: uuidFrom("whitelist", u.ID, fmt.Sprint(seq)), Name: fmt.Sprintf("Beneficiary wallet %06d", seq),
			First: fmt.Sprintf("First%d", seq%997), Last: fmt.Sprintf("Last%d", seq%1009),
			Address: fmt.Sprintf("0x%040x", 0x5eed0000+seq), Currency: currency, LastUsedAt: lastUsed,
			CreatedAt: seedTime().Add(time.Duration(seq) * time.Second).Format(time.RFC3339),
		})
	}
	s.keepWhitelistLocked(u, ws.whitelist[before:], nil)
	total := 0
	for _, e := range ws.whitelist {
		if e.Currency == currency {
			total++
		}
	}
	return total, nil
}

// seedWhitelistRoute: POST /sandbox/whitelist.
func (s *Server) seedWhitelistRoute(c *call) {
	var in struct {
		User     string `json:"user"`
		Currency string `json:"currency"`
		Count    int    `json:"count"`
	}
	if !c.decode(&in) {
		return
	}
	s.mu.Lock()
	u := userOf(c.be, strings.TrimSpace(in.User))
	var total int
	var err error
	if u != nil {
		total, err = s.seedWhitelistLocked(u, in.Currency, in.Count)
	}
	s.mu.Unlock()
	switch {
	case u == nil:
		c.fail(http.StatusNotFound, "User not found in this tenant and region")
	case err != nil:
		c.fail(http.StatusBadRequest, "Cannot seed the whitelist: "+err.Error())
	default:
		c.json(http.StatusOK, map[string]any{"userId": u.ID, "currency": strings.ToLower(strings.TrimSpace(in.Currency)),
			"added": in.Count, "total": total})
	}
}
