package apiclient

import (
	"context"
	"net/http"
	"strings"
	"time"
)

// loginResponse is the answer of POST /v1/auth/login.
type loginResponse struct {
	AccessToken  string      `json:"accessToken"`
	RefreshToken string      `json:"refreshToken"`
	ExpiresIn    flexSeconds `json:"expiresIn"`
}

// tokenResponse is the answer of POST /v1/auth/oauth/token.
type tokenResponse struct {
	AccessToken  string      `json:"access_token"`
	RefreshToken string      `json:"refresh_token"`
	TokenType    string      `json:"token_type"`
	ExpiresIn    flexSeconds `json:"expires_in"`
}

// expiry turns expiresIn into a deadline; zero when the gateway gave none.
func (c *Client) expiry(secs flexSeconds) time.Time {
	if secs <= 0 {
		return time.Time{}
	}
	// Saturate: a lifetime past what a Duration holds (about 292 years)
	// must not wrap into the past and make every look "expired".
	const maxLifetime = 100 * 365 * 24 * time.Hour
	if float64(secs) > maxLifetime.Seconds() {
		return c.now().Add(maxLifetime)
	}
	return c.now().Add(time.Duration(secs) * time.Second)
}

// Login signs in with a username and password (direct login) and makes the
// result the client's session.
func (c *Client) Login(ctx context.Context, username, password string) (Session, error) {
	out, err := answer[loginResponse](ctx, c, request{
		op:     "Login",
		method: http.MethodPost,
		path:   "/v1/auth/login",
		body: struct {
			Username string `json:"username"`
			Password string `json:"password"`
		}{username, password},
		family:    familyClient,
		noRefresh: true,
		// A gateway that echoes the login body must not get the password
		// drawn or printed.
		secrets: []string{password},
	})
	if err != nil {
		return Session{}, err
	}
	if out.AccessToken == "" {
		return Session{}, &Error{Op: "Login", Status: http.StatusOK,
			Message: "gateway answered without an access token"}
	}
	if err := checkToken("Login", out.AccessToken, out.RefreshToken); err != nil {
		return Session{}, err
	}
	s := Session{
		AccessToken:  out.AccessToken,
		RefreshToken: out.RefreshToken,
		ExpiresAt:    c.expiry(out.ExpiresIn),
		Kind:         SessionPassword,
		Username:     username,
	}
	c.setSession(s)
	return s, nil
}

// Logout invalidates the access token at the gateway. The local session is
// cleared whatever the gateway answers, so a failed call never leaves the
// user signed in on screen.
func (c *Client) Logout(ctx context.Context) error {
	s := c.Session()
	if !s.Valid() {
		c.ClearSession()
		return nil
	}
	err := c.send(ctx, LogoutCall().r, s.AccessToken)
	c.clearIfToken(s.AccessToken)
	return err
}

// LogoutCall declares the request Logout sends.
func LogoutCall() Call {
	return Call{request{op: "Logout", method: http.MethodPost, path: "/v1/auth/logout", family: familyUser}}
}

// Refresh trades the refresh token for a new access token (OAuth
// refresh_token grant), keeping the session's kind and username. It needs
// the secret key and a refresh token; without them it returns an *Error
// and leaves the session alone.
func (c *Client) Refresh(ctx context.Context) (Session, error) {
	c.refreshMu.Lock()
	defer c.refreshMu.Unlock()
	return c.refreshLocked(ctx)
}

// refreshLocked is Refresh for callers holding refreshMu.
func (c *Client) refreshLocked(ctx context.Context) (Session, error) {
	s := c.Session()
	switch {
	case c.secretKey() == "":
		return Session{}, &Error{Op: "Refresh",
			Message: "cannot refresh the session: no secret key is configured"}
	case s.RefreshToken == "":
		return Session{}, &Error{Op: "Refresh",
			Message: "cannot refresh the session: no refresh token (sign in again)"}
	}
	out, err := c.tokenGrant(ctx, "Refresh", struct {
		GrantType    string `json:"grant_type"`
		RefreshToken string `json:"refresh_token"`
	}{"refresh_token", s.RefreshToken}, s.RefreshToken)
	if err != nil {
		return Session{}, err
	}
	ns := Session{
		AccessToken:  out.AccessToken,
		RefreshToken: out.RefreshToken,
		ExpiresAt:    c.expiry(out.ExpiresIn),
		Kind:         s.Kind,
		Username:     s.Username,
	}
	if ns.RefreshToken == "" {
		ns.RefreshToken = s.RefreshToken
	}
	// Only replace the session we refreshed: a Logout or a new Login that
	// happened meanwhile wins.
	c.mu.Lock()
	if c.sess.RefreshToken != s.RefreshToken || c.sess.AccessToken != s.AccessToken {
		c.mu.Unlock()
		return Session{}, &Error{Op: "Refresh", Message: "the session changed while refreshing"}
	}
	c.sess = ns
	cb := c.onChange
	c.mu.Unlock()
	if cb != nil {
		cb(ns)
	}
	return ns, nil
}

// tokenGrant posts a grant to the OAuth token endpoint (with the client and
// secret keys) and checks that a Bearer access token came back: the code
// exchange and the refresh both end here.
// secrets are the grant's own (the code and the verifier, the refresh
// token), redacted from any error the gateway echoes them in.
func (c *Client) tokenGrant(ctx context.Context, op string, grant any, secrets ...string) (tokenResponse, error) {
	out, err := answer[tokenResponse](ctx, c, request{
		op:        op,
		method:    http.MethodPost,
		path:      "/v1/auth/oauth/token",
		body:      grant,
		family:    familySecret,
		noRefresh: true,
		secrets:   secrets,
	})
	if err != nil {
		return tokenResponse{}, err
	}
	if out.AccessToken == "" {
		return tokenResponse{}, &Error{Op: op, Status: http.StatusOK,
			Message: "gateway answered without an access token"}
	}
	if tt := out.TokenType; tt != "" && !strings.EqualFold(tt, "bearer") {
		return tokenResponse{}, &Error{Op: op, Status: http.StatusOK,
			Message: "gateway issued a " + tt + " token; cardterm only uses Bearer tokens"}
	}
	if err := checkToken(op, out.AccessToken, out.RefreshToken); err != nil {
		return tokenResponse{}, err
	}
	return out, nil
}
