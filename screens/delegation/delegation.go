package screens

import (
	"context"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/theme"
	"cardterm/ui"
)

// dlgKeys are the delegation screen's bindings. t and a mutate (a token
// may draw gas from the faucet; post-approval registers a wallet), so they
// are disabled in read-only mode.
type dlgKeys struct {
	Token, Chain, Approve, Up, Down key.Binding
	// mode is the help of an open form or the chain browser; nil on the
	// main view.
	mode help.KeyMap
}

func newDlgKeys(readOnly bool) dlgKeys {
	k := dlgKeys{
		Token:   key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "request token")),
		Chain:   key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "chain config")),
		Approve: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "post-approval")),
		Up:      key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/↓", "select value to copy")),
		Down:    key.NewBinding(key.WithKeys("down", "j")),
	}
	if readOnly {
		k.Token.SetEnabled(false)
		k.Approve.SetEnabled(false)
	}
	return k
}

// ShortHelp implements help.KeyMap.
func (k dlgKeys) ShortHelp() []key.Binding {
	if k.mode != nil {
		return k.mode.ShortHelp()
	}
	return []key.Binding{k.Token, k.Chain, k.Approve, k.Up}
}

// FullHelp implements help.KeyMap.
func (k dlgKeys) FullHelp() [][]key.Binding {
	if k.mode != nil {
		return k.mode.FullHelp()
	}
	return [][]key.Binding{{k.Token, k.Chain, k.Approve}, {k.Up}}
}

// dlgIssued is the last delegation token on screen. The token is a secret:
// it is drawn masked and leaves the app only through y (clipboard) or the
// post-approval request.
type dlgIssued struct {
	tok    apiclient.DelegationToken
	req    apiclient.DelegationTokenRequest
	issued time.Time // when the answer arrived, on the app's clock
	seq    int
	used   bool // consumed by a post-approval
}

// left is how long the token has to live.
func (i *dlgIssued) left(now time.Time) time.Duration {
	return i.issued.Add(apiclient.DelegationTokenLifetime * time.Second).Sub(now)
}

// Messages of the delegation screen.
type (
	dlgTickMsg      struct{ seq int }
	dlgSendTokenMsg struct {
		req apiclient.DelegationTokenRequest
	}
	dlgCancelTokenMsg struct{}
	dlgSendApproval   struct {
		chain string
		req   apiclient.PostApprovalRequest
	}
	dlgCancelApproval struct{}
	// dlgApproved is the answer of a post-approval.
	dlgApproved struct{ address, token string }
)

// Delegation is screen 6: delegation tokens with the gas faucet, the chain
// configuration, and the post-approval that registers an external wallet.
type Delegation struct {
	deps Deps
	keys dlgKeys

	last    *dlgIssued
	seq     int
	sel     int // the value y copies: 0 token, 1 nonce, 2 faucet transaction
	tokID   ui.RequestID
	tokBusy bool // a token request is being confirmed or is in flight

	ext        []apiclient.ExternalWallet
	extID      ui.RequestID
	extLoading bool
	extErr     error

	form   *dlgTokenForm
	chain  *dlgChain
	appr   *dlgApprovalForm
	apprID ui.RequestID
}

// NewDelegation builds the delegation screen.
func NewDelegation(deps Deps) *Delegation {
	return &Delegation{deps: deps, keys: newDlgKeys(deps.ReadOnly)}
}

// ID implements ui.Screen.
func (d *Delegation) ID() ui.ScreenID { return ui.ScreenDelegation }

// Title implements ui.Screen.
func (d *Delegation) Title() string { return "Delegation" }

// KeyMap implements ui.Screen.
func (d *Delegation) KeyMap() help.KeyMap {
	k := d.keys
	switch {
	case d.form != nil:
		k.mode = d.form.keys
	case d.appr != nil:
		k.mode = d.appr.keys
	case d.chain != nil:
		k.mode = d.chain.keyMap()
	}
	return k
}

// CapturesKeys implements ui.Screen: the forms' inputs and the chain
// table's filter take every key.
func (d *Delegation) CapturesKeys() bool {
	return d.form != nil || d.appr != nil || (d.chain != nil && d.chain.capturing())
}

// Enter loads the registered external wallets (the result of a completed
// delegation).
func (d *Delegation) Enter() tea.Cmd {
	if d.chain != nil {
		return d.chain.load(d.deps)
	}
	return d.loadExternal()
}

func (d *Delegation) loadExternal() tea.Cmd {
	client := d.deps.Client
	d.extLoading = true
	var cmd tea.Cmd
	d.extID, cmd = ui.Go(d.deps.Requests, func(ctx context.Context) ([]apiclient.ExternalWallet, error) {
		return client.ExternalWallets(ctx)
	})
	return cmd
}

func dlgTick(seq int) tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return dlgTickMsg{seq: seq} })
}

// Update implements ui.Screen.
func (d *Delegation) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case ui.Result[[]apiclient.ExternalWallet]:
		if msg.ID != d.extID {
			return d, nil
		}
		d.extLoading, d.extErr = false, msg.Err
		if msg.Err != nil {
			d.ext = nil
			if apiclient.IsStatus(msg.Err, 403) {
				return d, nil // shown on the screen
			}
			return d, failed("loading external wallets", msg.Err)
		}
		d.ext = msg.Value
	case ui.Result[apiclient.DelegationToken]:
		if msg.ID != d.tokID {
			return d, nil
		}
		return d, d.gotToken(msg)
	case ui.Result[apiclient.ChainConfig]:
		if d.chain != nil {
			return d, d.chain.loaded(msg)
		}
	case ui.Result[dlgApproved]:
		return d, d.approvalDone(msg)
	case dlgSendTokenMsg:
		return d, d.sendToken(msg.req)
	case dlgCancelTokenMsg:
		d.tokBusy = false
	case dlgSendApproval:
		return d, d.sendApproval(msg)
	case dlgCancelApproval:
		if d.appr != nil {
			d.appr.confirming = false
		}
	case dlgTickMsg:
		if d.last == nil || msg.seq != d.last.seq || d.last.used || d.last.left(d.deps.now()) <= 0 {
			return d, nil
		}
		return d, dlgTick(msg.seq)
	case ui.RefreshMsg:
		if d.chain != nil {
			return d, d.chain.load(d.deps)
		}
		return d, d.loadExternal()
	case ui.SignedOutMsg, ui.SessionExpiredMsg:
		// The next user must never see this one's token.
		*d = *NewDelegation(d.deps)
	case tea.KeyPressMsg:
		return d, d.handleKey(msg)
	}
	return d, nil
}

func (d *Delegation) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case d.form != nil:
		return d.formKey(msg)
	case d.appr != nil:
		return d.approvalKey(msg)
	case d.chain != nil:
		cmd, leave := d.chain.key(msg, d.deps)
		if leave {
			d.chain = nil
		}
		return cmd
	}
	if d.deps.ReadOnly && (msg.String() == "t" || msg.String() == "a") {
		return refuseReadOnly("requesting delegation tokens and post-approval")
	}
	switch {
	case key.Matches(msg, d.keys.Token):
		if d.tokBusy {
			return nil
		}
		d.form = newDlgTokenForm(d.deps.Styles, d.last)
		return d.form.focusCmd()
	case key.Matches(msg, d.keys.Approve):
		d.appr = newDlgApprovalForm(d.deps.Styles, d.last)
		return d.appr.focusCmd()
	case key.Matches(msg, d.keys.Chain):
		d.chain = newDlgChain(d.deps.Styles)
		return d.chain.load(d.deps)
	case key.Matches(msg, d.keys.Up):
		d.sel = max(d.sel-1, 0)
	case key.Matches(msg, d.keys.Down):
		d.sel = min(d.sel+1, len(d.copyables())-1)
	}
	return nil
}

// sendToken asks for the token; the faucet request was confirmed first.
func (d *Delegation) sendToken(req apiclient.DelegationTokenRequest) tea.Cmd {
	client := d.deps.Client
	d.tokBusy = true
	var cmd tea.Cmd
	d.tokID, cmd = ui.Go(d.deps.Requests, func(ctx context.Context) (apiclient.DelegationToken, error) {
		return client.DelegationToken(ctx, req)
	})
	if d.form != nil {
		d.form.sending = true
		d.form.sent = req
	}
	return cmd
}

func (d *Delegation) gotToken(msg ui.Result[apiclient.DelegationToken]) tea.Cmd {
	d.tokBusy = false
	if msg.Err != nil {
		if d.form != nil {
			d.form.failed(msg.Err)
		}
		// The faucet may have paid before the answer was lost: re-read.
		return tea.Batch(failed("requesting a delegation token", msg.Err), d.loadExternal())
	}
	req := msg.Value
	var asked apiclient.DelegationTokenRequest
	if d.form != nil {
		asked = d.form.sent
	}
	d.form = nil
	d.seq++
	d.last = &dlgIssued{tok: req, req: asked, issued: d.deps.now(), seq: d.seq}
	d.sel = 0
	note := ui.Notify(theme.ToneOK, "delegation token issued")
	if req.FaucetFailed() {
		note = ui.Notify(theme.ToneWarn, "token issued; the faucet did not pay")
	}
	// The faucet may have paid: show what the gateway now says.
	return tea.Batch(note, dlgTick(d.seq), d.loadExternal())
}

// copyables are the values y can copy from the token panel, in panel order.
func (d *Delegation) copyables() []dlgCopy {
	if d.last == nil {
		return nil
	}
	out := []dlgCopy{{"delegation token", d.last.tok.Token}, {"nonce", d.last.tok.Nonce}}
	if f := d.last.tok.Faucet; f != nil && f.TransactionHash != "" {
		out = append(out, dlgCopy{"faucet transaction hash", f.TransactionHash})
	}
	return out
}

type dlgCopy struct{ label, value string }

// CopyValue implements ui.Copier: the selected value of the token panel,
// the selected network's contract or token address in the chain browser.
func (d *Delegation) CopyValue() (label, value string, ok bool) {
	if d.chain != nil {
		return d.chain.copyValue()
	}
	c := d.copyables()
	if len(c) == 0 {
		return "", "", false
	}
	v := c[min(d.sel, len(c)-1)]
	return v.label, v.value, v.value != ""
}

// View implements ui.Screen.
func (d *Delegation) View(width, height int) string {
	switch {
	case d.form != nil:
		return place(d.form.view(width), width, height)
	case d.appr != nil:
		return place(d.appr.view(width, height), width, height)
	case d.chain != nil:
		return d.chain.view(width, height)
	}
	return place(d.mainView(width), width, height)
}
