package sandbox

import (
	"fmt"
	"strings"
	"time"
)

// Sign-ins survive a restart on a data directory: each access and refresh
// token is a record under its tokenKey (the SHA-256 of the token, never
// the token), so a partner's app keeps its session across restarts. An
// export leaves them out: a fixture in a repository holds no sign-in.

// Kinds of session records.
const (
	sessionAccess  = "access"
	sessionRefresh = "refresh"
)

// fixtureSession is one access or refresh token.
type fixtureSession struct {
	Kind    string    `json:"kind"`    // access or refresh
	Key     string    `json:"key"`     // tokenKey of the token
	Backend string    `json:"backend"` // tenant/environment/region
	UserID  string    `json:"userId"`
	Expires time.Time `json:"expiresAt"`
	Pair    string    `json:"pair"` // tokenKey of the other token of its pair
}

func sessionKey(kind, key string) string { return "session/" + kind + "/" + key }

// keepSessionLocked records the token of kind kept under key, or its end
// when it is gone. Call with s.mu held.
func (s *Server) keepSessionLocked(kind, key string) {
	if s.persist.store == nil {
		return
	}
	var rec *fixtureSession
	switch kind {
	case sessionAccess:
		if at := s.access[key]; at != nil {
			rec = &fixtureSession{Kind: kind, Key: key, Backend: at.be.key.String(), UserID: at.userID, Expires: at.expires, Pair: at.refresh}
		}
	case sessionRefresh:
		if rt := s.refresh[key]; rt != nil {
			rec = &fixtureSession{Kind: kind, Key: key, Backend: rt.be.key.String(), UserID: rt.userID, Expires: rt.expires, Pair: rt.access}
		}
	}
	if rec == nil {
		s.keepLocked(sessionKey(kind, key), nil)
		return
	}
	s.keepLocked(sessionKey(kind, key), rec)
}

// applySession checks in and puts the token back.
func (s *Server) applySession(path string, in fixtureSession) error {
	if in.Kind == sessionClock {
		return s.applyShift(path, in)
	}
	parts := strings.Split(in.Backend, "/")
	var be *backend
	if len(parts) == 3 {
		be = s.backends[backendKey{parts[0], parts[1], parts[2]}]
	}
	switch {
	case be == nil:
		return fixtureProblem(path+".backend", "no backend %q in the sandbox", in.Backend)
	case be.users[in.UserID] == nil:
		return fixtureProblem(path+".userId", "%q is not a user of %s", in.UserID, in.Backend)
	case len(in.Key) != 64:
		return fixtureProblem(path+".key", "must be the SHA-256 of the token in hex")
	}
	switch in.Kind {
	case sessionAccess:
		s.access[in.Key] = &accessToken{be: be, userID: in.UserID, expires: in.Expires, refresh: in.Pair}
	case sessionRefresh:
		s.refresh[in.Key] = &refreshToken{be: be, userID: in.UserID, expires: in.Expires, access: in.Pair}
	default:
		return fixtureProblem(path+".kind", "must be %s or %s, not %q", sessionAccess, sessionRefresh, in.Kind)
	}
	return nil
}

// applySessions puts every session of f back (after its users).
func (s *Server) applySessions(f *fixture) error {
	for i, in := range f.Sessions {
		if err := s.applySession(fmt.Sprintf("sessions[%d]", i), in); err != nil {
			return err
		}
	}
	return nil
}
