package delegation

import (
	"cardterm/ui/keymap"

	"fmt"
	"net/http"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui/sanitize"
)

// panelKeys choose the value the global copy key copies.
type panelKeys struct {
	Up, Down key.Binding
}

// ShortHelp implements help.KeyMap.
func (k panelKeys) ShortHelp() []key.Binding { return []key.Binding{k.Up} }

// FullHelp implements help.KeyMap.
func (k panelKeys) FullHelp() [][]key.Binding { return [][]key.Binding{{k.Up, k.Down}} }

// tokenPanel is the last delegation token, a part of the main view (not
// a layer: it takes no keys from the screen but its own two). The token is a secret: it is drawn masked and leaves the app
// only through y (clipboard) or the post-approval request.
type tokenPanel struct {
	deps   screenkit.Deps
	keys   panelKeys
	width  int
	asked  tokenAsk
	token  apiclient.DelegationToken
	issued time.Time // when the answer arrived, on the app's clock
	number int       // the screen's count of tokens: names this one's ticks
	used   bool      // consumed by a post-approval
	// selected is the value y copies: 0 token, 1 nonce, 2 faucet transaction.
	selected int
}

func newTokenPanel(deps screenkit.Deps, answer issuedToken, issued time.Time, number int) *tokenPanel {
	return &tokenPanel{deps: deps, asked: answer.asked, token: answer.token, issued: issued, number: number, keys: panelKeys{
		Up:   keymap.Bind("delegation.up"),
		Down: keymap.Bind("delegation.down"),
	}}
}

// left is how long the token has to live.
func (p *tokenPanel) left() time.Duration {
	return p.issued.Add(apiclient.DelegationTokenLifetime * time.Second).Sub(p.deps.Clock())
}

// Update takes the screen's ↑/↓, which pick the value to copy, and the
// countdown's ticks while the token lives.
func (p *tokenPanel) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, p.keys.Up):
			p.selected = max(p.selected-1, 0)
		case key.Matches(msg, p.keys.Down):
			p.selected = min(p.selected+1, len(p.copyables())-1)
		}
	case tickMsg:
		if msg.token == p.number && !p.used && p.left() > 0 {
			return tick(p.number)
		}
	}
	return nil
}

// SetSize gives the panel the body's width.
func (p *tokenPanel) SetSize(width int) { p.width = width }

// KeyMap is the panel's keys, shown with the screen's.
func (p *tokenPanel) KeyMap() help.KeyMap { return p.keys }

// copyable is a value y can copy from the panel.
type copyable struct{ label, value string }

// copyables are the values y can copy, in panel order.
func (p *tokenPanel) copyables() []copyable {
	out := []copyable{{"delegation token", p.token.Token}, {"nonce", p.token.Nonce}}
	if f := p.token.Faucet; f != nil && f.TransactionHash != "" {
		out = append(out, copyable{"faucet transaction hash", f.TransactionHash})
	}
	return out
}

func (p *tokenPanel) copyValue() (label, value string, ok bool) {
	c := p.copyables()
	v := c[min(p.selected, len(c)-1)]
	return v.label, v.value, v.value != ""
}

// mask shows a secret token as its first 6 characters and an ellipsis.
func mask(token string) string {
	r := []rune(token)
	if len(r) <= 8 {
		return "••••••"
	}
	return string(r[:6]) + "…"
}

// faucetBadge is the faucet outcome as a tone badge.
func faucetBadge(st *theme.Styles, f *apiclient.Faucet) string {
	switch f.Status {
	case apiclient.FaucetConfirmed:
		return screenkit.Badge(st, "CONFIRMED", theme.ToneOK)
	case apiclient.FaucetPending:
		return screenkit.Badge(st, "PENDING", theme.ToneWarn)
	case apiclient.FaucetDeclined:
		return screenkit.Badge(st, "DECLINED", theme.ToneDanger)
	case "":
		if f.Success {
			return screenkit.Badge(st, "SENT", theme.ToneOK)
		}
		return screenkit.Badge(st, "FAILED", theme.ToneDanger)
	}
	return screenkit.Badge(st, strings.ToUpper(f.Status), theme.ToneNeutral)
}

// clock shows a remaining life as m:ss.
func clock(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// View draws the token masked, its nonce, its countdown
// and the faucet's outcome.
func (p *tokenPanel) View() string {
	st, width := p.deps.Styles, p.width
	mark := func(i int, label string) string {
		if i == p.selected {
			return "› " + label
		}
		return "  " + label
	}
	life, lifeTone := "", theme.ToneOK
	switch left := p.left(); {
	case p.used:
		life, lifeTone = "used by the post-approval (single use): "+keymap.Key("delegation.token")+" requests a new one", theme.ToneNeutral
	case left <= 0:
		life, lifeTone = "expired: "+keymap.Key("delegation.token")+" requests a new one", theme.ToneWarn
	default:
		life = "valid for " + clock(left) + ", single use"
		if left < time.Minute {
			lifeTone = theme.ToneWarn
		}
	}
	fields := []screenkit.Field{
		{Label: mark(0, "Token"), Value: mask(p.token.Token) + "  (secret; " + keymap.Key("global.copy") + " copies it)"},
		{Label: mark(1, "Nonce"), Value: p.token.Nonce},
		{Label: "  Lifetime", Styled: st.Text(lifeTone).Render(life)},
		{Label: "  Answer", Value: fmt.Sprintf("%d %s", p.token.Status, http.StatusText(p.token.Status))},
	}
	for _, x := range screenkit.ExtraFields(p.token.Extra) {
		x.Label = "  " + x.Label
		fields = append(fields, x)
	}
	lines := []string{screenkit.Section(st, "Delegation token", screenkit.RenderFields(st, fields, width-2))}
	f := p.token.Faucet
	if f == nil {
		if p.asked.request.Faucet {
			lines = append(lines, st.Muted.Render("The gateway sent no faucet outcome."))
		}
		return strings.Join(lines, "\n")
	}
	faucet := []screenkit.Field{
		{Label: "  Status", Styled: faucetBadge(st, f)},
		{Label: "  Network", Value: f.Network},
	}
	if f.TransactionHash != "" {
		faucet = append(faucet, screenkit.Field{Label: mark(2, "Transaction"), Value: f.TransactionHash})
	}
	if f.Error != "" && !p.token.FaucetFailed() { // a 207 explains it below
		faucet = append(faucet, screenkit.Field{Label: "  Error", Styled: st.Text(theme.ToneDanger).Render(ansi.Truncate(sanitize.Text(f.Error), max(width-16, 8), "…"))})
	}
	for _, x := range screenkit.ExtraFields(f.Extra) {
		x.Label = "  " + x.Label
		faucet = append(faucet, x)
	}
	lines = append(lines, "", screenkit.Section(st, "Gas faucet", screenkit.RenderFields(st, faucet, width-2)))
	if f.Message != "" {
		lines = append(lines, "  "+wrap(st.Text(theme.ToneWarn).Render(sanitize.Text(f.Message)), width-2, "  "))
	}
	if p.token.FaucetFailed() {
		why := f.Error
		if why == "" {
			why = "no reason given"
		}
		lines = append(lines, "", ansi.Wrap(st.Text(theme.ToneWarn).Render("Token issued; the faucet did not pay: "+sanitize.Text(why)+". The token is usable all the same."), width, " "))
	}
	return strings.Join(lines, "\n")
}

// wrap wraps a line to width, indenting the continuation lines.
func wrap(s string, width int, indent string) string {
	w := ansi.Wrap(s, max(width-ansi.StringWidth(indent), 10), " ")
	return strings.ReplaceAll(w, "\n", "\n"+indent)
}
