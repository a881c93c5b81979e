package delegation

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
)

// tokenAsk is what the token form asked: the request sent, and the
// network typed, which prefills the post-approval even without gas.
type tokenAsk struct {
	request apiclient.DelegationTokenRequest
	network string
}

// openTokenRequest opens the token form: with an address the faucet
// sends gas to it (a mutation, confirmed first); without one only a token
// is asked for. What was typed stays on failure.
func (s *Screen) openTokenRequest() tea.Cmd {
	network, address := apiclient.FaucetNetworks[0], ""
	if last := s.issued; last != nil {
		network, address = last.asked.network, last.asked.request.Address
	}
	f := form.New(s.Deps.Styles, form.Spec{
		Title: "Request a delegation token",
		Lines: []string{
			"With an address, the faucet sends gas to it (once per user, across all networks); you confirm the request first.",
			"Leave the address empty for a token only: the network then only prefills the post-approval.",
		},
		Submit: "request",
		Fields: []form.Field{
			{Key: "network", Label: "Network", Value: network, CharLimit: 16, Placeholder: strings.Join(apiclient.FaucetNetworks, ", ")},
			{Key: "address", Label: "Address", Value: address, CharLimit: 64, Placeholder: "0x + 40 hex (base58 on solana); empty: no gas"},
		},
		Note: "A single-use token (about 10 minutes) and its nonce come back either way.",
	})
	// Both fields come filled (the network, the wallet or no gas): no
	// field is chosen, so the next printable key cannot land in one.
	return s.openFormLayer(f, s.sendToken, s.faucet.Running, tokenAnswered, f.FocusNothing())
}

// sendToken checks the faucet's network and address before anything is
// sent.
func (s *Screen) sendToken(f *form.Form) tea.Cmd {
	network, address := strings.ToLower(f.Value("network")), f.Value("address")
	if address == "" {
		return s.askToken(f, tokenAsk{network: network})
	}
	if !slices.Contains(apiclient.FaucetNetworks, network) {
		return f.SetErrors("", []form.FieldError{{Field: "network", Message: "the faucet pays on " + strings.Join(apiclient.FaucetNetworks, ", ")}})
	}
	if err := apiclient.ValidateFaucetAddress(network, address); err != nil {
		return f.SetErrors("", []form.FieldError{{Field: "address", Message: err.Error()}})
	}
	return s.askToken(f, tokenAsk{network: network, request: apiclient.DelegationTokenRequest{Faucet: true, Network: network, Address: address}})
}

// tokenAnswered is how the token request ended, told to its form: a
// token closes it; a failure keeps what was typed and says why.
func tokenAnswered(f *form.Form, msg tea.Msg) (tea.Cmd, bool) {
	answer, ok := msg.(tokenAnswer)
	if !ok {
		return nil, false
	}
	f.SetBusy(false)
	switch {
	case answer.err == nil:
		return nil, true
	case errors.Is(answer.err, context.Canceled):
		f.SetProblem("Cancelled: no token was received. What you typed is kept.")
	default:
		f.SetProblem("The gateway refused: " + apiclient.ErrorMessage(answer.err) + ". What you typed is kept.")
	}
	return nil, false
}

// askToken sends the form's request: with gas it is a change on the
// gateway, confirmed with the exact request first; without, a token is
// only read, at once, f busy meanwhile.
func (s *Screen) askToken(f *form.Form, ask tokenAsk) tea.Cmd {
	if s.faucet.Busy() || s.directID != 0 {
		return nil
	}
	client, r := s.Deps.Client, ask.request
	run := func(ctx context.Context) (issuedToken, error) {
		token, err := client.DelegationToken(ctx, r)
		return issuedToken{asked: ask, token: token}, err
	}
	if !r.Faucet {
		f.SetBusy(true)
		return ui.Start(s.Requests, &s.directID, run)
	}
	return s.faucet.Ask(ui.ChangeSpec[issuedToken]{
		Title:   "Request a delegation token with gas?",
		Request: apiclient.DelegationTokenCall(r).Lines(),
		Lines: []string{
			"The faucet sends gas to " + r.Address + " on " + r.Network + ". It pays once per user, across all networks.",
			"A single-use token (about 10 minutes) and its nonce come back either way.",
		},
		ConfirmLabel: "request",
		Tone:         theme.ToneWarn,
		What:         "requesting a delegation token",
		Run:          run,
	})
}

// tokenDone shows the new token, or keeps the form with what was typed
// and says why not (tokenAnswered). Either way the external wallets are read again: the
// faucet may have paid before an answer was lost.
func (s *Screen) tokenDone(answer issuedToken, err error) tea.Cmd {
	reload := s.loadExternal()
	told := tell(tokenAnswer{err: err})
	if err != nil {
		return tea.Batch(screenkit.Failed("requesting a delegation token", err), reload, told)
	}
	s.tokens++
	s.issued = newTokenPanel(s.Deps, answer, s.Deps.Clock(), s.tokens)
	s.issued.SetSize(s.Width)
	note := ui.Notify(theme.ToneOK, "delegation token issued")
	if answer.token.FaucetFailed() {
		note = ui.Notify(theme.ToneWarn, "token issued; the faucet did not pay")
	}
	return tea.Batch(note, tick(s.tokens), reload, told)
}

// tickMsg redraws a token's countdown each second; only the latest
// token's ticks go on.
type tickMsg struct{ token int }

func tick(token int) tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return tickMsg{token: token} })
}
