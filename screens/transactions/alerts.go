package transactions

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/domain/ledger"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// Alerts: while the app runs, the Transactions screen reads the first
// page of the list every Deps.Alerts.Interval (30 s unless set) and tells
// of transactions it had not seen and of those that turned DECLINED: a
// notice, and a desktop notification where the terminal shows one. A
// failed read waits twice as long each time (up to maxAlertInterval, or
// the gateway's Retry-After), so a gateway in trouble is not pressed; at
// 30 s it is 2 requests a minute, far under the interface's 1000 a minute
// per token. The first read of a session only learns what is there. The
// reads are not requests of the screen (no spinner, esc does not stop
// them); sign-out ends them.

const (
	// minAlertInterval bounds the setting from below.
	minAlertInterval = 2 * time.Second
	// maxAlertInterval is the longest back-off.
	maxAlertInterval = 10 * time.Minute
	// alertReadTimeout bounds one read.
	alertReadTimeout = 20 * time.Second
	// alertsShown is how many transactions one read tells of one by
	// one; more are told as a count.
	alertsShown = 3
	// alertMemory bounds the transactions remembered.
	alertMemory = 2000
)

// alertSessions numbers the sessions the alerts run in, across screen
// resets, so a tick or answer of an ended session is dropped.
var alertSessions atomic.Uint64

// alerts is the watcher's state.
type alerts struct {
	session uint64
	// seen is the status of every transaction read, by id.
	seen     map[string]string
	order    []string // ids in the order seen, to forget the oldest
	baseline bool     // the first read is done
	wait     time.Duration
}

// alertTickMsg says it is time for the next read; alertReadMsg is its
// answer.
type (
	alertTickMsg struct{ session uint64 }
	alertReadMsg struct {
		session uint64
		page    apiclient.TransactionPage
		err     error
	}
)

// interval is the setting, bounded.
func (t *Screen) alertInterval() time.Duration {
	d := t.Deps.Alerts.Interval
	if d <= 0 {
		d = 30 * time.Second
	}
	return max(d, minAlertInterval)
}

// startAlerts begins watching for a new session: a first read at once.
// The reads also run, silent, for the holder's budgets and guard rules
// (a profile folder given): what they find goes out as
// screenkit.FreshTransactionsMsg.
func (t *Screen) startAlerts() tea.Cmd {
	if (!t.Deps.Alerts.On && t.Deps.HolderDir == "") || t.Deps.Client == nil {
		return nil
	}
	t.alerts = alerts{session: alertSessions.Add(1), seen: map[string]string{}, wait: t.alertInterval()}
	return t.readAlerts()
}

// readAlerts reads the first page in a command.
func (t *Screen) readAlerts() tea.Cmd {
	client, session := t.Deps.Client, t.alerts.session
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), alertReadTimeout)
		defer cancel()
		page, err := client.Transactions(ctx, apiclient.TransactionFilter{})
		return alertReadMsg{session: session, page: page, err: err}
	}
}

// alertTick waits d, then asks for the next read.
func alertTick(session uint64, d time.Duration) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return alertTickMsg{session: session} })
}

// alertRead takes a read: what is new is told, the next read is set.
func (t *Screen) alertRead(msg alertReadMsg) tea.Cmd {
	a := &t.alerts
	if msg.session != a.session || a.seen == nil {
		return nil
	}
	if msg.err != nil {
		if apiclient.IsUnauthorized(msg.err) || apiclient.IsNotFound(msg.err) {
			// No session or no card: nothing to watch until the next
			// sign-in (the screens say why).
			a.seen = nil
			return nil
		}
		a.wait = min(a.wait*2, maxAlertInterval)
		var e *apiclient.Error
		if errors.As(msg.err, &e) && e.RetryAfter > a.wait {
			a.wait = min(e.RetryAfter, maxAlertInterval)
		}
		return alertTick(a.session, a.wait)
	}
	a.wait = t.alertInterval()
	var fresh, declined []*apiclient.Transaction
	list := msg.page.Transactions
	for i := range list {
		x := &list[i]
		ledger.AdoptTransactionShape(x)
		if x.ID == "" {
			continue
		}
		before, known := a.seen[x.ID]
		switch {
		case !known:
			a.remember(x.ID)
			if a.baseline {
				fresh = append(fresh, x)
			}
		case before != apiclient.TxDeclined && x.Status == apiclient.TxDeclined:
			declined = append(declined, x)
		}
		a.seen[x.ID] = x.Status
	}
	a.baseline = true
	cmds := []tea.Cmd{alertTick(a.session, a.wait), freshTransactions(fresh, declined)}
	if t.Deps.Alerts.On {
		cmds = append(cmds, t.tell(fresh, declined)...)
	}
	if len(fresh)+len(declined) > 0 && t.loaded && t.filter.Page == 0 && !t.loading {
		// The first page on screen is out of date: read it again.
		cmds = append(cmds, t.load(t.filter))
	}
	return tea.Batch(cmds...)
}

// freshTransactions tells the other screens (budgets, guard rules) what
// is new, oldest first; nil when nothing is.
func freshTransactions(fresh, declined []*apiclient.Transaction) tea.Cmd {
	all := append(append([]*apiclient.Transaction{}, fresh...), declined...)
	if len(all) == 0 {
		return nil
	}
	list := make([]apiclient.Transaction, len(all))
	for i, x := range all {
		list[len(all)-1-i] = *x // the page is newest first
	}
	return func() tea.Msg { return screenkit.FreshTransactionsMsg{List: list} }
}

// remember notes an id, forgetting the oldest past alertMemory.
func (a *alerts) remember(id string) {
	a.order = append(a.order, id)
	if len(a.order) > alertMemory {
		delete(a.seen, a.order[0])
		a.order = a.order[1:]
	}
}

// tell is the notices (and desktop notifications) for what is new.
func (t *Screen) tell(fresh, declined []*apiclient.Transaction) []tea.Cmd {
	var cmds []tea.Cmd
	desktop := t.Deps.Alerts.Desktop
	say := func(tone theme.Tone, title, body string) {
		cmds = append(cmds, ui.NotifyEverywhere(tone, title+": "+body))
		if n := desktop.Notify("cardterm: "+title, body); n != nil {
			cmds = append(cmds, n)
		}
	}
	all := append(append([]*apiclient.Transaction{}, fresh...), declined...)
	for i, x := range all {
		if i == alertsShown {
			say(theme.ToneInfo, "More transactions", fmt.Sprintf("%d more new or declined: see the Transactions screen", len(all)-alertsShown))
			break
		}
		if x.Status == apiclient.TxDeclined {
			say(theme.ToneDanger, "Declined", alertText(x))
		} else {
			say(theme.ToneInfo, alertTitle(x), alertText(x))
		}
	}
	return cmds
}

// alertTitle is the title of a new transaction's alert: the step of a
// payment the gateway says the record is, else "New transaction".
func alertTitle(x *apiclient.Transaction) string {
	switch ledger.PaymentStep(x) {
	case ledger.StepAuthorization:
		return "Authorized"
	case ledger.StepIncrement:
		return "Authorization increased"
	case ledger.StepClearing:
		return "Cleared"
	case ledger.StepReversal:
		return "Reversed"
	case ledger.StepRefund:
		return "Refunded"
	}
	return "New transaction"
}

// alertText says what a transaction was: amount, where, and why it was
// declined.
func alertText(x *apiclient.Transaction) string {
	amount := signedAmount(x)
	if amount == "" {
		amount = ledger.NoAmount
	}
	parts := []string{amount}
	if x.MerchantNameLocation != "" {
		parts = append(parts, "at "+x.MerchantNameLocation)
	}
	text := strings.Join(parts, " ")
	if x.Status == apiclient.TxDeclined && x.DeclineReason != nil && *x.DeclineReason != "" {
		text += " (" + *x.DeclineReason + ")"
	}
	return sanitize.Text(text)
}

// alertTicked starts the next read when the tick is this session's.
func (t *Screen) alertTicked(msg alertTickMsg) tea.Cmd {
	if msg.session != t.alerts.session || t.alerts.seen == nil {
		return nil
	}
	return t.readAlerts()
}
