package sandbox

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Lifetimes from the interface's "Token types" table.
const (
	accessTTL  = 6 * time.Hour
	refreshTTL = 184 * 24 * time.Hour
	sessionTTL = 10 * time.Minute // the OAuth flow's "JWT token"
	codeTTL    = 10 * time.Minute
)

// Access and refresh tokens are kept by tokenKey (the SHA-256 of the
// token), never as they are: a data directory stores only that key, so
// the file holds no usable token.

// accessToken is an issued access token, bound to a backend and a user.
type accessToken struct {
	be      *backend
	userID  string
	expires time.Time
	refresh string // its refresh token's key, killed with it on revoke/logout
}

// refreshToken is an issued refresh token; it rotates on use.
type refreshToken struct {
	be      *backend
	userID  string
	expires time.Time
	access  string // its access token's key
}

// tokenKey is the key an access or refresh token is kept under.
func tokenKey(tok string) string {
	sum := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(sum[:])
}

// oauthSession is an authorization request waiting on the hosted sign-in page.
type oauthSession struct {
	be                            *backend
	clientKey                     string
	redirectURI, state, challenge string
	expires                       time.Time
	used                          bool
}

// authCode is an issued authorization code: single use, 10 minutes.
type authCode struct {
	be                     *backend
	userID, clientKey      string
	redirectURI, challenge string
	expires                time.Time
}

// newSecret makes an opaque random value (crypto/rand).
func newSecret(prefix string) string { return prefix + rand.Text() }

// liveAccess returns the unexpired access token tok, dropping it if expired.
// Caller holds s.mu.
func (s *Server) liveAccess(tok string) *accessToken {
	k := tokenKey(tok)
	at := s.access[k]
	if at == nil {
		return nil
	}
	if !s.now().Before(at.expires) {
		delete(s.access, k)
		s.keepSessionLocked(sessionAccess, k)
		return nil
	}
	return at
}

// issue creates an access and refresh token pair. Caller holds s.mu.
func (s *Server) issue(be *backend, userID string) (access, refresh string) {
	now := s.now()
	access, refresh = newSecret("sbx_at_"), newSecret("sbx_rt_")
	ak, rk := tokenKey(access), tokenKey(refresh)
	s.access[ak] = &accessToken{be: be, userID: userID, expires: now.Add(accessTTL), refresh: rk}
	s.refresh[rk] = &refreshToken{be: be, userID: userID, expires: now.Add(refreshTTL), access: ak}
	s.keepSessionLocked(sessionAccess, ak)
	s.keepSessionLocked(sessionRefresh, rk)
	return access, refresh
}

// kill invalidates an access or refresh token together with its pair.
// Caller holds s.mu.
func (s *Server) kill(tok string) {
	k := tokenKey(tok)
	if at, ok := s.access[k]; ok {
		delete(s.access, k)
		delete(s.refresh, at.refresh)
		s.keepSessionLocked(sessionAccess, k)
		s.keepSessionLocked(sessionRefresh, at.refresh)
	}
	if rt, ok := s.refresh[k]; ok {
		delete(s.refresh, k)
		delete(s.access, rt.access)
		s.keepSessionLocked(sessionRefresh, k)
		s.keepSessionLocked(sessionAccess, rt.access)
	}
}

// login: POST /v1/auth/login {username, password}.
func (s *Server) login(c *call) {
	var in struct{ Username, Password string }
	if !c.decode(&in) {
		return
	}
	if strings.TrimSpace(in.Username) == "" || in.Password == "" {
		c.fail(http.StatusBadRequest, "username and password are required")
		return
	}
	s.mu.Lock()
	u := c.be.byName[strings.ToLower(strings.TrimSpace(in.Username))]
	if u == nil || !secretEqual(in.Password, u.Password) {
		s.mu.Unlock()
		c.fail(http.StatusUnauthorized, "Not authenticated") // the interface: 401 carries "Not authenticated"
		return
	}
	access, refresh := s.issue(c.be, u.ID)
	s.mu.Unlock()
	c.json(http.StatusOK, map[string]any{"accessToken": access, "refreshToken": refresh, "expiresIn": int(accessTTL / time.Second)})
}

// logout: POST /v1/auth/logout; the bearer token (and its refresh token) die at once.
func (s *Server) logout(c *call) {
	s.mu.Lock()
	s.kill(c.token)
	s.mu.Unlock()
	c.json(http.StatusOK, map[string]bool{"success": true})
}

// revoke: DELETE /v1/auth/oauth/revoke, optional body {token}; kills the
// bearer's tokens and the named token's pair when it belongs to the same user.
func (s *Server) revoke(c *call) {
	var in struct {
		Token string `json:"token"`
	}
	if !c.decode(&in) {
		return
	}
	s.mu.Lock()
	if in.Token != "" {
		k := tokenKey(in.Token)
		if at := s.access[k]; at != nil && at.be == c.be && at.userID == c.user.ID {
			s.kill(in.Token)
		} else if rt := s.refresh[k]; rt != nil && rt.be == c.be && rt.userID == c.user.ID {
			s.kill(in.Token)
		}
	}
	s.kill(c.token)
	s.mu.Unlock()
	c.json(http.StatusOK, map[string]bool{"success": true})
}

// tokenRequest is the body of POST /v1/auth/oauth/token.
type tokenRequest struct {
	GrantType    string `json:"grant_type"`
	RefreshToken string `json:"refresh_token"`
	Code         string `json:"code"`
	CodeVerifier string `json:"code_verifier"`
	RedirectURI  string `json:"redirect_uri"`
}

// oauthToken: POST /v1/auth/oauth/token, grants refresh_token and
// authorization_code (PKCE S256). Accepts JSON or a form body.
func (s *Server) oauthToken(c *call) {
	var in tokenRequest
	if strings.HasPrefix(c.r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		if err := c.r.ParseForm(); err != nil {
			c.fail(http.StatusBadRequest, "Invalid form body")
			return
		}
		f := c.r.PostForm
		in = tokenRequest{f.Get("grant_type"), f.Get("refresh_token"), f.Get("code"), f.Get("code_verifier"), f.Get("redirect_uri")}
	} else if !c.decode(&in) {
		return
	}
	grant := func(field, desc string) {
		writeOAuthError(c.w, http.StatusBadRequest, "invalid_grant", desc, map[string]string{field: desc})
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	var userID string
	switch in.GrantType {
	case "refresh_token":
		if in.RefreshToken == "" {
			writeOAuthError(c.w, http.StatusBadRequest, "invalid_request", "refresh_token is required", map[string]string{"refresh_token": "required"})
			return
		}
		rk := tokenKey(in.RefreshToken)
		rt := s.refresh[rk]
		switch {
		case rt == nil || rt.be != c.be:
			grant("refresh_token", "Refresh token is invalid or revoked")
			return
		case !now.Before(rt.expires):
			delete(s.refresh, rk)
			s.keepSessionLocked(sessionRefresh, rk)
			grant("refresh_token", "Refresh token has expired")
			return
		}
		delete(s.refresh, rk) // rotation: the old one is spent
		s.keepSessionLocked(sessionRefresh, rk)
		userID = rt.userID
	case "authorization_code":
		for _, f := range [][2]string{{"code", in.Code}, {"code_verifier", in.CodeVerifier}} {
			if f[1] == "" {
				writeOAuthError(c.w, http.StatusBadRequest, "invalid_request", f[0]+" is required", map[string]string{f[0]: "required"})
				return
			}
		}
		key := normalizeCode(in.Code)
		ac := s.codes[key]
		switch {
		case ac == nil || ac.be != c.be:
			grant("code", "Authorization code is invalid or has already been used")
			return
		case !now.Before(ac.expires):
			delete(s.codes, key)
			grant("code", "Authorization code has expired")
			return
		case ac.redirectURI != in.RedirectURI:
			grant("redirect_uri", "redirect_uri does not match the authorization request")
			return
		case !secretEqual(pkceS256(in.CodeVerifier), ac.challenge):
			grant("code_verifier", "code_verifier does not match code_challenge (S256)")
			return
		}
		delete(s.codes, key) // single use
		userID = ac.userID
	case "":
		writeOAuthError(c.w, http.StatusBadRequest, "invalid_request", "grant_type is required", map[string]string{"grant_type": "required"})
		return
	default:
		writeOAuthError(c.w, http.StatusBadRequest, "unsupported_grant_type", "grant_type "+in.GrantType+" is not supported", map[string]string{"grant_type": "use authorization_code or refresh_token"})
		return
	}
	access, refresh := s.issue(c.be, userID)
	c.json(http.StatusOK, map[string]any{
		"access_token": access, "refresh_token": refresh, "token_type": "Bearer", "expires_in": int(accessTTL / time.Second),
	})
}

// pkceS256 is base64url(sha256(verifier)) without padding (RFC 7636).
func pkceS256(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// oauthInitiate: GET /v1/auth/oauth/authorize/initiate. The client is named
// by client_id (client key or client id); x-client-key, when sent, must agree.
func (s *Server) oauthInitiate(c *call) {
	q := c.r.URL.Query()
	bad := func(field, desc string) {
		writeOAuthError(c.w, http.StatusBadRequest, "invalid_request", desc, map[string]string{field: desc})
	}
	clientID := q.Get("client_id")
	if clientID == "" {
		bad("client_id", "client_id is required")
		return
	}
	cred, ok := credByKeyOrID(clientID)
	if !ok {
		writeOAuthError(c.w, 498, "invalid_client", "Unknown client_id", map[string]string{"client_id": "unknown client"})
		return
	}
	if hk := c.r.Header.Get("x-client-key"); hk != "" && hk != cred.ClientKey {
		bad("client_id", "client_id does not belong to x-client-key")
		return
	}
	if q.Get("code_challenge") == "" {
		bad("code_challenge", "code_challenge is required")
		return
	}
	if m := q.Get("code_challenge_method"); m != "S256" {
		bad("code_challenge_method", "code_challenge_method must be S256")
		return
	}
	if rt := q.Get("response_type"); rt != "" && rt != "code" {
		bad("response_type", "response_type must be code")
		return
	}
	if ru := q.Get("redirect_uri"); ru != "" {
		if u, err := url.Parse(ru); err != nil || u.Scheme == "" || u.Host == "" {
			bad("redirect_uri", "redirect_uri must be an absolute URL")
			return
		}
	}
	id := newSecret("")
	s.mu.Lock()
	s.sessions[id] = &oauthSession{
		be: s.backendFor(cred, regionOf(c.r)), clientKey: cred.ClientKey,
		redirectURI: q.Get("redirect_uri"), state: q.Get("state"), challenge: q.Get("code_challenge"),
		expires: s.now().Add(sessionTTL),
	}
	s.mu.Unlock()
	c.json(http.StatusOK, map[string]string{"url": s.publicBase(c.r) + "/oauth/sign-in?session=" + url.QueryEscape(id)})
}

// normalizeCode makes a typed-in code comparable: upper case, no spaces or dashes.
func normalizeCode(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == ' ' || r == '\t' {
			return -1
		}
		if r >= 'a' && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}, s)
}

// newCode makes an authorization code short enough to type: XXXXX-XXXXX.
func newCode() (display, key string) {
	t := rand.Text()[:10]
	return t[:5] + "-" + t[5:], t
}
