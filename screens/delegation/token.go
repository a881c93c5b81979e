package screens

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/theme"
	"cardterm/ui"
)

// dlgTokenFormKeys are the token form's bindings.
type dlgTokenFormKeys struct {
	Next, Prev, Toggle, Send, Cancel key.Binding
}

// ShortHelp implements help.KeyMap.
func (k dlgTokenFormKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Next, k.Toggle, k.Send, k.Cancel}
}

// FullHelp implements help.KeyMap.
func (k dlgTokenFormKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Next, k.Prev}, {k.Toggle}, {k.Send, k.Cancel}}
}

// The token form's fields, in order.
const (
	dlgFFaucet = iota
	dlgFNetwork
	dlgFAddress
	dlgFCount
)

// dlgTokenForm asks for a delegation token: faucet on or off, the network
// and the address the gas goes to. What was typed stays on failure.
type dlgTokenForm struct {
	st      *theme.Styles
	keys    dlgTokenFormKeys
	faucet  bool
	netIdx  int
	addr    textinput.Model
	focus   int
	addrErr string
	problem string
	sending bool
	sent    apiclient.DelegationTokenRequest
}

// newDlgTokenForm opens the form with the last request's choices.
func newDlgTokenForm(st *theme.Styles, last *dlgIssued) *dlgTokenForm {
	f := &dlgTokenForm{st: st, faucet: true, keys: dlgTokenFormKeys{
		Next:   key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab", "next field")),
		Prev:   key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab", "previous field")),
		Toggle: key.NewBinding(key.WithKeys("space", "left", "right"), key.WithHelp("space", "toggle faucet / next network")),
		Send:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "request")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}}
	f.addr = newInput(st)
	f.addr.Prompt = ""
	f.addr.CharLimit = 64
	f.addr.SetWidth(46)
	if last != nil {
		f.faucet = last.req.Faucet
		f.addr.SetValue(last.req.Address)
		f.netIdx = max(indexOf(apiclient.FaucetNetworks, last.req.Network), 0)
	}
	f.setPlaceholder()
	return f
}

func (f *dlgTokenForm) network() string { return apiclient.FaucetNetworks[f.netIdx] }

func (f *dlgTokenForm) setPlaceholder() {
	f.addr.Placeholder = "0x followed by 40 hex digits"
	if f.network() == "solana" {
		f.addr.Placeholder = "base58 public key"
	}
}

func (f *dlgTokenForm) focusCmd() tea.Cmd {
	if f.focus == dlgFAddress {
		return f.addr.Focus()
	}
	f.addr.Blur()
	return nil
}

// request is what will be sent: address and network only with the faucet.
func (f *dlgTokenForm) request() apiclient.DelegationTokenRequest {
	if !f.faucet {
		return apiclient.DelegationTokenRequest{}
	}
	return apiclient.DelegationTokenRequest{Faucet: true, Network: f.network(), Address: strings.TrimSpace(f.addr.Value())}
}

// failed keeps every choice and says what the gateway answered.
func (f *dlgTokenForm) failed(err error) {
	f.sending = false
	if errors.Is(err, context.Canceled) {
		f.problem = "Cancelled: no token was received. Your choices are kept."
		return
	}
	f.problem = "The gateway refused: " + apiclient.ErrorMessage(err) + ". Your choices are kept."
}

// dlgTokenQuery is the request line the confirmation shows.
func dlgTokenQuery(r apiclient.DelegationTokenRequest) string {
	if !r.Faucet {
		return "GET /v1/delegation/token"
	}
	q := url.Values{"faucet": {"true"}, "network": {r.Network}, "address": {r.Address}}
	return "GET /v1/delegation/token?" + q.Encode()
}

// formKey handles a key while the token form is open.
func (d *Delegation) formKey(msg tea.KeyPressMsg) tea.Cmd {
	f := d.form
	switch {
	case f.sending:
		// The form has the keys (the root never sees this esc): esc cancels
		// the request in flight, as the form says; its answer reopens the
		// form with every choice kept.
		if key.Matches(msg, f.keys.Cancel) {
			d.deps.Requests.CancelAll()
		}
		return nil
	case key.Matches(msg, f.keys.Cancel):
		d.form = nil
		return nil
	case key.Matches(msg, f.keys.Next):
		f.focus = (f.focus + 1) % dlgFCount
		return f.focusCmd()
	case key.Matches(msg, f.keys.Prev):
		f.focus = (f.focus + dlgFCount - 1) % dlgFCount
		return f.focusCmd()
	case key.Matches(msg, f.keys.Send):
		return d.submitTokenForm()
	case f.focus == dlgFFaucet && key.Matches(msg, f.keys.Toggle):
		f.faucet = !f.faucet
		f.addrErr = ""
		return nil
	case f.focus == dlgFNetwork && key.Matches(msg, f.keys.Toggle):
		n := len(apiclient.FaucetNetworks)
		if msg.String() == "left" {
			f.netIdx = (f.netIdx + n - 1) % n
		} else {
			f.netIdx = (f.netIdx + 1) % n
		}
		f.addrErr = ""
		f.setPlaceholder()
		return nil
	case f.focus == dlgFAddress:
		var cmd tea.Cmd
		before := f.addr.Value()
		f.addr, cmd = f.addr.Update(msg)
		if f.addr.Value() != before {
			f.addrErr = ""
		}
		return cmd
	}
	return nil
}

// submitTokenForm validates; a faucet request (it moves gas, once per
// user) is confirmed with the exact request first.
func (d *Delegation) submitTokenForm() tea.Cmd {
	f := d.form
	req := f.request()
	if req.Faucet {
		if err := apiclient.ValidateFaucetAddress(req.Network, req.Address); err != nil {
			f.addrErr = err.Error()
			f.focus = dlgFAddress
			return f.focusCmd()
		}
	}
	if d.tokBusy {
		return nil
	}
	if !req.Faucet {
		return d.sendToken(req)
	}
	d.tokBusy = true
	return ui.Confirm(ui.ConfirmSpec{
		Title: "Request a delegation token with gas?",
		Lines: []string{
			dlgTokenQuery(req),
			"The faucet sends gas to " + req.Address + " on " + req.Network + ". It pays once per user, across all networks.",
			"A single-use token (about 10 minutes) and its nonce come back either way.",
		},
		ConfirmLabel: "request",
		Tone:         theme.ToneWarn,
		OnConfirm:    dlgSendTokenMsg{req: req},
		OnCancel:     dlgCancelTokenMsg{},
	})
}

// view draws the token form.
func (f *dlgTokenForm) view(width int) string {
	st := f.st
	lines := []string{
		st.Title.Render("Request a delegation token"),
		dlgWrap(st.Muted.Render("tab next field · space toggles the faucet / picks the network · enter requests · esc cancels"), width, ""),
	}
	switch {
	case f.sending:
		lines = append(lines, st.Muted.Render("Requesting… (the faucet may poll for up to 10 seconds; esc cancels)"))
	case f.problem != "":
		lines = append(lines, st.Text(theme.ToneDanger).Render(ansi.Truncate(ui.Sanitize(f.problem), width, "…")))
	}
	lines = append(lines, "")
	row := func(i int, label, value string) string {
		marker, lst := "  ", st.Label
		if i == f.focus {
			marker, lst = st.Accent.Render("› "), st.Accent
		}
		return ansi.Truncate(marker+lst.Render(padRight(label, 9))+" "+value, width, "…")
	}
	on := st.Badge("OFF", theme.ToneNeutral) + st.Muted.Render("  token only")
	if f.faucet {
		on = st.Badge("ON", theme.ToneOK) + st.Muted.Render("  gas sent to the address (once per user, all networks)")
	}
	lines = append(lines, row(dlgFFaucet, "Faucet", on))
	var nets []string
	for i, n := range apiclient.FaucetNetworks {
		if i == f.netIdx {
			nets = append(nets, st.TableSelected.Render(" "+n+" "))
		} else {
			nets = append(nets, st.Muted.Render(" "+n+" "))
		}
	}
	lines = append(lines, row(dlgFNetwork, "Network", strings.Join(nets, " ")))
	lines = append(lines, row(dlgFAddress, "Address", f.addr.View()))
	if f.addrErr != "" {
		lines = append(lines, ansi.Truncate(strings.Repeat(" ", 12)+st.Text(theme.ToneDanger).Render("✗ "+f.addrErr), width, "…"))
	}
	if !f.faucet {
		lines = append(lines, "", dlgWrap(st.Muted.Render("Without the faucet, network and address are not sent; they prefill the post-approval form."), width, ""))
	}
	return strings.Join(lines, "\n")
}

// dlgWrap wraps a line to width, indenting the continuation lines.
func dlgWrap(s string, width int, indent string) string {
	w := ansi.Wrap(s, max(width-ansi.StringWidth(indent), 10), " ")
	return strings.ReplaceAll(w, "\n", "\n"+indent)
}

// dlgMask shows a secret token as its first 6 characters and an ellipsis.
func dlgMask(tok string) string {
	r := []rune(tok)
	if len(r) <= 8 {
		return "••••••"
	}
	return string(r[:6]) + "…"
}

// faucetBadge is the faucet outcome as a tone badge.
func faucetBadge(st *theme.Styles, f *apiclient.Faucet) string {
	switch f.Status {
	case apiclient.FaucetConfirmed:
		return badge(st, "CONFIRMED", theme.ToneOK)
	case apiclient.FaucetPending:
		return badge(st, "PENDING", theme.ToneWarn)
	case apiclient.FaucetDeclined:
		return badge(st, "DECLINED", theme.ToneDanger)
	case "":
		if f.Success {
			return badge(st, "SENT", theme.ToneOK)
		}
		return badge(st, "FAILED", theme.ToneDanger)
	}
	return badge(st, strings.ToUpper(f.Status), theme.ToneNeutral)
}

// dlgClock shows a remaining life as m:ss.
func dlgClock(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// mainView is the token panel and the registered external wallets.
func (d *Delegation) mainView(width int) string {
	st := d.deps.Styles
	head := st.Title.Render("Delegation")
	if d.tokBusy {
		head += "  " + st.Muted.Render("requesting a token…")
	}
	lines := []string{head, ""}
	if d.last == nil {
		for _, l := range []string{
			st.Muted.Render("Delegation lets a non-custodial wallet pay with the card:"),
			"  1. " + st.KeyHint.Render("t") + " requests a single-use token (10 minutes), optionally with gas",
			"  2. approve the delegation contract on chain (" + st.KeyHint.Render("c") + " lists contracts, tokens)",
			"  3. " + st.KeyHint.Render("a") + " sends the post-approval with the token and its nonce",
		} {
			indent := "     "
			if !strings.HasPrefix(l, "  ") {
				indent = ""
			}
			lines = append(lines, dlgWrap(l, width, indent))
		}
		if d.deps.ReadOnly {
			lines = append(lines, "", st.Text(theme.ToneWarn).Render("read-only mode: tokens and post-approval are disabled"))
		}
	} else {
		lines = append(lines, d.tokenPanel(width)...)
	}
	lines = append(lines, "", st.Subtitle.Render("Registered external wallets"))
	switch {
	case d.extLoading && d.ext == nil:
		lines = append(lines, st.Muted.Render("loading…"))
	case apiclient.IsStatus(d.extErr, 403):
		lines = append(lines, st.Text(theme.ToneWarn).Render("The gateway does not allow delegation for this account (verification required)."))
	case d.extErr != nil:
		lines = append(lines, st.Text(theme.ToneDanger).Render("Could not load them: "+ui.Sanitize(apiclient.ErrorMessage(d.extErr))))
	case len(d.ext) == 0:
		lines = append(lines, st.Muted.Render("none yet: a completed post-approval registers one"))
	default:
		for _, w := range d.ext {
			lines = append(lines, ansi.Truncate("  "+ui.Sanitize(w.Address)+"  "+
				st.Muted.Render(ui.Sanitize(strings.ToUpper(w.Currency)+" on "+w.Network+" · allowance "+string(w.Allowance))), width, "…"))
		}
	}
	return strings.Join(lines, "\n")
}

// tokenPanel draws the last token: masked, its nonce, its countdown and
// the faucet's outcome.
func (d *Delegation) tokenPanel(width int) []string {
	st := d.deps.Styles
	last := d.last
	mark := func(i int, label string) string {
		if i == d.sel {
			return "› " + label
		}
		return "  " + label
	}
	life := ""
	lifeTone := theme.ToneOK
	switch left := last.left(d.deps.now()); {
	case last.used:
		life, lifeTone = "used by the post-approval (single use): t requests a new one", theme.ToneNeutral
	case left <= 0:
		life, lifeTone = "expired: t requests a new one", theme.ToneWarn
	default:
		life = "valid for " + dlgClock(left) + ", single use"
		if left < time.Minute {
			lifeTone = theme.ToneWarn
		}
	}
	httpLine := fmt.Sprintf("%d %s", last.tok.Status, http.StatusText(last.tok.Status))
	fields := []field{
		{label: mark(0, "Token"), value: dlgMask(last.tok.Token) + "  (secret; y copies it)"},
		{label: mark(1, "Nonce"), value: last.tok.Nonce},
		{label: "  Lifetime", styled: st.Text(lifeTone).Render(life)},
		{label: "  Answer", value: httpLine},
	}
	for _, x := range extraFields(last.tok.Extra) {
		x.label = "  " + x.label
		fields = append(fields, x)
	}
	lines := []string{section(st, "Delegation token", renderFields(st, fields, width-2))}
	f := last.tok.Faucet
	if f == nil {
		if last.req.Faucet {
			lines = append(lines, st.Muted.Render("The gateway sent no faucet outcome."))
		}
		return lines
	}
	ff := []field{
		{label: "  Status", styled: faucetBadge(st, f)},
		{label: "  Network", value: f.Network},
	}
	if f.TransactionHash != "" {
		ff = append(ff, field{label: mark(2, "Transaction"), value: f.TransactionHash})
	}
	if f.Error != "" && !last.tok.FaucetFailed() { // a 207 explains it below
		ff = append(ff, field{label: "  Error", styled: st.Text(theme.ToneDanger).Render(ansi.Truncate(ui.Sanitize(f.Error), max(width-16, 8), "…"))})
	}
	for _, x := range extraFields(f.Extra) {
		x.label = "  " + x.label
		ff = append(ff, x)
	}
	lines = append(lines, "", section(st, "Gas faucet", renderFields(st, ff, width-2)))
	if f.Message != "" {
		lines = append(lines, "  "+dlgWrap(st.Text(theme.ToneWarn).Render(ui.Sanitize(f.Message)), width-2, "  "))
	}
	if last.tok.FaucetFailed() {
		why := f.Error
		if why == "" {
			why = "no reason given"
		}
		lines = append(lines, "", ansi.Wrap(st.Text(theme.ToneWarn).Render("Token issued; the faucet did not pay: "+ui.Sanitize(why)+". The token is usable all the same."), width, " "))
	}
	return lines
}
