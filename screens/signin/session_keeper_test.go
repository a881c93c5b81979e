package signin

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

// keeperRig is a session keeper whose timers are recorded instead of run.
type keeperRig struct {
	t     *testing.T
	app   *screentest.App
	k     *sessionKeeper
	waits []time.Duration
}

func newKeeperRig(t *testing.T, opts ...screentest.Option) *keeperRig {
	r := &keeperRig{t: t, app: screentest.New(t, screentest.Of(New), opts...)}
	r.k = newSessionKeeper(r.app.Client, r.app.Clock.Now)
	r.k.after = func(d time.Duration, msg tea.Msg) tea.Cmd {
		r.waits = append(r.waits, d)
		return nil
	}
	return r
}

// tick delivers the pending tick and runs what it asks (a refresh), until
// the keeper waits again or ends the session; it returns the end reason.
func (r *keeperRig) tick() (expired string, notices []ui.Notice) {
	r.t.Helper()
	cmd, expired, _ := r.k.update(sessionTickMsg{gen: r.k.gen})
	for cmd != nil && expired == "" {
		var next tea.Cmd
		for _, m := range uitest.Run(cmd) {
			switch m := m.(type) {
			case ui.NoticeMsg:
				notices = append(notices, m.Notice)
			case ui.SessionExpiredMsg:
				expired = m.Reason
			default:
				var c tea.Cmd
				c, expired, _ = r.k.update(m)
				next = c
			}
		}
		cmd = next
	}
	return expired, notices
}

func TestKeeperRefreshesBeforeExpiry(t *testing.T) {
	r := newKeeperRig(t)
	s, err := r.app.Client.Login(t.Context(), "alice@demo.test", "demo-pass")
	if err != nil {
		t.Fatal(err)
	}
	r.k.start()
	if len(r.waits) != 1 || r.waits[0] != sessionCheckEvery {
		t.Fatalf("first wait %v", r.waits)
	}
	r.app.Clock.Advance(5 * time.Hour)
	if exp, _ := r.tick(); exp != "" || r.app.Client.Session() != s {
		t.Fatal("refreshed too early")
	}
	r.app.Clock.Advance(56 * time.Minute) // 4 minutes left: inside RefreshLead
	if exp, _ := r.tick(); exp != "" {
		t.Fatal(exp)
	}
	ns := r.app.Client.Session()
	if ns.AccessToken == s.AccessToken || ns.Kind != apiclient.SessionPassword || !ns.ExpiresAt.Equal(r.app.Clock.Now().Add(6*time.Hour)) {
		t.Fatalf("not refreshed: %+v", ns)
	}
	if _, err := r.app.Client.User(t.Context()); err != nil {
		t.Fatalf("the refreshed token does not work: %v", err)
	}
}

func TestKeeperEndsWhenRefreshExpiredOrRevoked(t *testing.T) {
	r := newKeeperRig(t)
	if _, err := r.app.Client.Login(t.Context(), "alice@demo.test", "demo-pass"); err != nil {
		t.Fatal(err)
	}
	r.k.start()
	r.app.Clock.Advance(185 * 24 * time.Hour)
	exp, _ := r.tick()
	if !strings.Contains(exp, "could not be renewed") || !strings.Contains(exp, "Refresh token has expired") || r.app.Client.Session().Valid() {
		t.Fatalf("reason %q", exp)
	}

	if _, err := r.app.Client.Login(t.Context(), "alice@demo.test", "demo-pass"); err != nil {
		t.Fatal(err)
	}
	r.k.start()
	other := apiclient.New(r.app.Client.Config())
	other.SetSession(r.app.Client.Session())
	if err := other.Logout(t.Context()); err != nil { // kills the refresh token too
		t.Fatal(err)
	}
	r.app.Clock.Advance(6*time.Hour - time.Minute)
	exp, _ = r.tick()
	if !strings.Contains(exp, "invalid or revoked") || !strings.Contains(exp, "Sign in again") {
		t.Fatalf("reason %q", exp)
	}
}

func TestKeeperWithoutSecretKeyWarnsThenEnds(t *testing.T) {
	r := newKeeperRig(t, func(ts *screentest.Setup) { ts.Config.SecretKey = "" })
	if _, err := r.app.Client.Login(t.Context(), "alice@demo.test", "demo-pass"); err != nil {
		t.Fatal(err)
	}
	r.k.start()
	r.app.Clock.Advance(6*time.Hour - 3*time.Minute)
	// The warning shows on every screen: the sign-in screen that keeps the
	// session is not the one shown while signed in.
	exp, notices := r.tick()
	if exp != "" || len(notices) != 1 || !strings.Contains(notices[0].Text, "no secret key") || !notices[0].Everywhere {
		t.Fatalf("warning: %q %+v", exp, notices)
	}
	r.app.Clock.Advance(3 * time.Minute)
	exp, _ = r.tick()
	if !strings.Contains(exp, "expired and cannot be renewed") || !strings.Contains(exp, "CARDTERM_SECRET_KEY") || r.app.Client.Session().Valid() {
		t.Fatalf("reason %q", exp)
	}
	// a stale tick of an earlier session does nothing
	if cmd, exp, ok := r.k.update(sessionTickMsg{gen: r.k.gen - 1}); !ok || cmd != nil || exp != "" {
		t.Fatal("stale tick acted")
	}
}

// After the keeper ends a session, signing in again returns to the screen
// the user was on (the root keeps it across SessionExpiredMsg).
func TestExpiryReturnsToTheSameScreen(t *testing.T) {
	app := newApp(t, screentest.WithDemo()) // the form is filled: enter signs in
	signIn := app.Root.(*ui.Root).Active().(*Screen)
	app.Keys("enter")
	app.Open(screenkit.CardScreen)
	if app.Root.(*ui.Root).Active().ID() != screenkit.CardScreen {
		t.Fatal("not on the card screen")
	}
	si := app.Root.(*ui.Root)
	// The refresh token is revoked elsewhere; the keeper's next look ends it.
	other := apiclient.New(app.Client.Config())
	other.SetSession(app.Client.Session())
	if err := other.Logout(t.Context()); err != nil {
		t.Fatal(err)
	}
	app.Clock.Advance(6*time.Hour - time.Minute)
	app.Drive(sessionTickMsg{gen: signIn.keeper.gen})
	app.MustShow(t, "Sign in to the Card and Wallet Gateway", "could not be renewed")
	if si.SignedIn() {
		t.Fatal("still signed in")
	}
	app.Keys("enter")
	if id := app.Root.(*ui.Root).Active().ID(); id != screenkit.CardScreen {
		t.Fatalf("returned to screen %q, want the card screen", id)
	}
}

// A gateway granting a 60-second token makes every look "due": the keeper
// still refreshes at most once every 30 seconds (the old one sent hundreds
// of refreshes in seconds).
func TestKeeperRefreshFloorWithShortLifetimes(t *testing.T) {
	r := newKeeperRig(t)
	r.app.SignIn("alice@demo.test")
	short := func() {
		s := r.app.Client.Session()
		s.ExpiresAt = r.app.Clock.Now().Add(60 * time.Second)
		r.app.Client.SetSession(s)
	}
	refreshes := func() int {
		n := 0
		for _, q := range r.app.Server.Requests() {
			if q.Path == "/v1/auth/oauth/token" {
				n++
			}
		}
		return n
	}
	r.k.start()
	for range 20 { // twenty looks within the same minute
		short()
		r.tick()
		r.app.Clock.Advance(time.Second)
	}
	if n := refreshes(); n > 1 {
		t.Fatalf("%d refreshes in 20 seconds of 60-second tokens", n)
	}
	if len(r.waits) == 0 || r.waits[len(r.waits)-1] <= 0 {
		t.Fatalf("the keeper did not wait out the floor: %v", r.waits)
	}
}

// Failed refreshes back off (30 s, then doubling, with jitter) and end the
// session after a run of failures.
func TestKeeperBacksOff(t *testing.T) {
	if d := backoff(1); d < refreshRetry || d > refreshRetry*6/5 {
		t.Fatalf("first wait %v", d)
	}
	if d := backoff(3); d < 4*refreshRetry {
		t.Fatalf("third wait %v", d)
	}
	if d := backoff(30); d > refreshRetryMax*6/5 {
		t.Fatalf("wait not capped: %v", d)
	}
}
