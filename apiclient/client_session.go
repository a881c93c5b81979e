package apiclient

import (
	"context"
	"errors"
	"time"
)

// The session the client holds (tokens in memory only), who is told when it
// changes, and its renewal after a 401.

// Session returns a copy of the current session; the zero Session when
// signed out.
func (c *Client) Session() Session {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sess
}

// SetSession installs a session obtained elsewhere (the OAuth code exchange,
// a test) and notifies OnSessionChange.
func (c *Client) SetSession(s Session) { c.setSession(s) }

// ClearSession signs out locally, without telling the gateway; it notifies
// OnSessionChange when there was a session.
func (c *Client) ClearSession() {
	c.mu.Lock()
	had := c.sess != (Session{})
	c.sess = Session{}
	cb := c.onChange
	c.mu.Unlock()
	if had && cb != nil {
		cb(Session{})
	}
}

// OnSessionChange registers fn, called from the request goroutine whenever
// the session changes (Login, Refresh, Logout, a 401 that ends it, or
// SetSession/ClearSession), so the status bar and sign-in screen can follow.
// nil removes it. fn must not block.
func (c *Client) OnSessionChange(fn func(Session)) {
	c.mu.Lock()
	c.onChange = fn
	c.mu.Unlock()
}

func (c *Client) setSession(s Session) {
	c.mu.Lock()
	c.sess = s
	cb := c.onChange
	c.mu.Unlock()
	if cb != nil {
		cb(s)
	}
}

// clearIfToken ends the session only if it still holds token, so a late
// 401 for an old token never signs out a newer session.
func (c *Client) clearIfToken(token string) {
	c.mu.Lock()
	if token == "" || c.sess.AccessToken != token {
		c.mu.Unlock()
		return
	}
	c.sess = Session{}
	cb := c.onChange
	c.mu.Unlock()
	if cb != nil {
		cb(Session{})
	}
}

func (c *Client) now() time.Time { return c.cfg.Now() }

// refreshAfter401 handles a 401 answered to token: it returns a token to
// retry with, refreshing at most once for all concurrent callers, or ""
// and why the session could not be renewed (after ending the session when
// the gateway refused the refresh or none is possible).
func (c *Client) refreshAfter401(ctx context.Context, token string) (string, error) {
	if token == "" {
		return "", nil
	}
	c.refreshMu.Lock()
	defer c.refreshMu.Unlock()
	s := c.Session()
	if !s.Valid() {
		return "", nil
	}
	if s.AccessToken != token {
		// Someone refreshed (or signed in again) while we waited.
		return s.AccessToken, nil
	}
	if s.RefreshToken == "" || c.secretKey() == "" {
		c.clearIfToken(token)
		if c.secretKey() == "" {
			return "", errors.New("no secret key is configured")
		}
		return "", errors.New("there is no refresh token")
	}
	ns, err := c.refreshLocked(ctx)
	if err != nil {
		var e *Error
		if errors.As(err, &e) && e.Status != 0 {
			// The gateway said no: the session is over.
			c.clearIfToken(token)
		}
		return "", err
	}
	return ns.AccessToken, nil
}

// notRenewed adds to a 401 why the session could not be renewed, so the
// user reads "refresh token expired" rather than a bare "Not authenticated".
func notRenewed(err, why error) error {
	var e *Error
	if why == nil || !errors.As(err, &e) {
		return err
	}
	reason := why.Error()
	var we *Error
	if errors.As(why, &we) && we.Message != "" {
		reason = we.Message
	}
	out := *e
	out.Message = e.Message + "; the session could not be renewed: " + reason
	return &out
}
