package wallets

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/domain/ledger"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/sanitize"
)

// The credit withdrawal follows the interface: the amount must not exceed
// the available balance, and what arrives is the amount minus the network
// fee, so the whole balance can be requested. The fee comes from the
// gateway's estimation, asked when the form opens and again for the
// amount typed (after a pause in typing, and before the confirmation if
// the amount changed since): a gateway that estimates for an amount (its
// answer names the amount) is never read for another one. The fee is read
// in any shape (usdc, fee, networkFee, nested); when it cannot be, the
// confirmation shows the estimation as the gateway sent it and says so,
// and the user may still confirm (the gateway decides).

// withdrawForm is the credit withdrawal form: the amount (a form.Form), and
// the fee estimation fetched when it opens.
type withdrawForm struct {
	form   *form.Form
	estID  ui.RequestID
	est    *apiclient.WithdrawEstimation
	estErr error
	// estFor is the amount est was asked for ("" for none); asking is
	// the amount of the request in flight; typed counts the pauses in
	// typing (estimateAfterTyping); confirmNext opens the confirmation
	// when the estimation for the amount arrives.
	estFor, asking string
	typed          int
	confirmNext    bool
}

// estimateTypedMsg is the pause after typing an amount: the estimation
// is asked for it when no key came since.
type estimateTypedMsg struct{ typed int }

// estimateAfterTyping is how long typing pauses before the estimation is
// asked for the amount.
const estimateAfterTyping = 400 * time.Millisecond

// withdrawal is a withdrawal that was sent: its amount, what arrives ("" when
// the fee could not be read) and the gateway's answer.
type withdrawal struct {
	amount, arrives string
	result          apiclient.WithdrawResult
}

// openWithdraw opens the form and fetches the fee estimation.
func (w *Screen) openWithdraw() tea.Cmd {
	switch {
	case !w.loaded[readCredit] && w.credit == nil:
		return ui.Notify(theme.ToneInfo, "the credit wallet is still loading")
	case w.credit == nil:
		return ui.Notify(theme.ToneInfo, "there is no credit wallet yet: nothing to withdraw")
	}
	form := form.New(w.Deps.Styles, form.Spec{
		Submit: "review the withdrawal",
		Fields: []form.Field{{Key: "amount", Label: "Amount (USDC)", Placeholder: "amount in USDC, e.g. 25.50",
			CharLimit: 24, Check: w.checkAmount}},
	})
	form.SetWidth(max(w.Width-2, 20))
	w.withdraw = withdrawForm{form: form}
	w.mode = modeWithdraw
	return tea.Batch(form.Focus(), w.estimate(""))
}

// estimate asks the estimation for amount ("" for none given).
func (w *Screen) estimate(amount string) tea.Cmd {
	client := w.Deps.Client
	var load tea.Cmd
	w.withdraw.asking = amount
	w.withdraw.estID, load = ui.Go(w.Requests, func(ctx context.Context) (apiclient.WithdrawEstimation, error) {
		return client.WithdrawEstimationFor(ctx, amount)
	})
	return load
}

// estimateMatches reports whether the estimation holds for amount: it
// was asked for it, or it names no amount of its own (a fee that does not
// depend on the amount).
func (f *withdrawForm) estimateMatches(amount string) bool {
	if f.est == nil {
		return false
	}
	if f.estFor == amount {
		return true
	}
	for _, name := range []string{"amount", "requestedAmount", "amount.value"} {
		if v := ledger.FieldAt(f.est.Raw.Fields(), name); v != "" {
			c, err := apiclient.CompareDecimal(v, amount)
			return err == nil && c == 0
		}
	}
	return true
}

// feeNames are the names an estimation's fee in USDC goes by, after the
// client's own (usdc).
var feeNames = []string{"fee", "networkFee", "feeAmount", "gasFee", "fees"}

// fee is the network fee in USDC read from the estimation, in the
// client's shape or another; ok false when it could not be read.
func (f *withdrawForm) fee() (string, bool) {
	if f.est == nil {
		return "", false
	}
	fee := strings.TrimSpace(string(f.est.USDC))
	if _, err := apiclient.CompareDecimal(fee, "0"); err == nil {
		return fee, true
	}
	m, ok := ledger.MoneyAt(f.est.Raw.Fields(), feeNames...)
	if !ok || m.Negative || (m.Currency != "" && !strings.EqualFold(m.Currency, "usdc")) {
		return "", false
	}
	return m.Value, true
}

// feeFor is the fee of a withdrawal of amount: only from an estimation
// that holds for it.
func (f *withdrawForm) feeFor(amount string) (string, bool) {
	if !f.estimateMatches(amount) {
		return "", false
	}
	return f.fee()
}

// estimationFields are the estimation's fields as the gateway sent them.
func (f *withdrawForm) estimationFields() []screenkit.Field {
	if f.est == nil {
		return nil
	}
	return screenkit.SentFields(f.est.Raw)
}

// updateWithdraw takes the estimation and the withdrawal's outcome.
func (w *Screen) updateWithdraw(msg tea.Msg) tea.Cmd {
	f := &w.withdraw
	if res, done, cmd := w.withdrawChange.Update(msg); done {
		reload := w.reload()
		if res.Err != nil {
			if w.mode == modeWithdraw && f.form != nil {
				// The form keeps the amount; the gateway's own words say why.
				f.form.SetBusy(false)
				f.form.SetProblem(withdrawProblem(res.Err))
			}
			return tea.Batch(screenkit.Failed("withdrawal", res.Err), reload)
		}
		w.last = res.Value
		w.mode = modeOverview
		return tea.Batch(ui.Notify(theme.ToneOK, "withdrawal sent: tx "+sanitize.Text(res.Value.result.TxHash)), reload)
	} else if cmd != nil {
		return cmd
	}
	switch msg := msg.(type) {
	case estimateTypedMsg:
		if msg.typed == f.typed && f.form != nil {
			if amount := f.form.Value("amount"); apiclient.ValidDecimalAmount(amount) == nil && amount != f.estFor && amount != f.asking {
				return w.estimate(amount)
			}
		}
	case ui.Result[apiclient.WithdrawEstimation]:
		if msg.ID != f.estID {
			return nil
		}
		f.estErr = msg.Err
		if msg.Err != nil {
			f.confirmNext = false
			if f.form != nil {
				f.form.SetBusy(false)
			}
			return screenkit.Failed("loading the withdrawal fee", msg.Err)
		}
		f.est, f.estFor = &msg.Value, f.asking
		if f.confirmNext && f.form != nil {
			// The estimation for the amount that was submitted: the
			// confirmation opens now, unless the amount changed since.
			f.confirmNext = false
			f.form.SetBusy(false)
			amount := f.form.Value("amount")
			if amount != f.estFor {
				return nil
			}
			if problem := w.checkAmount(amount); problem != "" {
				return f.form.SetErrors("", []form.FieldError{{Field: "amount", Message: problem}})
			}
			return w.askWithdraw(amount)
		}
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
		return "Insufficient balance: the amount must not exceed the available balance. (" + m + ")"
	case strings.Contains(low, "external wallet"):
		return "No external wallet is registered: withdrawals are sent to it. Complete the delegation first. (" + m + ")"
	case strings.Contains(low, "invalid amount"):
		return "Invalid amount. (" + m + ")"
	case strings.Contains(low, "not allowed"), apiclient.IsStatus(err, 403):
		return "Withdrawal not allowed for this wallet. (" + m + ")"
	}
	return "The withdrawal failed: " + m
}

// checkAmount is the client-side check of an amount; "" means it may be
// sent. A balance or fee the client cannot read is left to the gateway.
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
	fee, feeKnown := f.feeFor(amount)
	if feeKnown {
		if c, _ := apiclient.CompareDecimal(amount, fee); c <= 0 {
			return "the amount must be greater than the network fee of " + fee + " USDC"
		}
	}
	balance := w.creditBalance()
	if c, err := apiclient.CompareDecimal(amount, balance); err == nil && c > 0 {
		// The gateway counts the amount and the fee against the balance:
		// the refusal names both.
		if total, err := apiclient.AddDecimal(amount, fee); feeKnown && err == nil {
			return fmt.Sprintf("insufficient balance: %s USDC available, %s USDC requested plus the network fee of %s USDC (%s USDC)", balance, amount, fee, total)
		}
		return fmt.Sprintf("insufficient balance: %s USDC available, %s USDC requested plus the network fee", balance, amount)
	}
	return ""
}

// formKey passes a key to the form; a valid amount opens the confirmation.
func (w *Screen) withdrawKey(msg tea.KeyPressMsg) tea.Cmd {
	f := &w.withdraw
	event, cmd := f.form.Update(msg)
	switch event {
	case form.Cancel:
		if w.withdrawChange.Running() {
			return nil // the request is on its way; its answer will show
		}
		w.mode = modeOverview
		return nil
	case form.Submit:
		amount := f.form.Value("amount")
		if !f.estimateMatches(amount) {
			// The estimation is for another amount: ask for this one,
			// and confirm when it answers.
			f.confirmNext = true
			f.form.SetBusy(true)
			return w.estimate(amount)
		}
		return w.askWithdraw(amount)
	}
	if amount := f.form.Value("amount"); amount != f.estFor && apiclient.ValidDecimalAmount(amount) == nil {
		f.typed++
		typed := f.typed
		return tea.Batch(cmd, tea.Tick(estimateAfterTyping, func(time.Time) tea.Msg { return estimateTypedMsg{typed: typed} }))
	}
	return cmd
}

// askWithdraw opens the confirmation of a checked amount: the request, the
// fee and what arrives, or the estimation as sent when its fee is unreadable.
func (w *Screen) askWithdraw(amount string) tea.Cmd {
	f := &w.withdraw
	lines := []string{"Amount:       " + amount + " USDC"}
	fee, feeKnown := f.feeFor(amount)
	arrives := ""
	if feeKnown {
		arrives, _ = apiclient.SubDecimal(amount, fee)
		feeLine := "Network fee:  " + fee + " USDC"
		if f.est.ETH != "" {
			feeLine += " (" + string(f.est.ETH) + " ETH)"
		}
		lines = append(lines, feeLine, "Will arrive:  "+arrives+" USDC")
	} else {
		lines = append(lines, "The network fee could not be read from the gateway's estimation, which said:")
		for _, fl := range f.estimationFields() {
			lines = append(lines, "  "+fl.Label+": "+fl.Value)
		}
		lines = append(lines, "Will arrive:  the amount minus the network fee")
	}
	if address, network, ok := w.externalTarget(); ok {
		lines = append(lines, "To:           "+address+" ("+network+")")
	} else {
		lines = append(lines, "To:           the registered external wallet")
	}
	if after, err := apiclient.SubDecimal(w.creditBalance(), amount); err == nil {
		lines = append(lines, "Credit balance after: "+after+" USDC")
	}
	client := w.Deps.Client
	return w.withdrawChange.Ask(ui.ChangeSpec[withdrawal]{
		Title:        "Withdraw " + amount + " USDC?",
		Request:      apiclient.WithdrawCall(amount).Lines(),
		Lines:        lines,
		ConfirmLabel: "withdraw",
		Tone:         theme.ToneWarn,
		What:         "withdrawal",
		Run: func(ctx context.Context) (withdrawal, error) {
			res, err := client.Withdraw(ctx, amount)
			return withdrawal{amount: amount, arrives: arrives, result: res}, err
		},
	})
}

// withdrawView draws the form with the balance, the fee and the target.
func (w *Screen) withdrawView(width int) string {
	st := w.Deps.Styles
	f := &w.withdraw
	var b strings.Builder
	b.WriteString(st.Title.Render("Withdraw from the credit wallet") + "\n\n")
	fields := []screenkit.Field{}
	if w.credit != nil {
		fields = append(fields, screenkit.Field{Label: "Balance", Value: dashIfEmpty(w.creditBalance()) + " USDC"})
	}
	amount := f.form.Value("amount")
	fee, feeKnown := f.fee()
	switch {
	case feeKnown && f.estFor != "" && !f.estimateMatches(amount):
		fields = append(fields, screenkit.Field{Label: "Network fee", Styled: st.Muted.Render("estimating for " + sanitize.Text(amount) + " USDC…")})
		feeKnown = false
	case feeKnown:
		v := fee + " USDC"
		// The gas in ETH helps; the same in wei is the wire's unit, for
		// the inspector (i), not for reading.
		if f.est.ETH != "" {
			v += " (" + string(f.est.ETH) + " ETH of gas)"
		}
		fields = append(fields, screenkit.Field{Label: "Network fee", Value: v})
	case f.est != nil:
		fields = append(fields, screenkit.Field{Label: "Network fee", Styled: st.Text(theme.ToneWarn).Render("could not be read; the gateway's estimation:")})
		for _, fl := range f.estimationFields() {
			fields = append(fields, screenkit.Field{Label: "  " + fl.Label, Value: fl.Value})
		}
	case f.estErr != nil:
		fields = append(fields, screenkit.Field{Label: "Network fee", Styled: st.Text(theme.ToneDanger).Render("unknown: " + sanitize.Text(apiclient.ErrorMessage(f.estErr)))})
	default:
		fields = append(fields, screenkit.Field{Label: "Network fee", Styled: st.Muted.Render("estimating…")})
	}
	if address, network, ok := w.externalTarget(); ok {
		fields = append(fields, screenkit.Field{Label: "To", Value: address + " (" + network + ")"})
	}
	b.WriteString(screenkit.RenderFields(st, fields, width) + "\n\n")
	b.WriteString(f.form.View() + "\n")
	if amount != "" && feeKnown && f.estimateMatches(amount) && apiclient.ValidDecimalAmount(amount) == nil {
		if arrives, err := apiclient.SubDecimal(amount, fee); err == nil && !strings.HasPrefix(arrives, "-") {
			b.WriteString(st.Muted.Render("will arrive: "+arrives+" USDC (amount minus the network fee)") + "\n")
		}
	}
	if w.withdrawChange.Running() {
		b.WriteString(st.Muted.Render("Sending the withdrawal…") + "\n")
	}
	return b.String()
}
