package apiclient

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
)

// PKCEMethod is the only code_challenge_method cardterm sends: "plain" would
// put the verifier itself on the wire (RFC 7636 section 4.2).
const PKCEMethod = "S256"

// PKCE is one proof key for an authorization request (RFC 7636): the
// verifier stays in memory, only its S256 challenge is sent with initiate.
type PKCE struct {
	// Verifier is 43 characters of the unreserved alphabet (32 random
	// bytes, base64url); it is a secret until the code is exchanged.
	Verifier string
	// Challenge is base64url(sha256(Verifier)) without padding.
	Challenge string
}

// NewPKCE makes a fresh verifier from crypto/rand and its S256 challenge,
// so that a stolen authorization code is useless without this process.
func NewPKCE() (PKCE, error) {
	v, err := randomToken(32)
	if err != nil {
		return PKCE{}, err
	}
	return PKCE{Verifier: v, Challenge: S256Challenge(v)}, nil
}

// S256Challenge derives the code_challenge of a verifier (RFC 7636 4.2),
// exported so tests and other tools can check a gateway's verification.
func S256Challenge(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// NewState makes the random `state` that binds the redirect to this
// sign-in attempt, so a forged or replayed callback is refused (RFC 6749
// section 10.12).
func NewState() (string, error) { return randomToken(24) }

// StateMatches compares a returned state with the expected one in constant
// time; an empty expected state never matches.
func StateMatches(expected, got string) bool {
	return expected != "" && subtle.ConstantTimeCompare([]byte(expected), []byte(got)) == 1
}

func randomToken(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", &Error{Op: "OAuth", Message: "cannot read random bytes for the sign-in", Err: err}
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// AuthorizeRequest is what an OAuth sign-in sends to initiate.
type AuthorizeRequest struct {
	// RedirectURI is where the hosted page sends the browser back, e.g. the
	// loopback http://127.0.0.1:PORT/callback (RFC 8252).
	RedirectURI string
	// State is the value from NewState.
	State string
	// Challenge is PKCE.Challenge (S256).
	Challenge string
}

// AuthorizeInitiate asks the gateway for the hosted sign-in page of a new
// authorization request (GET /v1/auth/oauth/authorize/initiate) and returns
// its address, checked to be an absolute http(s) URL without invisible or
// bidi characters (checkGatewayLink) so that it is safe to open in a
// browser, copy and show as a QR code. The client_id is Config.ClientID
// (the client key unless --client-id says otherwise).
func (c *Client) AuthorizeInitiate(ctx context.Context, ar AuthorizeRequest) (string, error) {
	q := url.Values{
		"client_id":             {c.oauthClientID()},
		"code_challenge":        {ar.Challenge},
		"code_challenge_method": {PKCEMethod},
		"response_type":         {"code"},
	}
	if ar.RedirectURI != "" {
		q.Set("redirect_uri", ar.RedirectURI)
	}
	if ar.State != "" {
		q.Set("state", ar.State)
	}
	var raw json.RawMessage
	err := c.do(ctx, request{
		op:        "AuthorizeInitiate",
		method:    http.MethodGet,
		path:      "/v1/auth/oauth/authorize/initiate",
		query:     q,
		family:    familyClient,
		out:       &raw,
		noRefresh: true,
	})
	if err != nil {
		return "", err
	}
	link := initiateLink(raw)
	if err := checkGatewayLink("AuthorizeInitiate", link, "the address of a sign-in page"); err != nil {
		return "", err
	}
	return link, nil
}

// initiateLink reads the sign-in page address from the initiate answer,
// whose shape the interface does not show: {url} as the sandbox answers,
// a few common spellings, or a bare JSON string.
func initiateLink(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s)
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	for _, k := range []string{"url", "authorizationUrl", "authorization_url", "authorizeUrl", "redirectUrl", "signInUrl", "href"} {
		if v, ok := m[k]; ok && json.Unmarshal(v, &s) == nil && s != "" {
			return strings.TrimSpace(s)
		}
	}
	return ""
}

// ExchangeCode trades an authorization code for tokens (POST
// /v1/auth/oauth/token, grant authorization_code, with the PKCE verifier
// and the same redirect_uri as initiate; x-client-key and x-secret-key) and
// makes the result the client's session, of kind SessionOAuth. The code is
// sent as typed but trimmed, the gateway matches it case-insensitively.
// The username for the status bar is then read from GET /v1/user, best
// effort: the session stands even if that read fails.
func (c *Client) ExchangeCode(ctx context.Context, code, verifier, redirectURI string) (Session, error) {
	code = strings.TrimSpace(code)
	switch {
	case c.secretKey() == "":
		return Session{}, &Error{Op: "ExchangeCode",
			Message: "cannot finish an OAuth sign-in: no secret key is configured"}
	case code == "":
		return Session{}, &Error{Op: "ExchangeCode", Message: "the authorization code is empty"}
	case verifier == "":
		return Session{}, &Error{Op: "ExchangeCode", Message: "the PKCE code verifier is missing"}
	}
	out, err := c.tokenGrant(ctx, "ExchangeCode", struct {
		GrantType    string `json:"grant_type"`
		Code         string `json:"code"`
		CodeVerifier string `json:"code_verifier"`
		RedirectURI  string `json:"redirect_uri,omitempty"`
	}{"authorization_code", code, verifier, redirectURI}, code, verifier)
	if err != nil {
		return Session{}, err
	}
	s := Session{
		AccessToken:  out.AccessToken,
		RefreshToken: out.RefreshToken,
		ExpiresAt:    c.expiry(out.ExpiresIn),
		Kind:         SessionOAuth,
	}
	c.setSession(s)
	if u, uerr := c.User(ctx); uerr == nil {
		name := u.Email
		if name == "" {
			name = strings.TrimSpace(u.FirstName + " " + u.LastName)
		}
		c.mu.Lock()
		same := c.sess.AccessToken == s.AccessToken
		if same {
			c.sess.Username = name
			s = c.sess
		}
		cb := c.onChange
		c.mu.Unlock()
		if same && cb != nil {
			cb(s)
		}
	}
	return c.Session(), nil
}

// Revoke ends an OAuth authorization at the gateway (DELETE
// /v1/auth/oauth/revoke with the bearer token), which kills the access and
// refresh tokens together. When the access token has lapsed it refreshes
// once first, so that the 184-day refresh token does not outlive the
// sign-out. The local session is cleared whatever the gateway answers.
func (c *Client) Revoke(ctx context.Context) error {
	s := c.Session()
	if !s.Valid() {
		c.ClearSession()
		return nil
	}
	r := RevokeCall().r
	err := c.send(ctx, r, s.AccessToken)
	if IsUnauthorized(err) && s.RefreshToken != "" && c.secretKey() != "" {
		if ns, rerr := c.Refresh(ctx); rerr == nil {
			s = ns
			err = c.send(ctx, r, ns.AccessToken)
		}
	}
	c.clearIfToken(s.AccessToken)
	return err
}

// RevokeCall declares the request Revoke sends.
func RevokeCall() Call {
	return Call{request{op: "Revoke", method: http.MethodDelete, path: "/v1/auth/oauth/revoke", family: familyUser}}
}

// SignOut ends the session the way it was started: an OAuth session is
// revoked, a direct-login session logs out. Either way the local session
// is gone afterwards.
func (c *Client) SignOut(ctx context.Context) error {
	if c.Session().Kind == SessionOAuth {
		return c.Revoke(ctx)
	}
	return c.Logout(ctx)
}

// SignOutCall declares the request SignOut would send now (no IO): the
// revoke for an OAuth session, the logout otherwise.
func (c *Client) SignOutCall() Call {
	if c.Session().Kind == SessionOAuth {
		return RevokeCall()
	}
	return LogoutCall()
}

// oauthClientID is the OAuth client_id: the client id when one is set,
// else the client key (the interface's initiate takes the client's public
// identifier; orders, which name X-Client-ID apart, get no such fallback).
func (c *Client) oauthClientID() string {
	if c.cfg.ClientID != "" {
		return c.cfg.ClientID
	}
	return c.cfg.ClientKey
}
