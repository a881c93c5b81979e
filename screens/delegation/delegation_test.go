package delegation

import (
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/help"

	"cardterm/screens/account"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

func TestMain(m *testing.M) { screentest.Main(m) }

const (
	testAddress = "0x52908400098527886E0F7030069857D2E4169EE7"
	testTx      = "0x1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f"
)

// newApp signs user in with the Account and Delegation screens mounted and
// opens Delegation; it returns the screen too, so tests can check what
// never reaches the view.
func newApp(t *testing.T, user string, opts ...screentest.Option) (*screentest.App, *Screen) {
	t.Helper()
	var screen *Screen
	build := func(d screenkit.Deps) ui.Screen { screen = New(d); return screen }
	opts = append([]screentest.Option{screentest.WithScreen(screentest.Of(account.New), build)}, opts...)
	app := screentest.NewSignedIn(t, screentest.Of(signin.New), user, opts...)
	app.Open(screenkit.DelegationScreen)
	return app, screen
}

// requestToken opens the token form, types the network and the address
// (empty: no gas) and presses enter on the last field.
func requestToken(app *screentest.App, network, address string) {
	app.T.Helper()
	app.Keys("t", "tab", "ctrl+u") // the form opens with no field chosen: tab chooses the network
	app.Type(network)
	app.Keys("tab", "ctrl+u")
	app.Type(address)
	app.Keys("enter")
}

func TestDelegationTokenWithFaucetConfirmed(t *testing.T) {
	app, s := newApp(t, "alice@demo.test")
	app.MustShow(t, "Delegation lets a non-custodial wallet pay with the card", "USDC on linea · allowance 150.00")
	requestToken(app, "linea", testAddress)
	app.MustShow(t, "Request a delegation token with gas?", "/v1/delegation/token?address="+testAddress+"&", "faucet=true&network=linea", "once per user")
	app.Keys("y")
	screen := app.Screen()
	token := s.issued.token
	screentest.MustShow(t, screen, "Delegation token", token.Token[:6]+"…", token.Nonce, "valid for 10:00", "200 OK", "CONFIRMED", "linea", token.Faucet.TransactionHash[:20])
	screentest.MustNotShow(t, screen, token.Token, "did not pay")
	if label, v, ok := s.CopyValue(); !ok || v != token.Token || label != "delegation token" {
		t.Fatalf("y copies %q %q", label, v)
	}
	app.Keys("j", "j")
	if label, v, _ := s.CopyValue(); v != token.Faucet.TransactionHash || label != "faucet transaction hash" {
		t.Fatalf("y copies %q %q", label, v)
	}
	app.Keys("y")
	if n := app.Notice(); n != "copied faucet transaction hash" {
		t.Fatalf("notice %q", n)
	}
	app.Clock.Advance(61 * time.Second)
	app.MustShow(t, "valid for 8:59")
	app.Clock.Advance(10 * time.Minute)
	app.MustShow(t, "expired: t requests a new one")
}

// The faucet request is a change on the gateway: its confirmation shows
// the request, and nothing is sent before it is confirmed.
func TestDelegationFaucetConfirmationShowsTheRequestBeforeSending(t *testing.T) {
	app, s := newApp(t, "alice@demo.test")
	requestToken(app, "linea", testAddress)
	spec, open := app.UI().Dialog()
	if !open || !strings.HasPrefix(spec.Request[0], "GET /v1/delegation/token?") {
		t.Fatalf("the confirmation's request is %q (open %v)", spec.Request, open)
	}
	if n := app.Sent("GET", "/v1/delegation/token"); n != 0 {
		t.Fatalf("%d token requests were sent before the confirmation", n)
	}
	app.Keys("n")
	if n := app.Sent("GET", "/v1/delegation/token"); n != 0 || s.issued != nil {
		t.Fatalf("a cancelled confirmation sent %d token requests", n)
	}
	app.MustShow(t, "Request a delegation token", testAddress)
	app.Keys("ctrl+s", "y")
	if n := app.Sent("GET", "/v1/delegation/token"); n != 1 || s.issued == nil {
		t.Fatalf("a confirmed request sent %d token requests", n)
	}
}

// The token form submits with ctrl+s from any field, as with enter on the
// last one; enter on the first field moves on.
func TestDelegationTokenFormSubmitKeys(t *testing.T) {
	app, s := newApp(t, "nora@demo.test")
	app.Keys("t", "tab", "enter") // tab chooses the network; enter there moves on
	if _, ok := topForm(app); !ok || s.issued != nil {
		t.Fatal("enter on the network field must move to the address, not send")
	}
	app.Keys("shift+tab", "ctrl+s") // from the first field; no address: a token only
	if _, open := app.UI().TopLayer(); s.issued == nil || open {
		t.Fatalf("ctrl+s did not send the form:\n%s", app.Screen())
	}
	first := s.issued.token.Token
	app.Keys("t", "enter") // no field chosen: enter sends what is shown
	if s.issued.token.Token == first {
		t.Fatal("enter on the form as it opened did not send it")
	}
	if n := app.Sent("GET", "/v1/delegation/token"); n != 2 {
		t.Fatalf("%d token requests", n)
	}
}

// The faucet's other answers: faye has had her gas (207, the token issued
// and usable), frank's address ending in 0 is not confirmed in time.
func TestDelegationFaucetAnswers(t *testing.T) {
	cases := []struct {
		user, network, address string
		shows                  []string
		never                  []string
	}{
		{"faye@demo.test", "base", testAddress,
			[]string{"207 Multi-Status", "DECLINED", "already received", "Token issued; the faucet did not pay", "The token is usable all the"}, nil},
		{"frank@demo.test", "linea", "0x8617E340B3D01FA5F11F306F4090FD50E2380700",
			[]string{"200 OK", "PENDING", "not confirmed after 10 seconds"}, []string{"did not pay"}},
	}
	for _, tc := range cases {
		t.Run(strings.TrimSuffix(tc.user, "@demo.test"), func(t *testing.T) {
			app, _ := newApp(t, tc.user)
			requestToken(app, tc.network, tc.address)
			app.Keys("y")
			app.MustShow(t, tc.shows...)
			app.MustNotShow(t, tc.never...)
		})
	}
}

func TestDelegationAddressCheckedBeforeSending(t *testing.T) {
	app, s := newApp(t, "alice@demo.test")
	requestToken(app, "linea", "0x123")
	app.MustShow(t, "✗ invalid address format: linea needs 0x followed by 40 hex digits")
	if app.UI().DialogOpen() || s.issued != nil {
		t.Fatal("an invalid address was sent")
	}
	// solana wants base58: the EVM address is refused there.
	app.Keys("esc")
	requestToken(app, "solana", testAddress)
	app.MustShow(t, "solana needs a base58 public key", "0x5290")
	// A network the faucet does not pay on.
	app.Keys("shift+tab", "ctrl+u")
	app.Type("ethereum")
	app.Keys("ctrl+s")
	app.MustShow(t, "✗ the faucet pays on linea, solana, base")
	// No address: no gas, no confirmation.
	app.Keys("tab", "ctrl+u", "enter")
	app.MustShow(t, "Delegation token", "200 OK")
	app.MustNotShow(t, "Gas faucet")
	if n := app.Sent("GET", "/v1/delegation/token"); n != 1 {
		t.Fatalf("%d token requests", n)
	}
}

// Esc on the token form while the request is in flight cancels it, as the
// form says; the form stays with what was typed.
func TestDelegationTokenEscCancelsInFlight(t *testing.T) {
	app, s := newApp(t, "alice@demo.test")
	app.Keys("t")
	// No field chosen, no address: enter sends at once. Hold the request's command.
	root, send := app.Root.Update(uitest.Key("enter"))
	app.Root = root
	if send == nil || app.Deps.Requests.InFlightFor(screenkit.DelegationScreen) == 0 {
		t.Fatal("the token request did not start")
	}
	app.EscCancels(screenkit.DelegationScreen, send)
	if _, ok := topForm(app); !ok {
		t.Fatal("the form did not stay after the cancel")
	}
	app.MustShow(t, "Cancelled", "linea")
	if s.issued != nil {
		t.Fatal("a cancelled request issued a token on screen")
	}
}

func TestDelegationReadOnly(t *testing.T) {
	app, s := newApp(t, "alice@demo.test", screentest.ReadOnly())
	app.Keys("t")
	if _, open := app.UI().TopLayer(); !strings.Contains(app.Notice(), "read-only mode: request token is disabled") || open {
		t.Fatalf("t in read-only mode: notice %q", app.Notice())
	}
	app.Keys("a")
	if _, open := app.UI().TopLayer(); open {
		t.Fatal("a opened the post-approval form in read-only mode")
	}
	for _, b := range s.KeyMap().ShortHelp() {
		if (b.Help().Key == "t" || b.Help().Key == "a") && b.Enabled() {
			t.Fatalf("%s is enabled in read-only mode", b.Help().Key)
		}
	}
	app.Keys("c")
	app.MustShow(t, "4 networks")
}

func TestDelegationUnverified(t *testing.T) {
	app, _ := newApp(t, "umar@demo.test")
	app.MustShow(t, "verification required")
	app.Keys("t", "enter")
	if n := app.Notice(); !strings.Contains(n, "Not authorized") {
		t.Fatalf("notice %q", n)
	}
}

func TestDelegationIntroGolden(t *testing.T) {
	app, _ := newApp(t, "alice@demo.test")
	app.Golden("intro")
}

func TestDelegationSignOutForgetsToken(t *testing.T) {
	app, s := newApp(t, "alice@demo.test")
	app.Keys("t", "enter")
	if s.issued == nil {
		t.Fatal("no token")
	}
	app.Drive(ui.SignedOutMsg{})
	app.SignIn("alice@demo.test")
	app.Open(screenkit.DelegationScreen)
	if next := app.UI().Active().(*Screen); next == s || next.issued != nil {
		t.Fatal("the token survived the sign-out")
	}
}

// The help lists exactly the keys that work: ↑/↓ choose what y copies,
// so they show only once a token is on screen; an open form's keys are
// the screen's.
func TestDelegationHelpFollowsWhatIsShown(t *testing.T) {
	app, s := newApp(t, "alice@demo.test")
	keys := func() string {
		var out []string
		var shown help.KeyMap = s.KeyMap()
		if top, open := app.UI().TopLayer(); open {
			shown = top.KeyMap()
		}
		for _, b := range shown.ShortHelp() {
			if b.Enabled() {
				out = append(out, b.Help().Key)
			}
		}
		return strings.Join(out, " ")
	}
	if got := keys(); got != "t c a" {
		t.Fatalf("before a token the help offers %q", got)
	}
	app.Keys("t")
	if got := keys(); !strings.Contains(got, "ctrl+s") || strings.Contains(got, "t c a") {
		t.Fatalf("the token form's help is %q", got)
	}
	app.Keys("enter") // no field chosen: enter sends the form as it came
	if got := keys(); got != "t c a ↑/↓" {
		t.Fatalf("with a token the help offers %q", got)
	}
}

// topForm is the screen's form layer on top, if one is.
func topForm(app *screentest.App) (*formLayer, bool) {
	top, _ := app.UI().TopLayer()
	form, ok := top.(*formLayer)
	return form, ok
}
