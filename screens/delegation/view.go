package delegation

import (
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui/sanitize"
)

// View implements ui.Screen: the main view (its forms and the chain
// browser are layers drawn over it).
func (s *Screen) View() string {
	return screenkit.Place(s.mainView(), s.Width, s.Height)
}

// introKey and walletsKey are what the intro and the wallets' list are
// drawn from: a key press that changes neither renders them no more.
type introKey struct {
	width        int
	theme        screenkit.ThemeKey
	tokenEnabled bool
}

type walletsKey struct {
	width   int
	theme   screenkit.ThemeKey
	loading bool
	read    int // externalRead
}

// mainView is the token panel (or what delegation is, before the first
// token) and the registered external wallets.
func (s *Screen) mainView() string {
	st, width := s.Deps.Styles, s.Width
	drawnIn := screenkit.ThemeOf(st)
	middle := ""
	if s.issued == nil {
		middle = s.intro.Get(introKey{width: width, theme: drawnIn, tokenEnabled: s.keys.Token.Enabled()}, s.introView)
	} else {
		middle = s.issued.View() // it counts down: drawn every frame
	}
	wallets := s.wallets.Get(walletsKey{width: width, theme: drawnIn, loading: s.externalLoading, read: s.externalRead}, s.walletsView)
	return st.Title.Render("Delegation") + "\n\n" + middle + "\n\n" + wallets
}

// introView says what delegation is, before the first token.
func (s *Screen) introView() string {
	st, width := s.Deps.Styles, s.Width
	var lines []string
	// In read-only mode the steps name no key that would change anything.
	token, approve := st.KeyHint.Render(s.keys.Token.Help().Key)+" requests", st.KeyHint.Render(s.keys.Approve.Help().Key)+" sends"
	if !s.keys.Token.Enabled() {
		token, approve = "request", "send"
	}
	for _, l := range []string{
		st.Muted.Render("Delegation lets a non-custodial wallet pay with the card:"),
		"  1. " + token + " a single-use token (10 minutes), optionally with gas",
		"  2. approve the delegation contract on chain (" + st.KeyHint.Render(s.keys.Chain.Help().Key) + " lists contracts, tokens)",
		"  3. " + approve + " the post-approval with the token and its nonce",
	} {
		indent := "     "
		if !strings.HasPrefix(l, "  ") {
			indent = ""
		}
		lines = append(lines, wrap(l, width, indent))
	}
	if !s.keys.Token.Enabled() {
		lines = append(lines, "", st.Text(theme.ToneWarn).Render("read-only mode: tokens and post-approval are disabled"))
	}
	return strings.Join(lines, "\n")
}

// walletsView is the registered external wallets under their title.
func (s *Screen) walletsView() string {
	st, width := s.Deps.Styles, s.Width
	lines := []string{st.Subtitle.Render("Registered external wallets")}
	switch {
	case s.externalLoading && s.external == nil:
		lines = append(lines, st.Muted.Render("loading…"))
	case apiclient.IsStatus(s.externalErr, 403):
		lines = append(lines, st.Text(theme.ToneWarn).Width(max(width-2, 20)).Render("The gateway does not allow delegation for this account (verification required)."))
	case s.externalErr != nil:
		lines = append(lines, st.Text(theme.ToneDanger).Render("Could not load them: "+sanitize.Text(apiclient.ErrorMessage(s.externalErr))))
	case len(s.external) == 0:
		lines = append(lines, st.Muted.Render("none yet: a completed post-approval registers one"))
	default:
		// Read as the Wallets screen reads them (screenkit.ExternalWallets):
		// another gateway's own field names fill what the client's do not.
		for _, w := range s.external {
			address := "  " + sanitize.Text(w.Address)
			about := sanitize.Text(strings.ToUpper(w.Currency) + " on " + w.Network + " · allowance " + w.Allowance)
			if ansi.StringWidth(address+"  "+about) <= width {
				lines = append(lines, address+"  "+st.Muted.Render(about))
				continue
			}
			// Too narrow for one line: the address whole, what it is under it.
			lines = append(lines, ansi.Truncate(address, width, "…"), ansi.Truncate(st.Muted.Render("    "+about), width, "…"))
		}
	}
	return strings.Join(lines, "\n")
}

// fitForm draws a form in height lines. When its fields and their
// messages do not fit, the explanation under the title goes first (all of
// it, up to the blank line before the fields, when that is enough), so
// the fields, their errors and the form's problem stay on screen.
func fitForm(view string, height int) string {
	lines := strings.Split(view, "\n")
	extra := len(lines) - height
	if extra <= 0 || height < 2 {
		return view
	}
	if blank := slices.Index(lines, ""); blank > extra {
		extra = blank - 1
	}
	return strings.Join(append(lines[:1], lines[1+extra:]...), "\n")
}
