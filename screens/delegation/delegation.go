// Package delegation is the Delegation screen: single-use delegation
// tokens with the gas faucet, the chain configuration, and the
// post-approval that registers a non-custodial wallet as the user's
// external wallet.
package delegation

import (
	"cardterm/ui/keymap"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/ui"
)

// keyMap is the main view's bindings. t and a mutate (a token may draw gas
// from the faucet; the post-approval registers a wallet), so read-only
// mode disables them. The token panel's keys follow while a token shows.
type keyMap struct {
	Token, Chain, Approve key.Binding
	panel                 help.KeyMap
}

func newKeyMap(readOnly bool) keyMap {
	k := keyMap{
		Token:   keymap.Bind("delegation.token"),
		Chain:   keymap.Bind("delegation.chain"),
		Approve: keymap.Bind("delegation.approve"),
	}
	screenkit.DisableInReadOnly(readOnly, &k.Token, &k.Approve)
	return k
}

// ShortHelp implements help.KeyMap.
func (k keyMap) ShortHelp() []key.Binding {
	out := []key.Binding{k.Token, k.Chain, k.Approve}
	if k.panel != nil {
		out = append(out, k.panel.ShortHelp()...)
	}
	return out
}

// FullHelp implements help.KeyMap.
func (k keyMap) FullHelp() [][]key.Binding {
	out := [][]key.Binding{{k.Token, k.Chain, k.Approve}}
	if k.panel != nil {
		out = append(out, k.panel.FullHelp()...)
	}
	return out
}

// issuedToken is a token's answer with what was asked for it.
type issuedToken struct {
	asked tokenAsk
	token apiclient.DelegationToken
}

// approved is the answer of a post-approval: the address registered and
// the token it used.
type approved struct{ address, token string }

// Screen is screen 6: delegation tokens with the gas faucet, the chain
// configuration, and the post-approval.
type Screen struct {
	screenkit.Base
	keys keyMap

	// issued shows the last token; nil before the first.
	issued *tokenPanel
	// tokens numbers issued tokens, so an old token's countdown stops.
	tokens int

	// faucet is the token request with gas, a mutation confirmed first;
	// direct is a token without gas, sent at once.
	faucet   ui.Change[issuedToken]
	directID ui.RequestID
	approval ui.Change[approved]

	external        []screenkit.ExternalWallet // read as drawn when they arrive
	externalID      ui.RequestID
	externalLoading bool
	externalErr     error
	// externalRead counts the answers to the read, so the drawn list
	// knows when it is out of date.
	externalRead int

	// intro and wallets keep those parts of the main view (view.go).
	intro   screenkit.Piece[introKey]
	wallets screenkit.Piece[walletsKey]
}

// New builds the delegation screen.
func New(deps screenkit.Deps) *Screen {
	s := &Screen{Base: screenkit.NewBase(deps, screenkit.DelegationScreen, "Delegation"), keys: newKeyMap(deps.ReadOnly)}
	s.faucet, s.approval = ui.NewChange[issuedToken](s.Requests), ui.NewChange[approved](s.Requests)
	return s
}

// KeyMap implements ui.Screen: the main view's keys with the token
// panel's (the forms and the chain browser are layers with their own).
func (s *Screen) KeyMap() help.KeyMap {
	k := s.keys
	if s.issued != nil {
		k.panel = s.issued.KeyMap()
	}
	return k
}

// CapturesKeys implements ui.Screen: the main view has no inputs.
func (s *Screen) CapturesKeys() bool { return false }

// Enter loads the registered external wallets (the result of a completed
// delegation).
func (s *Screen) Enter() tea.Cmd { return s.loadExternal() }

func (s *Screen) loadExternal() tea.Cmd {
	s.externalLoading = true
	return ui.Start(s.Requests, &s.externalID, s.Deps.Client.ExternalWallets)
}

// Update implements ui.Screen.
func (s *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	if res, done, cmd := s.faucet.Update(msg); done {
		return s, s.tokenDone(res.Value, res.Err)
	} else if cmd != nil {
		return s, cmd
	}
	if res, done, cmd := s.approval.Update(msg); done {
		return s, s.approvalAnswered(res)
	} else if cmd != nil {
		return s, cmd
	}
	switch msg := msg.(type) {
	case ui.Result[[]apiclient.ExternalWallet]:
		return s, s.externalLoaded(msg)
	case ui.Result[issuedToken]:
		if msg.ID != s.directID {
			return s, nil
		}
		s.directID = 0
		return s, s.tokenDone(msg.Value, msg.Err)
	case tickMsg:
		if s.issued != nil {
			return s, s.issued.Update(msg)
		}
	case ui.RefreshMsg:
		return s, s.loadExternal()
	case tea.KeyPressMsg:
		return s, s.handleKey(msg)
	}
	return s, nil
}

func (s *Screen) externalLoaded(msg ui.Result[[]apiclient.ExternalWallet]) tea.Cmd {
	if msg.ID != s.externalID {
		return nil
	}
	s.externalLoading, s.externalErr = false, msg.Err
	s.externalRead++
	if msg.Err != nil {
		s.external = nil
		return screenkit.ReadFailed("loading external wallets", msg.Err, 403)
	}
	s.external = screenkit.ExternalWallets(msg.Value)
	return nil
}

// handleKey opens the forms and the chain browser (layers) or gives the
// token panel its keys.
func (s *Screen) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, s.keys.Token):
		return s.openTokenRequest()
	case key.Matches(msg, s.keys.Approve):
		return s.openApproval()
	case key.Matches(msg, s.keys.Chain):
		chain := newChainBrowser(s.Deps, s.Requests)
		return ui.OpenLayer(chain, chain.load())
	}
	if s.issued != nil {
		return s.issued.Update(msg)
	}
	return nil
}

// SetSize implements ui.Screen.
func (s *Screen) SetSize(width, height int) {
	s.Width, s.Height = width, height
	if s.issued != nil {
		s.issued.SetSize(width)
	}
}

// CopyValue implements ui.Copier: the selected value of the token panel
// (the chain browser offers its own).
func (s *Screen) CopyValue() (label, value string, ok bool) {
	if s.issued == nil {
		return "", "", false
	}
	return s.issued.copyValue()
}
