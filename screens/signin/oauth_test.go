package signin

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	qrcode "github.com/skip2/go-qrcode"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

func TestOAuthLoopbackSignIn(t *testing.T) {
	h := newOAuthHarness(t)
	f := h.start()
	if !strings.HasPrefix(f.Loopback.RedirectURI(), "http://127.0.0.1:") || !strings.HasSuffix(f.Loopback.RedirectURI(), "/callback") {
		t.Fatalf("redirect %s", f.Loopback.RedirectURI())
	}
	v := h.view(80, 22)
	screentest.MustShow(t, v, "Sign in with browser / phone", "Code shown on the phone", "esc cancels", "▀")
	page := browse(t, f.Link, false)
	if !strings.Contains(page, "You can close this tab") {
		t.Fatalf("callback page:\n%s", page)
	}
	h.callback()
	s := h.app.Client.Session()
	if s.Kind != apiclient.SessionOAuth || s.Username != "alice@demo.test" || h.s.mode != modeForm || h.s.flow != nil {
		t.Fatalf("session %+v mode %d", s, h.s.mode)
	}
	listenerClosed(t, f.Loopback)
	if !h.s.keeper.running {
		t.Fatal("the session keeper does not watch the new session")
	}
}

func TestOAuthQRCodeIsTheLinkAndFits80x24(t *testing.T) {
	h := newOAuthHarness(t)
	f := h.start()
	q, err := qrcode.New(f.Link, qrcode.Low)
	if err != nil {
		t.Fatal(err)
	}
	q.DisableBorder = true
	want := q.Bitmap()
	got := uitest.DecodeHalfBlocks(screenkit.RenderQR(want, false))
	if !uitest.SameBits(got, want) {
		t.Fatal("screenkit.RenderQR does not decode back to the symbol")
	}
	if inv := uitest.DecodeHalfBlocks(screenkit.RenderQR(want, true)); uitest.SameBits(inv, want) {
		t.Fatal("the inverted rendering should differ")
	}
	// 80x24 terminal: the body is 80x22. The whole code is on screen.
	v := h.view(80, 22)
	lines := strings.Split(v, "\n")
	if len(lines) != 22 {
		t.Fatalf("view has %d lines", len(lines))
	}
	var qrLines []string
	for _, l := range lines {
		if strings.ContainsAny(l, "█▀▄") {
			r := []rune(l)
			qrLines = append(qrLines, string(r[1:1+len(want)+2*screenkit.QRQuietZone]))
		}
	}
	if !uitest.SameBits(uitest.DecodeHalfBlocks(qrLines), want) {
		t.Fatalf("the screen's QR code is not the link's:\n%s", v)
	}
	screentest.MustShow(t, v, "127.0.0.1")
	// a tiny terminal drops the code, not the link
	screentest.MustShow(t, h.view(60, 12), "needs a larger terminal", "Code shown on the phone")
}

func TestOAuthPhoneCodeTyped(t *testing.T) {
	h := newOAuthHarness(t)
	f := h.start()
	code := browse(t, f.Link, true)
	// a wrong code first: refused, the panel stays usable
	for _, k := range uitest.Type("AAAAA-BBBBB") {
		h.update(k)
	}
	h.feed(h.update(uitest.Key("enter")))
	screentest.MustShow(t, h.view(100, 30), "The code was refused", "works once")
	if h.s.mode != modeOAuth || h.app.Client.Session().Valid() {
		t.Fatal("a wrong code must keep the panel open and sign nobody in")
	}
	h.update(uitest.Key("ctrl+u"))
	for _, k := range uitest.Type(strings.ToLower(code)) {
		h.update(k)
	}
	for _, c := range h.feed(h.update(uitest.Key("enter"))) {
		h.feed(c)
	}
	if s := h.app.Client.Session(); s.Kind != apiclient.SessionOAuth || !s.Valid() || h.s.mode != modeForm {
		t.Fatalf("session %+v", s)
	}
	listenerClosed(t, f.Loopback)
}

// Any local process can call the loopback: a wrong state is refused and
// reported, and the sign-in goes on waiting for the real answer.
func TestOAuthStrayCallbackDoesNotEndTheSignIn(t *testing.T) {
	h := newOAuthHarness(t)
	f := h.start()
	loc := codeOnly(t, f.Link)
	q := loc.Query()
	q.Set("state", q.Get("state")+"x")
	loc.RawQuery = q.Encode()
	resp, err := http.Get(loc.String())
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 400 || !strings.Contains(string(body), "state mismatch") {
		t.Fatalf("callback %d:\n%s", resp.StatusCode, body)
	}
	// The stray is reported to the screen, which keeps waiting.
	h.strayCallback()
	if h.s.mode != modeOAuth || h.s.flow != f || h.app.Client.Session().Valid() {
		t.Fatalf("a stray callback ended the sign-in: mode %d, problem %q", h.s.mode, h.s.problem)
	}
	// The real answer still signs in.
	q.Set("state", f.State)
	loc.RawQuery = q.Encode()
	resp, err = http.Get(loc.String())
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "You can close this tab") {
		t.Fatalf("real callback %d:\n%s", resp.StatusCode, body)
	}
	h.callback()
	if s := h.app.Client.Session(); s.Kind != apiclient.SessionOAuth || h.s.mode != modeForm {
		t.Fatalf("the real callback after a stray did not sign in: %+v", s)
	}
	listenerClosed(t, f.Loopback)
}

func TestOAuthReusedCodeAndVerifierMismatch(t *testing.T) {
	t.Run("reused code", func(t *testing.T) {
		h := newOAuthHarness(t)
		f := h.start()
		loc := codeOnly(t, f.Link)
		// the code is spent elsewhere before the browser comes back
		other := apiclient.New(h.app.Client.Config())
		if _, err := other.ExchangeCode(t.Context(), loc.Query().Get("code"), f.PKCE.Verifier, f.Loopback.RedirectURI()); err != nil {
			t.Fatal(err)
		}
		resp, err := http.Get(loc.String())
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		h.callback()
		screentest.MustShow(t, h.view(100, 30), "The code was refused", "already been used")
		if h.app.Client.Session().Valid() || h.s.mode != modeForm {
			t.Fatal("a reused code signed in")
		}
	})
	t.Run("verifier mismatch", func(t *testing.T) {
		h := newOAuthHarness(t)
		f := h.start()
		f.PKCE.Verifier += "tampered"
		browse(t, f.Link, false)
		h.callback()
		screentest.MustShow(t, h.view(100, 30), "code_verifier does not", "another")
		if h.app.Client.Session().Valid() {
			t.Fatal("a verifier mismatch signed in")
		}
	})
}

func TestOAuthCancelClosesListener(t *testing.T) {
	h := newOAuthHarness(t)
	f := h.start()
	h.update(uitest.Key("esc"))
	screentest.MustShow(t, h.view(100, 30), "cancelled", "Username", "Password")
	if h.s.mode != modeForm || h.s.flow != nil {
		t.Fatal("esc did not end the flow")
	}
	listenerClosed(t, f.Loopback)

	// esc while the flow is still starting: the late start closes its own listener
	start := h.update(uitest.Key("ctrl+o"))
	h.update(uitest.Key("esc"))
	for _, m := range uitest.Run(start) {
		if r, ok := m.(ui.Result[screenkit.OAuthStarted]); ok && r.Value.Loopback != nil {
			h.update(m)
			listenerClosed(t, r.Value.Loopback)
		}
	}
	if h.s.flow != nil {
		t.Fatal("a cancelled start revived the flow")
	}
	// and the form still signs in
	h.feed(h.update(uitest.Key("ctrl+u")))
	for _, k := range uitest.Type("alice@demo.test") {
		h.update(k)
	}
	h.update(uitest.Key("tab"))
	for _, k := range uitest.Type("demo-pass") {
		h.update(k)
	}
	h.feed(h.update(uitest.Key("enter")))
	if s := h.app.Client.Session(); s.Kind != apiclient.SessionPassword || !s.Valid() {
		t.Fatalf("password sign-in after cancel: %+v", s)
	}
}

func TestOAuthGatewayErrorsAndNoSecret(t *testing.T) {
	h := newOAuthHarness(t, func(ts *screentest.Setup) { ts.Config.ClientID = "nobody" })
	h.feed(h.update(uitest.Key("ctrl+o")))
	screentest.MustShow(t, h.view(100, 30), "does not recognise this client key", "Username")
	if h.s.mode != modeForm || h.s.flow != nil {
		t.Fatal("a gateway error must return to the form")
	}

	h = newOAuthHarness(t, func(ts *screentest.Setup) { ts.Config.SecretKey = "" })
	if cmd := h.update(uitest.Key("ctrl+o")); cmd != nil {
		uitest.Run(cmd)
	}
	screentest.MustShow(t, h.view(100, 30), "CARDTERM_SECRET_KEY", "Username")
}

func TestOAuthSignOutRevokes(t *testing.T) {
	h := newOAuthHarness(t)
	f := h.start()
	browse(t, f.Link, false)
	h.callback()
	old := h.app.Client.Session()
	var reason string
	for _, c := range h.feed(h.update(ui.SignOutMsg{})) {
		for _, m := range uitest.Run(c) {
			if so, ok := m.(ui.SignedOutMsg); ok {
				reason = so.Reason
			}
		}
	}
	if !strings.Contains(reason, "revoked") || h.app.Client.Session().Valid() {
		t.Fatalf("reason %q", reason)
	}
	h.app.Client.SetSession(old)
	if _, err := h.app.Client.User(t.Context()); !apiclient.IsUnauthorized(err) {
		t.Fatalf("the revoked token still works: %v", err)
	}
	if _, err := h.app.Client.Refresh(t.Context()); err == nil {
		t.Fatal("the revoked refresh token still works")
	}
}

// Without a browser (SSH, a recording), the panel says so and offers the
// QR code and ctrl+y, instead of "finish in the browser that opened".
func TestOAuthWithoutABrowser(t *testing.T) {
	for _, browser := range []string{"/nonexistent/browser", "/bin/false"} {
		t.Run(browser, func(t *testing.T) { testOAuthWithoutABrowser(t, browser) })
	}
}

// testOAuthWithoutABrowser: $BROWSER missing, or failing (/bin/false
// exits 1 at once: not opened either).
func testOAuthWithoutABrowser(t *testing.T, browser string) {
	h := newOAuthHarness(t)
	t.Setenv("BROWSER", browser)
	f := h.start()
	// What the start's openLink command reports (run here, not waited for
	// behind the loopback's wait in the same batch).
	h.update(screenkit.OpenOAuthLink(f.ID, f.Link)())
	if f.Browser != screenkit.BrowserMissing {
		t.Fatalf("browser state %d", f.Browser)
	}
	v := h.view(100, 30)
	screentest.MustShow(t, v, "No browser could be opened here", "ctrl+y", "▀")
	screentest.MustNotShow(t, v, "browser that opened")
	cmd := h.update(uitest.Key("ctrl+y"))
	var copied bool
	for _, m := range uitest.Run(cmd) {
		if fmt.Sprint(m) == f.Link {
			copied = true
		}
	}
	if !copied {
		t.Fatal("ctrl+y did not copy the whole link")
	}
}
