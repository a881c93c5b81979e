package screenkit

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"cardterm/theme"
)

// The sign-in link is shown once: whole where it fits, beside the QR code
// or under it, and never as a cut copy above the whole one.
func TestOAuthPanelShowsTheLinkOnceAndWholeWhereItFits(t *testing.T) {
	link := "http://127.0.0.1:18080/v1/auth/oauth/authorize?client_id=ck_sandbox_acme&redirect_uri=http%3A%2F%2F127.0.0.1%3A41234%2Fcallback" +
		"&state=Zm9vYmFy&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw"
	st := theme.New(true, false)
	for _, tc := range []struct {
		width, height int
		whole         bool
	}{
		{200, 60, true},
		{120, 40, false},
		{80, 24, false},
		{400, 60, true},
	} {
		flow := &OAuthFlow{Loopback: &Loopback{}, Link: link, QR: QRBits(link)}
		code := NewCodeInput(&st)
		view := ansi.Strip(OAuthPanel(&st, flow, &code, OAuthWords{Title: "Approve"}, tc.width, tc.height))
		shown := strings.Count(view, "http://127.0.0.1:18080/")
		if shown != 1 {
			t.Errorf("%dx%d: the link is shown %d times:\n%s", tc.width, tc.height, shown, view)
		}
		if got := strings.Contains(view, link); got != tc.whole {
			t.Errorf("%dx%d: the link whole: %v, want %v:\n%s", tc.width, tc.height, got, tc.whole, view)
		}
	}
}
