package signin

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/theme"
	"cardterm/ui"
)

// Timing of the session keeper.
const (
	// RefreshLead is how long before the access token expires the keeper
	// renews it, so that no request races the expiry.
	RefreshLead = 5 * time.Minute
	// sessionCheckEvery bounds the wait between two looks at the session:
	// timers stop while a laptop sleeps, the wall clock does not.
	sessionCheckEvery = time.Minute
	// refreshRetry is the first wait after a refresh that did not reach the
	// gateway; each further failure doubles it, up to refreshRetryMax.
	refreshRetry    = 30 * time.Second
	refreshRetryMax = 5 * time.Minute
	// refreshFloor is the least time between two refreshes, whatever
	// lifetime the gateway grants: a 60-second token must not make the
	// keeper refresh in a loop.
	refreshFloor = 30 * time.Second
	// maxRefreshFailures ends the session after that many refreshes in a
	// row did not reach the gateway.
	maxRefreshFailures = 6
	// refreshTimeout bounds one background refresh.
	refreshTimeout = 30 * time.Second
)

// sessionTickMsg asks the keeper to look at the session; gen drops ticks
// of an earlier session.
type sessionTickMsg struct{ gen int }

// sessionRefreshedMsg is the answer of a background refresh.
type sessionRefreshedMsg struct {
	gen int
	old apiclient.Session
	err error
}

// sessionKeeper keeps a signed-in session alive: a few minutes before the
// access token expires it refreshes it (refresh_token grant, which needs the
// secret key), and when that is impossible it ends the session with a clear
// reason instead of letting the next request fail with a bare 401. The
// sign-in screen owns it because it receives every broadcast message, signed
// in or not.
type sessionKeeper struct {
	client *apiclient.Client
	now    func() time.Time
	after  func(d time.Duration, msg tea.Msg) tea.Cmd // tea.Tick; tests replace it

	gen     int
	running bool
	warned  bool
	// lastRefresh is when the last refresh was sent; failures counts the
	// refreshes in a row that did not reach the gateway.
	lastRefresh time.Time
	failures    int
}

func newSessionKeeper(client *apiclient.Client, now func() time.Time) *sessionKeeper {
	return &sessionKeeper{client: client, now: now, after: func(d time.Duration, msg tea.Msg) tea.Cmd {
		return tea.Tick(d, func(time.Time) tea.Msg { return msg })
	}}
}

// start watches the session that was just signed in, dropping any earlier
// watch.
func (k *sessionKeeper) start() tea.Cmd {
	k.gen++
	k.running, k.warned = true, false
	return k.check()
}

// stop forgets the session (signed out); pending ticks are ignored.
func (k *sessionKeeper) stop() {
	k.gen++
	k.running = false
}

func (k *sessionKeeper) schedule(d time.Duration) tea.Cmd {
	d = min(max(d, time.Second), sessionCheckEvery)
	return k.after(d, sessionTickMsg{gen: k.gen})
}

// update handles the keeper's own messages; ok is false for any other.
// expired, when not empty, is the reason the session just ended.
func (k *sessionKeeper) update(msg tea.Msg) (cmd tea.Cmd, expired string, ok bool) {
	switch msg := msg.(type) {
	case sessionTickMsg:
		if msg.gen != k.gen || !k.running {
			return nil, "", true
		}
		cmd, expired = k.checkNow()
		return cmd, expired, true
	case sessionRefreshedMsg:
		if msg.gen != k.gen || !k.running {
			return nil, "", true
		}
		if msg.err == nil {
			k.failures = 0
			return k.check(), "", true
		}
		var e *apiclient.Error
		if errors.As(msg.err, &e) && e.Status != 0 {
			// The gateway refused: the refresh token expired (184 days) or
			// was revoked. The session cannot come back.
			return nil, k.end(msg.old, "Your session could not be renewed: "+apiclient.ErrorMessage(msg.err)+"."), true
		}
		cur := k.client.Session()
		if !cur.Valid() {
			k.running = false
			return nil, "", true
		}
		if cur.AccessToken != msg.old.AccessToken {
			return k.check(), "", true // renewed meanwhile (a 401 elsewhere)
		}
		// The gateway was not reached: try again later, backing off;
		// requests meanwhile still get their own refresh-and-retry on a 401.
		k.failures++
		if k.failures >= maxRefreshFailures {
			return nil, k.end(msg.old, "Your session could not be renewed: the gateway was not reached "+fmt.Sprint(k.failures)+" times in a row."), true
		}
		return k.after(backoff(k.failures), sessionTickMsg{gen: k.gen}), "", true
	}
	return nil, "", false
}

// check is checkNow as a command result, for places that cannot end the
// session themselves.
func (k *sessionKeeper) check() tea.Cmd {
	cmd, expired := k.checkNow()
	if expired != "" {
		return func() tea.Msg { return ui.SessionExpiredMsg{Reason: expired} }
	}
	return cmd
}

// checkNow decides what the session needs now: nothing yet, a refresh, a
// warning, or its end.
func (k *sessionKeeper) checkNow() (tea.Cmd, string) {
	s := k.client.Session()
	if !s.Valid() {
		k.running = false
		return nil, ""
	}
	if s.ExpiresAt.IsZero() {
		return nil, "" // the gateway gave no lifetime: nothing to plan
	}
	left := s.ExpiresAt.Sub(k.now())
	if left > RefreshLead {
		return k.schedule(left - RefreshLead), ""
	}
	if why := k.cannotRefresh(s); why != "" {
		if left <= 0 {
			return nil, k.end(s, "Your session expired and cannot be renewed: "+why+".")
		}
		var warn tea.Cmd
		if !k.warned {
			k.warned = true
			// The sign-in screen keeps the session but is not the one shown.
			warn = ui.NotifyEverywhere(theme.ToneWarn, "session ends in "+ui.FormatRemaining(left)+": "+why)
		}
		return tea.Batch(warn, k.schedule(left)), ""
	}
	if wait := k.lastRefresh.Add(refreshFloor).Sub(k.now()); wait > 0 && left > 0 {
		// A short lifetime is always "due": wait out the floor instead of
		// refreshing in a loop.
		return k.after(wait, sessionTickMsg{gen: k.gen}), ""
	}
	k.lastRefresh = k.now()
	client, gen := k.client, k.gen
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), refreshTimeout)
		defer cancel()
		_, err := client.Refresh(ctx)
		return sessionRefreshedMsg{gen: gen, old: s, err: err}
	}, ""
}

// backoff is the wait after n failed refreshes in a row: 30 s doubling up
// to 5 minutes, with up to a fifth more at random so that many clients do
// not retry in step.
func backoff(n int) time.Duration {
	d := refreshRetry
	for i := 1; i < n && d < refreshRetryMax; i++ {
		d *= 2
	}
	d = min(d, refreshRetryMax)
	return d + time.Duration(rand.Int64N(int64(d/5)+1))
}

// cannotRefresh says why s cannot be renewed, or "" when it can.
func (k *sessionKeeper) cannotRefresh(s apiclient.Session) string {
	switch {
	case k.client.Config().SecretKey == "":
		return "no secret key is configured (set " + secretKeyEnv + ")"
	case s.RefreshToken == "":
		return "the gateway gave no refresh token"
	}
	return ""
}

// end clears the session s (unless a newer one replaced it) and returns the
// reason to show; the caller sends SessionExpiredMsg so that the user signs
// in again and returns to the screen they were on.
func (k *sessionKeeper) end(s apiclient.Session, why string) string {
	k.running = false
	if cur := k.client.Session(); cur.Valid() && cur.AccessToken != s.AccessToken && cur.RefreshToken != s.RefreshToken {
		return "" // someone signed in again meanwhile
	}
	k.client.ClearSession()
	return why + " Sign in again to continue where you were."
}

// secretKeyEnv is the variable main reads the secret key from.
const secretKeyEnv = "CARDTERM_SECRET_KEY"
