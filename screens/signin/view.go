package signin

import (
	"fmt"
	"net/url"
	"strings"

	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// Drawing the sign-in screen: the form, the gateway line and the sandbox's
// demo accounts.

// View implements ui.Screen.
func (s *Screen) View() string {
	width, height := s.Width, s.Height
	if s.mode == modeOAuth {
		return s.oauthView(width, height)
	}
	st := s.Deps.Styles
	formWidth := s.formWidth()

	input := func(label string, m textinput.Model, focused bool) string {
		box := st.Input
		if focused {
			box = st.InputFocused
		}
		return st.Label.Render(label) + "\n" + box.Width(formWidth).Render(sanitize.ShowInvisible(m.View()))
	}
	var b strings.Builder
	b.WriteString(st.Title.Render("Sign in to the Card and Wallet Gateway"))
	b.WriteString("\n" + st.Muted.Render(s.gatewayLine()))
	if known := s.gatewayKnown(); known != "" {
		b.WriteString("\n" + st.Muted.Render(ansi.Wrap(known, max(width-4, 20), " ")))
	}
	b.WriteString("\n\n")
	b.WriteString(input("Username", s.username, s.focus == focusUsername) + "\n")
	b.WriteString(input("Password", s.password, s.focus == focusPassword) + "\n")
	switch {
	case s.busy:
		b.WriteString(st.Text(theme.ToneInfo).Render("Signing in… (" + s.keys.Cancel.Help().Key + " cancels)"))
	case s.problem != "":
		b.WriteString(st.Text(theme.ToneDanger).Width(formWidth).Render(sanitize.Text(s.problem)))
	case s.reason != "":
		b.WriteString(st.Text(theme.ToneInfo).Width(formWidth).Render(sanitize.Text(s.reason)))
	case s.compact():
		// The footer names enter, tab and ctrl+o: the line is left blank
		// for why the user is here, should that come.
	default:
		b.WriteString(st.Muted.Render(s.keys.Enter.Help().Key + " or " + s.keys.Submit.Help().Key + " signs in · " +
			s.keys.Next.Help().Key + " switches fields"))
	}
	if !s.busy && !s.compact() && s.keys.OAuth.Enabled() {
		b.WriteString("\n" + st.Muted.Render(s.keys.OAuth.Help().Key+" signs in with the browser or a phone (QR code)"))
	}
	form := b.String()

	if len(s.Deps.Demo) > 0 && s.demoBeside() {
		form = screenkit.SideBySide(form, s.demoView(), lipgloss.Width(form), "    ")
	} else if len(s.Deps.Demo) > 0 {
		form += "\n\n" + s.demoView()
	}
	return screenkit.Place(screenkit.Inset(form, 1, 2), width, height)
}

// gatewayLine names the gateway and the client key.
func (s *Screen) gatewayLine() string {
	cfg := s.Deps.Client.Config()
	host := cfg.BaseURL
	if u, err := url.Parse(cfg.BaseURL); err == nil && u.Host != "" {
		host = u.Host
	}
	line := "gateway " + host + " · client key " + cfg.ClientKey
	switch {
	case len(s.Deps.Demo) > 0:
		line = "embedded SANDBOX gateway at " + host
	case cfg.ClientKey == "":
		line = "gateway " + host + " · no client key: set --client-key or CARDTERM_CLIENT_KEY"
	}
	if cfg.US {
		line += " · US region"
	}
	return sanitize.Text(line)
}

// gatewayKnown says what the screen knows of a --base-url gateway, and no
// more: nothing is sent while it waits, so the gateway is known to be the
// cardterm sandbox only once an answer said so.
func (s *Screen) gatewayKnown() string {
	client := s.Deps.Client
	switch {
	case len(s.Deps.Demo) > 0:
		return ""
	case client.KnownSandbox():
		return "It announced itself as the cardterm sandbox."
	case !client.KnowsGateway():
		return "Not asked anything yet: its first answer says whether it is the cardterm sandbox."
	}
	return ""
}

func (s *Screen) demoView() string {
	st := s.Deps.Styles
	title := st.Subtitle.Render("Sandbox demo accounts")
	if s.focus == focusDemo {
		title = st.Accent.Render("› ") + title
	}
	hint := fmt.Sprintf("password for all: %s · ↑/↓ and enter sign in as one", s.Deps.Demo[0].Password)
	view := title + "\n" + st.Muted.Render(hint) + "\n" + s.demo.View()
	if d, ok := screenkit.Selected(&s.demo, s.Deps.Demo); ok {
		// The selected account's summary whole, which the table may cut.
		wrapped := strings.Split(ansi.Wrap(sanitize.Text(d.Username+": "+d.Summary), max(s.demoWidth(), 10), " "), "\n")
		switch {
		case s.compact() && len(wrapped) > 1:
			wrapped = []string{ansi.Truncate(strings.Join(wrapped, " "), max(s.demoWidth(), 10), "…")}
		case len(wrapped) > 2:
			wrapped = []string{wrapped[0], ui.Shorten(strings.Join(wrapped[1:], " "), max(s.demoWidth(), 10))}
		}
		view += "\n" + st.Muted.Render(strings.Join(wrapped, "\n"))
	}
	return view
}
