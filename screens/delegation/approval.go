package screens

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/theme"
	"cardterm/ui"
)

// dlgApprovalKeys are the post-approval form's bindings.
type dlgApprovalKeys struct {
	Next, Prev, Send, Cancel key.Binding
}

// ShortHelp implements help.KeyMap.
func (k dlgApprovalKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Next, k.Send, k.Cancel}
}

// FullHelp implements help.KeyMap.
func (k dlgApprovalKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Next, k.Prev}, {k.Send, k.Cancel}}
}

// The post-approval fields, in form order, with labels and wire names.
const (
	apNetwork = iota
	apCurrency
	apAmount
	apAddress
	apTxHash
	apSigHash
	apSigMessage
	apToken
	apNonce
	apCount
)

var (
	apLabels = [apCount]string{"Network", "Currency", "Amount", "Address", "Tx hash", "Sig hash", "Sig message", "Token", "Nonce"}
	apWire   = [apCount]string{"network", "currency", "amount", "address", "txHash", "sigHash", "sigMessage", "token", "nonce"}
)

// dlgApprovalForm is the post-approval form, prefilled with the last token,
// its nonce and the address it was asked for. Typed values survive a
// refusal; the gateway's field errors show on their fields.
type dlgApprovalForm struct {
	st         *theme.Styles
	keys       dlgApprovalKeys
	in         [apCount]textinput.Model
	errs       [apCount]string
	focus      int
	problem    string
	confirming bool
	sending    bool
}

func newDlgApprovalForm(st *theme.Styles, last *dlgIssued) *dlgApprovalForm {
	f := &dlgApprovalForm{st: st, keys: dlgApprovalKeys{
		Next:   key.NewBinding(key.WithKeys("tab", "down", "enter"), key.WithHelp("tab", "next field")),
		Prev:   key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab", "previous field")),
		Send:   key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "review and send")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}}
	hints := [apCount]string{"linea, ethereum, etherlink, solana…", "usdc", "decimal, e.g. 150.00", "the approving wallet",
		"0x + 64 hex (base58 on solana)", "0x + 64 or 130 hex (base58 on solana)", "the message that was signed",
		"from t", "from t"}
	for i := range f.in {
		in := newInput(st)
		in.Prompt = ""
		in.CharLimit = 256
		in.SetWidth(66)
		in.Placeholder = hints[i]
		f.in[i] = in
	}
	f.in[apToken].EchoMode = textinput.EchoPassword
	f.in[apCurrency].SetValue("usdc")
	f.in[apNetwork].SetValue("linea")
	if last != nil {
		if last.req.Network != "" {
			f.in[apNetwork].SetValue(last.req.Network)
		}
		f.in[apAddress].SetValue(last.req.Address)
		if !last.used {
			f.in[apToken].SetValue(last.tok.Token)
			f.in[apNonce].SetValue(last.tok.Nonce)
		}
	}
	if last == nil || last.used {
		f.problem = "No unused delegation token: esc, then t requests one (or paste a token and its nonce)."
	}
	return f
}

func (f *dlgApprovalForm) focusCmd() tea.Cmd {
	var cmd tea.Cmd
	for i := range f.in {
		if i == f.focus {
			cmd = f.in[i].Focus()
		} else {
			f.in[i].Blur()
		}
	}
	return cmd
}

// payload is the request and its chain (evm or solana, from the network).
func (f *dlgApprovalForm) payload() (string, apiclient.PostApprovalRequest) {
	v := func(i int) string { return strings.TrimSpace(f.in[i].Value()) }
	r := apiclient.PostApprovalRequest{
		Network: strings.ToLower(v(apNetwork)), Currency: strings.ToLower(v(apCurrency)), Amount: v(apAmount),
		Address: v(apAddress), TxHash: v(apTxHash), SigHash: v(apSigHash), SigMessage: f.in[apSigMessage].Value(),
		Token: v(apToken), Nonce: v(apNonce),
	}
	return apiclient.ChainOf(r.Network), r
}

// markErrors puts field errors on their fields and focuses the first.
func (f *dlgApprovalForm) markErrors(errs []apiclient.FieldError) bool {
	f.errs = [apCount]string{}
	first := -1
	for _, fe := range errs {
		if k := indexOf(apWire[:], fe.Field); k >= 0 && f.errs[k] == "" {
			f.errs[k] = fe.Message
			if first < 0 || k < first {
				first = k
			}
		}
	}
	if first >= 0 {
		f.focus = first
	}
	return first >= 0
}

// failed shows the gateway's refusal; every value stays.
func (f *dlgApprovalForm) failed(err error) {
	f.sending, f.confirming = false, false
	var e *apiclient.Error
	if apiclientAs(err, &e) {
		f.markErrors(e.Fields)
	}
	f.problem = "The gateway refused: " + apiclient.ErrorMessage(err) + ". Nothing was registered; your values are kept."
	if apiclient.IsStatus(err, 400) {
		f.problem += " A used or expired token needs a new one: esc, then t."
	}
}

// approvalKey handles a key while the post-approval form is open.
func (d *Delegation) approvalKey(msg tea.KeyPressMsg) tea.Cmd {
	f := d.appr
	switch {
	case f.sending || f.confirming:
		return nil
	case key.Matches(msg, f.keys.Cancel):
		d.appr = nil
		return nil
	case key.Matches(msg, f.keys.Send):
		return d.reviewApproval()
	case key.Matches(msg, f.keys.Next):
		f.focus = min(f.focus+1, apCount-1)
		return f.focusCmd()
	case key.Matches(msg, f.keys.Prev):
		f.focus = max(f.focus-1, 0)
		return f.focusCmd()
	}
	var cmd tea.Cmd
	before := f.in[f.focus].Value()
	f.in[f.focus], cmd = f.in[f.focus].Update(msg)
	if f.in[f.focus].Value() != before {
		f.errs[f.focus] = ""
	}
	return cmd
}

// reviewApproval validates and shows the exact request, token masked.
func (d *Delegation) reviewApproval() tea.Cmd {
	f := d.appr
	chain, r := f.payload()
	if f.markErrors(apiclient.ValidatePostApproval(chain, r)) {
		f.problem = "Fix the marked fields; nothing was sent."
		return f.focusCmd()
	}
	f.problem = ""
	f.confirming = true
	return ui.Confirm(ui.ConfirmSpec{
		Title: "Send the post-approval?",
		Lines: []string{
			"POST /v1/delegation/" + chain + "/post-approval",
			"address: " + r.Address, "network: " + r.Network, "currency: " + r.Currency, "amount: " + r.Amount,
			"txHash: " + r.TxHash, "sigHash: " + r.SigHash, "sigMessage: " + r.SigMessage,
			"token: " + dlgMask(r.Token) + " (masked)", "nonce: " + r.Nonce,
			"This uses the delegation token (single use) and registers the address as your external wallet.",
		},
		ConfirmLabel: "send",
		Tone:         theme.ToneWarn,
		OnConfirm:    dlgSendApproval{chain: chain, req: r},
		OnCancel:     dlgCancelApproval{},
	})
}

// sendApproval runs the confirmed post-approval once.
func (d *Delegation) sendApproval(m dlgSendApproval) tea.Cmd {
	if d.appr == nil || d.appr.sending {
		return nil
	}
	d.appr.sending = true
	client := d.deps.Client
	var cmd tea.Cmd
	d.apprID, cmd = ui.Go(d.deps.Requests, func(ctx context.Context) (dlgApproved, error) {
		return dlgApproved{address: m.req.Address, token: m.req.Token}, client.PostApproval(ctx, m.chain, m.req)
	})
	return cmd
}

// approvalDone shows the outcome and re-reads the external wallets.
func (d *Delegation) approvalDone(msg ui.Result[dlgApproved]) tea.Cmd {
	if msg.ID != d.apprID {
		return nil
	}
	reload := d.loadExternal()
	if msg.Err != nil {
		if d.appr != nil {
			d.appr.failed(msg.Err)
		}
		return tea.Batch(failed("post-approval", msg.Err), reload)
	}
	d.appr = nil
	if d.last != nil && d.last.tok.Token == msg.Value.token {
		d.last.used = true
	}
	return tea.Batch(ui.Notify(theme.ToneOK, "delegation registered: "+msg.Value.address+" is your external wallet"), reload)
}

// view draws the form; the focused field is always on screen.
func (f *dlgApprovalForm) view(width, height int) string {
	st := f.st
	chain, _ := f.payload()
	head := []string{
		st.Title.Render("Post-approval") + "  " + st.Badge(strings.ToUpper(chain), theme.ToneInfo) +
			"  " + st.Muted.Render("after the on-chain approval"),
		st.Muted.Render("tab next field · ctrl+s reviews and sends · esc cancels"),
	}
	switch {
	case f.sending:
		head = append(head, st.Muted.Render("Sending…"))
	case f.problem != "":
		head = append(head, ansi.Wrap(st.Text(theme.ToneDanger).Render(ui.Sanitize(f.problem)), width, " "))
	}
	head = append(head, "")
	var rows []string
	focusRow := 0
	for i := range f.in {
		f.in[i].SetWidth(max(min(66, width-18), 10))
		marker, lst := "  ", st.Label
		if i == f.focus {
			marker, lst = st.Accent.Render("› "), st.Accent
			focusRow = len(rows)
		}
		val := f.in[i].View()
		if i == apToken && i != f.focus && f.in[i].Value() != "" {
			val = dlgMask(f.in[i].Value()) + st.Muted.Render("  (secret, masked)")
		}
		rows = append(rows, ansi.Truncate(marker+lst.Render(padRight(apLabels[i], 12))+" "+val, width, "…"))
		if f.errs[i] != "" {
			rows = append(rows, ansi.Truncate(strings.Repeat(" ", 15)+st.Text(theme.ToneDanger).Render("✗ "+ui.Sanitize(f.errs[i])), width, "…"))
		}
	}
	avail := max(height-strings.Count(strings.Join(head, "\n"), "\n")-1, 1)
	start := max(focusRow-avail+1, 0)
	return strings.Join(append(head, rows[start:]...), "\n")
}
