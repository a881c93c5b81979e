package wallets

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
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

// withdrawLayer is the credit withdrawal form, a layer on the root's
// stack over the screen: the amount, and the fee estimation it asks for
// when it opens and for the amount typed. The withdrawal itself is the
// screen's change (withdrawChange), whose outcome comes back as
// withdrawAnswered.
type withdrawLayer struct {
	*screenkit.FormLayer
	w *Screen

	// estID is the estimation asked last; estimating says it is on its
	// way (esc cancels it).
	estID      ui.RequestID
	estimating bool
	est        *apiclient.WithdrawEstimation
	estErr     error
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

// withdrawAnswered tells the form how the withdrawal it asked for ended:
// a success closes it, a refusal shows on it.
type withdrawAnswered struct{ err error }

// openWithdraw opens the form and asks for the fee estimation.
func (w *Screen) openWithdraw() tea.Cmd {
	switch {
	case !w.loaded[readCredit] && w.credit == nil:
		return ui.Notify(theme.ToneInfo, "the credit wallet is still loading")
	case w.credit == nil:
		return ui.Notify(theme.ToneInfo, "there is no credit wallet yet: nothing to withdraw")
	}
	l := &withdrawLayer{w: w}
	amount := form.New(w.Deps.Styles, form.Spec{
		Submit: "review the withdrawal",
		Fields: []form.Field{{Key: "amount", Label: "Amount (USDC)", Placeholder: "amount in USDC, e.g. 25.50",
			CharLimit: 24, Check: l.checkAmount}},
	})
	l.FormLayer = &screenkit.FormLayer{Form: amount, Requests: w.Requests, Submit: l.submit, Answer: l.answer, Draw: l.draw}
	return ui.OpenLayer(l, amount.Focus(), l.estimate(""))
}

// estimate asks the estimation for amount ("" for none given), in place
// of any still on its way.
func (l *withdrawLayer) estimate(amount string) tea.Cmd {
	client := l.w.Deps.Client
	l.cancelEstimate()
	l.asking, l.estimating = amount, true
	var load tea.Cmd
	l.estID, load = ui.Go(l.w.Requests, func(ctx context.Context) (apiclient.WithdrawEstimation, error) {
		return client.WithdrawEstimationFor(ctx, amount)
	})
	return load
}

// cancelEstimate cancels the estimation on its way, if any; the screen's
// own reads go on.
func (l *withdrawLayer) cancelEstimate() {
	if l.estimating {
		l.w.Requests.CancelOne(l.estID)
		l.estimating = false
	}
}

// Update implements layer.Layer: while the withdrawal is on its way no
// key does anything, esc included (its outcome is told, never abandoned);
// esc otherwise closes the form, cancelling the estimation in flight; a
// change to the amount asks for its estimation after a pause in typing.
func (l *withdrawLayer) Update(msg tea.Msg) tea.Cmd {
	_, isKey := msg.(tea.KeyPressMsg)
	_, isPaste := msg.(tea.PasteMsg)
	if (isKey || isPaste) && l.w.withdrawChange.Running() {
		return nil
	}
	if press, ok := msg.(tea.KeyPressMsg); ok && key.Matches(press, l.Form.KeyMap().(form.KeyMap).Cancel) {
		// The form is busy only waiting for the estimation: esc stops
		// that one request, never the screen's others.
		l.cancelEstimate()
		l.confirmNext = false
		l.Form.SetBusy(false)
	}
	before := l.Form.Value("amount")
	cmd := l.FormLayer.Update(msg)
	if l.Done() {
		l.cancelEstimate()
		return cmd
	}
	amount := l.Form.Value("amount")
	if (isKey || isPaste) && amount != before && amount != l.estFor && apiclient.ValidDecimalAmount(amount) == nil {
		l.typed++
		typed := l.typed
		return tea.Batch(cmd, tea.Tick(estimateAfterTyping, func(time.Time) tea.Msg { return estimateTypedMsg{typed: typed} }))
	}
	return cmd
}

// Inspect implements ui.Inspectable: the fee estimation as the gateway
// sent it.
func (l *withdrawLayer) Inspect() (string, []byte, bool) {
	if l.est == nil {
		return "", nil, false
	}
	return screenkit.Inspected("withdrawal fee estimation", l.est.Raw)
}

// estimateMatches reports whether the estimation holds for amount: it
// was asked for it, or it names no amount of its own (a fee that does not
// depend on the amount).
func (l *withdrawLayer) estimateMatches(amount string) bool {
	if l.est == nil {
		return false
	}
	if l.estFor == amount {
		return true
	}
	for _, name := range []string{"amount", "requestedAmount", "amount.value"} {
		if v := ledger.FieldAt(l.est.Raw.Fields(), name); v != "" {
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
func (l *withdrawLayer) fee() (string, bool) {
	if l.est == nil {
		return "", false
	}
	fee := strings.TrimSpace(string(l.est.USDC))
	if _, err := apiclient.CompareDecimal(fee, "0"); err == nil {
		return fee, true
	}
	m, ok := ledger.MoneyAt(l.est.Raw.Fields(), feeNames...)
	if !ok || m.Negative || (m.Currency != "" && !strings.EqualFold(m.Currency, "usdc")) {
		return "", false
	}
	return m.Value, true
}

// feeFor is the fee of a withdrawal of amount: only from an estimation
// that holds for it.
func (l *withdrawLayer) feeFor(amount string) (string, bool) {
	if !l.estimateMatches(amount) {
		return "", false
	}
	return l.fee()
}

// estimationFields are the estimation's fields as the gateway sent them.
func (l *withdrawLayer) estimationFields() []screenkit.Field {
	if l.est == nil {
		return nil
	}
	return screenkit.SentFields(l.est.Raw)
}

// withdrawn tells the form how the withdrawal ended, shows the
// transaction on success, and re-reads the wallets (the new balance).
func (w *Screen) withdrawn(res ui.ChangeResult[withdrawal]) tea.Cmd {
	answered := withdrawAnswered{err: res.Err}
	tell := func() tea.Msg { return answered }
	if res.Err != nil {
		return tea.Batch(tell, screenkit.Failed("withdrawal", res.Err), w.reload())
	}
	w.last = res.Value
	return tea.Batch(tell, ui.Notify(theme.ToneOK, "withdrawal sent: tx "+sanitize.Text(res.Value.result.TxHash)), w.reload())
}

// answer takes the pause after typing, the estimation, and the
// withdrawal's outcome: a refusal keeps the amount and shows the
// gateway's own words on the form; a success closes it.
func (l *withdrawLayer) answer(f *form.Form, msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case withdrawAnswered:
		if msg.err == nil {
			return nil, true
		}
		f.SetBusy(false)
		f.SetProblem(withdrawProblem(msg.err))
	case estimateTypedMsg:
		if amount := f.Value("amount"); msg.typed == l.typed && apiclient.ValidDecimalAmount(amount) == nil && amount != l.estFor && amount != l.asking {
			return l.estimate(amount), false
		}
	case ui.Result[apiclient.WithdrawEstimation]:
		if msg.ID == l.estID {
			return l.estimated(f, msg), false
		}
	}
	return nil, false
}

// estimated takes the estimation's answer; when the amount was submitted
// waiting for it, the confirmation opens now.
func (l *withdrawLayer) estimated(f *form.Form, msg ui.Result[apiclient.WithdrawEstimation]) tea.Cmd {
	l.estimating = false
	l.estErr = msg.Err
	if msg.Err != nil {
		l.confirmNext = false
		f.SetBusy(false)
		return screenkit.Failed("loading the withdrawal fee", msg.Err)
	}
	l.est, l.estFor = &msg.Value, l.asking
	if !l.confirmNext {
		return nil
	}
	// The estimation for the amount that was submitted: the confirmation
	// opens now, unless the amount changed since.
	l.confirmNext = false
	f.SetBusy(false)
	amount := f.Value("amount")
	if amount != l.estFor {
		return nil
	}
	if problem := l.checkAmount(amount); problem != "" {
		return f.SetErrors("", []form.FieldError{{Field: "amount", Message: problem}})
	}
	return l.ask(amount)
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
func (l *withdrawLayer) checkAmount(amount string) string {
	w := l.w
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
	case l.est == nil && l.estErr == nil:
		return "waiting for the network fee estimation"
	case l.est == nil:
		return "the network fee is unknown (" + apiclient.ErrorMessage(l.estErr) + "); press esc and try again"
	}
	fee, feeKnown := l.feeFor(amount)
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

// submit reviews a checked amount: the confirmation opens now, or when
// the estimation for this amount arrives.
func (l *withdrawLayer) submit(f *form.Form) (tea.Cmd, bool) {
	amount := f.Value("amount")
	if !l.estimateMatches(amount) {
		// The estimation is for another amount: ask for this one,
		// and confirm when it answers.
		l.confirmNext = true
		f.SetBusy(true)
		return l.estimate(amount), false
	}
	return l.ask(amount), false
}
