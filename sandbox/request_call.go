package sandbox

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"
)

// How a request is resolved and answered: its family of headers, the
// route's rules, and the call that carries the resolved backend.

// family is an error body shape; the interface's "Errors" table assigns one
// to each endpoint family.
type family int

const (
	familyMessage family = iota // {message}: card, wallet, delegation, order, user, webhook, auth
	familyConsent               // {error, details:[string]}: consent, including its 498/499
	familyOAuth                 // {error, error_description, details:{field:msg}}: the general format
)

// familyForPath picks the error shape for answers given before routing
// (faults, unknown paths).
func familyForPath(p string) family {
	switch {
	case strings.HasPrefix(p, "/v2/consent"):
		return familyConsent
	case strings.HasPrefix(p, "/v1/auth/oauth/token"), strings.HasPrefix(p, "/v1/auth/oauth/authorize"):
		return familyOAuth
	}
	return familyMessage
}

// identHeader says which header identifies the client on a route.
type identHeader int

const (
	identClientKey  identHeader = iota // x-client-key (most endpoints)
	identClientID                      // X-Client-ID (orders); client id or client key
	identBearerOnly                    // no client header; the token picks the backend (webhooks)
	identNone                          // public, resolved by the handler (OAuth initiate)
)

// routeSpec is the header and permission rules of a route.
type routeSpec struct {
	fam      family
	ident    identHeader
	auth     bool // a valid bearer access token is required
	verified bool // the user must be VERIFIED (most card and wallet operations)
	secret   bool // x-secret-key must match the client's secret
}

// call is one request on its way through a route: what the middleware
// resolved, and helpers to answer in the route's family shape.
type call struct {
	s     *Server
	w     http.ResponseWriter
	r     *http.Request
	spec  routeSpec
	cred  Credential
	be    *backend
	token string // the bearer access token, when auth
	user  *userRecord
}

// handle registers h behind the middleware for spec.
func (s *Server) handle(pattern string, spec routeSpec, h func(*call)) {
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		c := &call{s: s, w: w, r: r, spec: spec}
		ok := c.resolve()
		c.noteTenant()
		if ok {
			h(c)
		}
	})
}

// isUS reports whether the request asks for the US backend: header
// x-us-env: true, query x-us-env=true, or query region=us.
func isUS(r *http.Request) bool {
	if strings.EqualFold(strings.TrimSpace(r.Header.Get("x-us-env")), "true") {
		return true
	}
	q := r.URL.Query()
	return strings.EqualFold(q.Get("x-us-env"), "true") || strings.EqualFold(q.Get("region"), "us")
}

// regionOf names the region r asks for.
func regionOf(r *http.Request) string {
	if isUS(r) {
		return "us"
	}
	return "eu"
}

// resolve applies the route's identifier, secret and bearer rules; it has
// answered the request when it returns false.
func (c *call) resolve() bool {
	r := c.r
	switch c.spec.ident {
	case identClientKey, identClientID:
		hdr, what := "x-client-key", "client key"
		if c.spec.ident == identClientID {
			hdr, what = "X-Client-ID", "client id"
		}
		v := strings.TrimSpace(r.Header.Get(hdr))
		if v == "" {
			c.failDetail(499, "Missing "+what, hdr, hdr+" header is required")
			return false
		}
		var ok bool
		if c.spec.ident == identClientID {
			c.cred, ok = credByKeyOrID(v)
		} else {
			c.cred, ok = credByKey(v)
		}
		if !ok {
			c.failDetail(498, "Invalid "+what, hdr, "unknown "+what)
			return false
		}
		c.be = c.s.backendFor(c.cred, regionOf(r))
	}
	if c.spec.secret && !secretEqual(r.Header.Get("x-secret-key"), c.cred.SecretKey) {
		c.failDetail(http.StatusUnauthorized, "Invalid client secret", "x-secret-key", "missing or wrong secret key")
		return false
	}
	if c.spec.auth {
		tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		tok = strings.TrimSpace(tok)
		c.s.mu.Lock()
		at := c.s.liveAccess(tok)
		if !ok || at == nil || (c.be != nil && at.be != c.be) {
			c.s.mu.Unlock()
			c.fail(http.StatusUnauthorized, "Not authenticated")
			return false
		}
		c.token, c.be, c.user = tok, at.be, at.be.users[at.userID]
		verifiedOK := c.user.Verification == "VERIFIED"
		c.s.mu.Unlock()
		if c.spec.verified && !verifiedOK {
			c.fail(http.StatusForbidden, "Not authorized")
			return false
		}
	}
	return true
}

// secretEqual compares a presented secret with the expected one in constant
// time (no timing oracle on the secret key, passwords or nonces); an empty
// expected value never matches.
func secretEqual(got, want string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// backendFor finds the backend of a credential in a region.
func (s *Server) backendFor(cr Credential, region string) *backend {
	return s.backends[backendKey{cr.Tenant, cr.Environment, region}]
}

// fail answers with status and msg in the route's family shape.
func (c *call) fail(status int, msg string) { writeFamilyError(c.w, c.spec.fam, status, msg) }

// failDetail is fail with one detail (a field name and what is wrong with
// it), for the families whose shape carries details.
func (c *call) failDetail(status int, msg, field, detail string) {
	switch c.spec.fam {
	case familyConsent:
		writeConsentError(c.w, status, msg, detail)
	case familyOAuth:
		writeOAuthError(c.w, status, oauthCode(status), msg, map[string]string{field: detail})
	default:
		writeMessage(c.w, status, msg)
	}
}

// json answers status with v encoded as JSON.
func (c *call) json(status int, v any) { writeJSON(c.w, status, v) }

// decode reads an optional JSON body into v; an empty body leaves v alone.
// It has answered 400 when it returns false.
func (c *call) decode(v any) bool {
	body, err := io.ReadAll(http.MaxBytesReader(c.w, c.r.Body, 1<<20))
	if err != nil {
		c.fail(http.StatusBadRequest, "Request body too large or unreadable")
		return false
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		return true
	}
	if err := json.Unmarshal(body, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			c.failDetail(http.StatusBadRequest, "Invalid value for "+te.Field, te.Field, "wrong type")
		} else {
			c.fail(http.StatusBadRequest, "Invalid JSON body")
		}
		return false
	}
	return true
}

// now is the sandbox clock's current time.
func (s *Server) now() time.Time { return s.clock.Now().Add(s.Shift()) }
