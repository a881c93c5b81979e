package delegation

import (
	"context"
	"errors"
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
)

// openApproval opens the post-approval form, prefilled with the last
// unused token, its nonce and the network and address it was asked for.
// Field keys are the wire names, so the gateway's 422 shows on the field
// it names; what was typed survives a refusal.
func (s *Screen) openApproval() tea.Cmd {
	network, address, token, nonce := "linea", "", "", ""
	lines := []string{"Send it after the on-chain approval; the network decides the chain (evm or solana)."}
	if last := s.issued; last != nil {
		if last.asked.network != "" {
			network = last.asked.network
		}
		address = last.asked.request.Address
		if !last.used {
			token, nonce = last.token.Token, last.token.Nonce
		}
	}
	if token == "" {
		lines = append(lines, "No unused delegation token: esc, then t requests one (or paste a token and its nonce).")
	}
	f := form.New(s.Deps.Styles, form.Spec{
		Title:  "Post-approval",
		Lines:  lines,
		Submit: "review and send",
		Fields: []form.Field{
			{Key: "network", Label: "Network", Value: network, Placeholder: "linea, ethereum, etherlink, solana…"},
			{Key: "currency", Label: "Currency", Value: "usdc", Placeholder: "usdc"},
			{Key: "amount", Label: "Amount", Placeholder: "decimal, e.g. 150.00"},
			{Key: "address", Label: "Address", Value: address, Placeholder: "the approving wallet"},
			{Key: "txHash", Label: "Tx hash", Placeholder: "0x + 64 hex (base58 on solana)"},
			{Key: "sigHash", Label: "Sig hash", Placeholder: "0x + 64 or 130 hex (base58 on solana)"},
			{Key: "sigMessage", Label: "Sig message", Placeholder: "the message that was signed"},
			{Key: "token", Label: "Token", Value: token, Kind: form.FieldSecret, Placeholder: "from t"},
			{Key: "nonce", Label: "Nonce", Value: nonce, Placeholder: "from t"},
		},
	})
	return s.openFormLayer(f, s.sendApproval, s.approval.Running, approvalFormAnswered, f.Focus())
}

// approvalRequest is the form's post-approval and its chain (evm or
// solana, from the network).
func approvalRequest(f *form.Form) (string, apiclient.PostApprovalRequest) {
	r := apiclient.PostApprovalRequest{
		Network: strings.ToLower(f.Value("network")), Currency: strings.ToLower(f.Value("currency")), Amount: f.Value("amount"),
		Address: f.Value("address"), TxHash: f.Value("txHash"), SigHash: f.Value("sigHash"), SigMessage: f.Value("sigMessage"),
		Token: f.Value("token"), Nonce: f.Value("nonce"),
	}
	return apiclient.ChainOf(r.Network), r
}

// sendApproval checks the form field by field before the confirmation.
func (s *Screen) sendApproval(f *form.Form) tea.Cmd {
	chain, r := approvalRequest(f)
	if problems := apiclient.ValidatePostApproval(chain, r); len(problems) > 0 {
		return f.SetErrors("Fix the marked fields; nothing was sent.", screenkit.FieldErrors(problems))
	}
	return s.askApproval(chain, r)
}

// approvalFormAnswered is how the post-approval ended, told to its form:
// a success closes it; a refusal shows on it, every value kept.
func approvalFormAnswered(f *form.Form, msg tea.Msg) (tea.Cmd, bool) {
	answer, ok := msg.(approvalAnswer)
	if !ok {
		return nil, false
	}
	f.SetBusy(false)
	if answer.err == nil {
		return nil, true
	}
	return approvalRefused(f, answer.err), false
}

// askApproval confirms the post-approval with the exact request, token
// masked; it uses the token (single use) and registers the wallet.
func (s *Screen) askApproval(chain string, r apiclient.PostApprovalRequest) tea.Cmd {
	client := s.Deps.Client
	return s.approval.Ask(ui.ChangeSpec[approved]{
		Title:        "Send the post-approval?",
		Request:      apiclient.PostApprovalCall(chain, r).Lines(),
		Lines:        []string{"This uses the delegation token (single use; shown masked) and registers the address as your external wallet."},
		ConfirmLabel: "send",
		Tone:         theme.ToneWarn,
		What:         "post-approval",
		Done:         "delegation registered: " + r.Address + " is your external wallet",
		Run: func(ctx context.Context) (approved, error) {
			return approved{address: r.Address, token: r.Token}, client.PostApproval(ctx, chain, r)
		},
	})
}

// approvalAnswered tells the form how the post-approval ended and marks
// the token used; the external wallets are read again either way.
func (s *Screen) approvalAnswered(res ui.ChangeResult[approved]) tea.Cmd {
	reload := s.loadExternal()
	told := tell(approvalAnswer{err: res.Err})
	if res.Err != nil {
		return tea.Batch(screenkit.Report(res), reload, told)
	}
	if s.issued != nil && s.issued.token.Token == res.Value.token {
		s.issued.used = true
	}
	return tea.Batch(screenkit.Report(res), reload, told)
}

// approvalRefused shows a refusal on the form: a 422's field errors on
// their fields, anything else under the form with what to do next. (A 401
// ends the session through the change's report.)
func approvalRefused(form *form.Form, err error) tea.Cmd {
	var apiErr *apiclient.Error
	if errors.As(err, &apiErr) && len(apiErr.Fields) > 0 && !apiclient.IsUnauthorized(err) {
		return screenkit.FormFailed(form, "post-approval", err)
	}
	if errors.Is(err, context.Canceled) {
		form.SetProblem("Cancelled: the gateway may have registered it all the same; the external wallets below the form are read again. Your values are kept.")
		return nil
	}
	problem := "The gateway refused: " + apiclient.ErrorMessage(err) + ". Nothing was registered; your values are kept."
	if apiclient.IsStatus(err, 400) {
		problem += " A used or expired token needs a new one: esc, then t."
	}
	form.SetProblem(problem)
	return nil
}
