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

// tokenRequest is the token form, a ui.SubView: with an address the
// faucet sends gas to it (a mutation, confirmed first); without one only
// a token is asked for. What was typed stays on failure.
type tokenRequest struct {
	screenkit.FormPanel
	submit func(tokenAsk) tea.Cmd
	height int
}

func newTokenRequest(st *theme.Styles, requests ui.Owner, last *tokenPanel, submit func(tokenAsk) tea.Cmd) *tokenRequest {
	network, address := apiclient.FaucetNetworks[0], ""
	if last != nil {
		network, address = last.asked.network, last.asked.request.Address
	}
	form := form.New(st, form.Spec{
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
	return &tokenRequest{FormPanel: screenkit.FormPanel{Form: form, Requests: requests}, submit: submit}
}

// Update implements ui.SubView. esc while the request is on its way
// cancels it (the form stays with what was typed); otherwise it closes.
func (v *tokenRequest) Update(msg tea.Msg) (ui.SubView, tea.Cmd) {
	event, closed, cmd := v.HandleForm(msg)
	if closed {
		return nil, nil
	}
	switch event {
	case form.Submit:
		return v, v.send()
	}
	return v, cmd
}

// send checks the faucet's network and address before anything is sent.
func (v *tokenRequest) send() tea.Cmd {
	network, address := strings.ToLower(v.Form.Value("network")), v.Form.Value("address")
	if address == "" {
		return v.submit(tokenAsk{network: network})
	}
	if !slices.Contains(apiclient.FaucetNetworks, network) {
		return v.Form.SetErrors("", []form.FieldError{{Field: "network", Message: "the faucet pays on " + strings.Join(apiclient.FaucetNetworks, ", ")}})
	}
	if err := apiclient.ValidateFaucetAddress(network, address); err != nil {
		return v.Form.SetErrors("", []form.FieldError{{Field: "address", Message: err.Error()}})
	}
	return v.submit(tokenAsk{network: network, request: apiclient.DelegationTokenRequest{Faucet: true, Network: network, Address: address}})
}

// SetSize implements ui.SubView.
func (v *tokenRequest) SetSize(width, height int) { v.Form.SetWidth(width); v.height = height }

// View implements ui.SubView.
func (v *tokenRequest) View() string { return fitForm(v.Form.View(), v.height) }

// askToken sends the form's request: with gas it is a change on the
// gateway, confirmed with the exact request first; without, a token is
// only read, at once.
func (s *Screen) askToken(ask tokenAsk) tea.Cmd {
	if s.faucet.Busy() || s.directID != 0 {
		return nil
	}
	client, r := s.Deps.Client, ask.request
	run := func(ctx context.Context) (issuedToken, error) {
		token, err := client.DelegationToken(ctx, r)
		return issuedToken{asked: ask, token: token}, err
	}
	if !r.Faucet {
		cmd := ui.Start(s.Requests, &s.directID, run)
		s.setFormBusy()
		return cmd
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

// tokenAnswered shows the new token, or keeps the form with what was typed
// and says why not. Either way the external wallets are read again: the
// faucet may have paid before an answer was lost.
func (s *Screen) tokenAnswered(answer issuedToken, err error) tea.Cmd {
	reload := s.loadExternal()
	if err != nil {
		if form, ok := s.open.(*tokenRequest); ok {
			if errors.Is(err, context.Canceled) {
				form.Form.SetProblem("Cancelled: no token was received. What you typed is kept.")
			} else {
				form.Form.SetProblem("The gateway refused: " + apiclient.ErrorMessage(err) + ". What you typed is kept.")
			}
		}
		return tea.Batch(screenkit.Failed("requesting a delegation token", err), reload)
	}
	if _, ok := s.open.(*tokenRequest); ok {
		s.open = nil
	}
	s.tokens++
	s.issued = newTokenPanel(s.Deps, answer, s.Deps.Clock(), s.tokens)
	s.issued.SetSize(s.Width, s.Height)
	note := ui.Notify(theme.ToneOK, "delegation token issued")
	if answer.token.FaucetFailed() {
		note = ui.Notify(theme.ToneWarn, "token issued; the faucet did not pay")
	}
	return tea.Batch(note, tick(s.tokens), reload)
}

// tickMsg redraws a token's countdown each second; only the latest
// token's ticks go on.
type tickMsg struct{ token int }

func tick(token int) tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return tickMsg{token: token} })
}
