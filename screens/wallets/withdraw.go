package wallets

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
)

// withdrawForm is the credit withdrawal form: an amount typed as text,
// checked against the balance, the fee and isWithdrawable before sending.
type withdrawForm struct {
	input   textinput.Model
	estID   ui.RequestID
	est     *apiclient.WithdrawEstimation
	estErr  error
	sendID  ui.RequestID
	pending string // amount being confirmed or sent; "" when idle
	sending bool
	// problem is the last refusal, by us or the gateway.
	problem string
}

// withdrawConfirmMsg and withdrawCancelMsg come back from the dialog.
type (
	withdrawConfirmMsg struct{ amount string }
	withdrawCancelMsg  struct{}
)

// openWithdraw opens the form and fetches the fee estimation.
func (w *Screen) openWithdraw() tea.Cmd {
	switch {
	case !w.loaded[readCredit] && w.credit == nil:
		return ui.Notify(theme.ToneInfo, "the credit wallet is still loading")
	case w.credit == nil:
		return ui.Notify(theme.ToneInfo, "there is no credit wallet yet: nothing to withdraw")
	}
	in := screenkit.NewInput(w.deps.Styles)
	in.Prompt = ""
	in.Placeholder = "amount in USDC, e.g. 25.50"
	in.CharLimit = 24
	in.SetWidth(30)
	w.withdraw = withdrawForm{input: in}
	w.mode = modeWithdraw
	client := w.deps.Client
	var load tea.Cmd
	w.withdraw.estID, load = ui.Go(w.requests, func(ctx context.Context) (apiclient.WithdrawEstimation, error) {
		return client.WithdrawEstimation(ctx)
	})
	return tea.Batch(w.withdraw.input.Focus(), load)
}

func (w *Screen) updateWithdraw(msg tea.Msg) tea.Cmd {
	f := &w.withdraw
	switch msg := msg.(type) {
	case ui.Result[apiclient.WithdrawEstimation]:
		if msg.ID != f.estID {
			return nil
		}
		f.estErr = msg.Err
		if msg.Err == nil {
			f.est = &msg.Value
			return nil
		}
		return screenkit.Failed("loading the withdrawal fee", msg.Err)
	case withdrawConfirmMsg:
		if w.mode != modeWithdraw || f.pending != msg.amount || f.sending {
			return nil
		}
		f.sending = true
		client := w.deps.Client
		amount := msg.amount
		var cmd tea.Cmd
		f.sendID, cmd = ui.Go(w.requests, func(ctx context.Context) (apiclient.WithdrawResult, error) {
			return client.Withdraw(ctx, amount)
		})
		return cmd
	case withdrawCancelMsg:
		f.pending = ""
		return nil
	case ui.Result[apiclient.WithdrawResult]:
		if msg.ID != f.sendID {
			return nil
		}
		amount := f.pending
		f.sending, f.pending = false, ""
		reload := w.reload()
		if msg.Err != nil {
			f.problem = withdrawProblem(msg.Err)
			return tea.Batch(screenkit.Failed("withdrawal", msg.Err), reload)
		}
		w.lastTx = msg.Value.TxHash
		w.lastTxAmount = amount
		w.lastTxArrives = ""
		if f.est != nil {
			w.lastTxArrives, _ = apiclient.SubDecimal(amount, string(f.est.USDC))
		}
		w.mode = modeOverview
		return tea.Batch(ui.Notify(theme.ToneOK, "withdrawal sent: tx "+msg.Value.TxHash), reload)
	}
	return nil
}

// withdrawProblem names each failure the interface lists in its own words,
// with the gateway's message.
func withdrawProblem(err error) string {
	m := apiclient.ErrorMessage(err)
	low := strings.ToLower(m)
	switch {
	case strings.Contains(low, "in progress"):
		return "Another withdrawal is still in progress for this wallet; try again when it has settled. (" + m + ")"
	case strings.Contains(low, "insufficient"):
		return "Insufficient balance: the balance must cover the amount plus the network fee. (" + m + ")"
	case strings.Contains(low, "external wallet"):
		return "No external wallet is registered: withdrawals are sent to it. Complete the delegation first. (" + m + ")"
	case strings.Contains(low, "invalid amount"):
		return "Invalid amount. (" + m + ")"
	case strings.Contains(low, "not allowed"), apiclient.IsStatus(err, 403):
		return "Withdrawal not allowed for this wallet. (" + m + ")"
	}
	return "The withdrawal failed: " + m
}

// check is the client-side check of an amount; "" means it may be sent.
func (w *Screen) checkAmount(amount string) string {
	f := &w.withdraw
	cw := w.credit
	if err := apiclient.ValidDecimalAmount(amount); err != nil {
		return err.Error()
	}
	switch {
	case cw == nil:
		return "there is no credit wallet"
	case !cw.IsWithdrawable:
		return "withdrawal not allowed: the gateway marks this credit wallet as not withdrawable"
	case w.loaded[readExternal] && w.errs[readExternal] == nil && len(w.external) == 0:
		return "no external wallet registered: withdrawals are sent to it; complete the delegation first"
	case f.est == nil && f.estErr == nil:
		return "waiting for the network fee estimation"
	case f.est == nil:
		return "the network fee is unknown (" + apiclient.ErrorMessage(f.estErr) + "); press esc and try again"
	}
	fee := string(f.est.USDC)
	if c, err := apiclient.CompareDecimal(amount, fee); err != nil {
		return "the gateway's fee estimation is unreadable"
	} else if c <= 0 {
		return "the amount must be greater than the network fee of " + fee + " USDC"
	}
	need, _ := apiclient.AddDecimal(amount, fee)
	if c, err := apiclient.CompareDecimal(need, string(cw.Balance)); err != nil {
		return "the credit balance is unreadable"
	} else if c > 0 {
		return fmt.Sprintf("insufficient balance: %s USDC available, amount plus fee is %s USDC", cw.Balance, need)
	}
	return ""
}

func (w *Screen) withdrawKey(msg tea.KeyPressMsg) tea.Cmd {
	f := &w.withdraw
	switch {
	case key.Matches(msg, w.keys.Back):
		if f.sending {
			return nil // the request is on its way; its answer will show
		}
		w.mode = modeOverview
		f.pending = ""
		return nil
	case key.Matches(msg, w.keys.Submit):
		if f.pending != "" || f.sending {
			return nil // a confirmation is open or the request is in flight
		}
		amount := strings.TrimSpace(f.input.Value())
		if p := w.checkAmount(amount); p != "" {
			f.problem = p
			return nil
		}
		f.problem = ""
		f.pending = amount
		fee := string(f.est.USDC)
		arrives, _ := apiclient.SubDecimal(amount, fee)
		after, _ := apiclient.SubDecimal(string(w.credit.Balance), amount)
		to := "the registered external wallet"
		if len(w.external) > 0 {
			to = ui.Sanitize(w.external[0].Address) + " (" + ui.Sanitize(w.external[0].Network) + ")"
		}
		return ui.Confirm(ui.ConfirmSpec{
			Title:   "Withdraw " + amount + " USDC?",
			Request: []string{"POST /v1/wallet/credit/withdraw", fmt.Sprintf(`{"amount":"%s"}`, amount)},
			Lines: []string{
				"Amount:       " + amount + " USDC",
				"Network fee:  " + fee + " USDC (" + string(f.est.ETH) + " ETH)",
				"Will arrive:  " + arrives + " USDC",
				"To:           " + to,
				"Credit balance after: " + after + " USDC",
			},
			ConfirmLabel: "withdraw",
			Tone:         theme.ToneWarn,
			OnConfirm:    withdrawConfirmMsg{amount: amount},
			OnCancel:     withdrawCancelMsg{},
		})
	}
	if f.sending {
		return nil
	}
	var cmd tea.Cmd
	f.input, cmd = f.input.Update(msg)
	f.problem = ""
	return cmd
}

func (w *Screen) withdrawView(width int) string {
	st := w.deps.Styles
	f := &w.withdraw
	var b strings.Builder
	b.WriteString(st.Title.Render("Withdraw from the credit wallet") + "\n\n")
	fields := []screenkit.Field{}
	if w.credit != nil {
		fields = append(fields, screenkit.Field{Label: "Balance", Value: string(w.credit.Balance) + " USDC"})
	}
	switch {
	case f.est != nil:
		fields = append(fields, screenkit.Field{Label: "Network fee", Value: fmt.Sprintf("%s USDC (%s ETH, %s wei)", f.est.USDC, f.est.ETH, f.est.Wei)})
	case f.estErr != nil:
		fields = append(fields, screenkit.Field{Label: "Network fee", Styled: st.Text(theme.ToneDanger).Render("unknown: " + ui.Sanitize(apiclient.ErrorMessage(f.estErr)))})
	default:
		fields = append(fields, screenkit.Field{Label: "Network fee", Styled: st.Muted.Render("estimating…")})
	}
	if len(w.external) > 0 {
		fields = append(fields, screenkit.Field{Label: "To", Value: w.external[0].Address + " (" + w.external[0].Network + ")"})
	}
	b.WriteString(screenkit.RenderFields(st, fields, width) + "\n\n")
	b.WriteString(st.Label.Render("Amount (USDC)") + "\n")
	b.WriteString(st.InputFocused.Render(f.input.View()) + "\n")
	amount := strings.TrimSpace(f.input.Value())
	if amount != "" && f.est != nil && apiclient.ValidDecimalAmount(amount) == nil {
		if arrives, err := apiclient.SubDecimal(amount, string(f.est.USDC)); err == nil {
			b.WriteString(st.Muted.Render("will arrive: "+arrives+" USDC (amount minus the network fee)") + "\n")
		}
	}
	switch {
	case f.sending:
		b.WriteString(st.Muted.Render("Sending the withdrawal…") + "\n")
	case f.problem != "":
		b.WriteString(st.Text(theme.ToneDanger).Width(max(width-2, 20)).Render(ui.Sanitize(f.problem)) + "\n")
	}
	b.WriteString("\n" + st.Muted.Render("enter reviews the withdrawal · esc goes back"))
	return b.String()
}
