package orders

import (
	"cardterm/ui/keymap"

	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
)

// The payment panel: after an order it shows how to pay (amount, address,
// chain, token, a QR code) and follows the order by itself: a check right
// away (the state after the mutation), then one every 3 s, at most 40 in
// all, until the status is final. The timer is a tea.Tick whose message
// starts the request; Update does no IO. Polling goes on while another
// screen is shown (the order is still being paid; a final status is
// announced as a notice wherever the user is) and stops when the panel is
// closed with esc, on sign-out, on a final status, after 40 checks, or when
// esc cancels a check in flight (r resumes).

// pollEvery is the time between two automatic checks.
const pollEvery = apiclient.OrderPollEverySeconds * time.Second

// tickMsg is a poll timer firing. It names its panel and only the panel's
// latest timer counts, so a closed panel's timer never polls a new one.
type tickMsg struct {
	panel uint64
	seq   int
}

// panelIDs numbers payment panels across screens and sessions.
var panelIDs atomic.Uint64

// decimals is what the chain configuration says of the payment token.
type decimals struct {
	decimals int
	ok       bool
	why      string // why the decimals are unknown
}

// paymentKeys are the panel's bindings; r and y are the global refresh
// and copy keys, which the screen answers with a check and the address.
type paymentKeys struct {
	Recheck, Copy, QR, Close key.Binding
}

// ShortHelp implements help.KeyMap.
func (k paymentKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Recheck, k.Copy, k.QR, k.Close}
}

// FullHelp implements help.KeyMap.
func (k paymentKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// payment is the open payment panel of one order, a layer over the
// Orders screen.
type payment struct {
	// closed says esc closed the panel (layer.Layer Done).
	closed        bool
	deps          screenkit.Deps
	requests      ui.Owner
	keys          paymentKeys
	width, height int

	product apiclient.Product
	order   apiclient.Order
	status  *apiclient.OrderStatus

	id       uint64 // names the panel's timers
	tickSeq  int    // the latest timer
	checks   int    // checks of the current round (at most OrderPollMax)
	polling  bool   // the next check is scheduled
	capped   bool   // the round ended after OrderPollMax checks
	paused   bool   // esc cancelled a check: polling stopped
	checking bool
	checkID  ui.RequestID
	lastErr  error

	decID ui.RequestID
	dec   *decimals // nil while the chain configuration is read

	qrOnly  bool                // v: the QR code alone, as large as it can be
	qrCache map[string][]string // rendered QR codes by content, filled in Update

	// frame is the panel as drawn for the state and size it was built in
	// (rebuild), with the styles it was drawn with.
	frame     string
	builtWith *theme.Styles
}

func newPayment(deps screenkit.Deps, requests ui.Owner, p apiclient.Product, order apiclient.Order) *payment {
	pay := &payment{deps: deps, requests: requests, product: p, order: order, polling: true, id: panelIDs.Add(1), keys: paymentKeys{
		Recheck: keymap.Bind("orders.recheck"),
		Copy:    keymap.Bind("orders.copy"),
		QR:      keymap.Bind("orders.qr"),
		Close:   keymap.Bind("orders.close"),
	}}
	if order.PaymentConfig == nil {
		pay.keys.Copy.SetHelp(pay.keys.Copy.Help().Key, "copy order id")
	}
	pay.syncKeys()
	return pay
}

// open checks the new order's status at once and looks its token up in
// the chain configuration.
func (p *payment) open() tea.Cmd {
	cmds := []tea.Cmd{p.check(true)}
	if pc := p.order.PaymentConfig; pc != nil {
		client, config := p.deps.Client, *pc
		cmd := ui.Start(p.requests, &p.decID, func(ctx context.Context) (decimals, error) {
			return lookupDecimals(ctx, client, config), nil
		})
		cmds = append(cmds, cmd)
	}
	return tea.Batch(cmds...)
}

// final reports whether the order reached a final status.
func (p *payment) final() bool { return p.status != nil && p.status.Final() }

// syncKeys offers the QR key only while a QR code is shown and names what it
// toggles to.
func (p *payment) syncKeys() {
	p.keys.QR.SetEnabled(!p.final() && p.order.PaymentConfig != nil)
	if p.qrOnly {
		p.keys.QR.SetHelp(p.keys.QR.Help().Key, "details")
	} else {
		p.keys.QR.SetHelp(p.keys.QR.Help().Key, "QR code alone")
	}
}

// Update implements layer.Layer: esc closes the panel (its timer and any
// answer still on the way then find no panel), v toggles the QR code, r
// checks the status now.
func (p *payment) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, p.keys.Close):
			p.closed = true
		case key.Matches(msg, p.keys.QR):
			p.qrOnly = !p.qrOnly
			p.syncKeys()
			p.prepareQR()
			p.rebuild()
		}
		return nil
	case ui.BodyMouseMsg:
		return nil // the panel takes keys only
	case ui.RefreshMsg:
		cmd := p.recheck()
		p.rebuild()
		return cmd
	}
	cmd := p.poll(msg)
	p.rebuild()
	return cmd
}

// Done implements layer.Layer.
func (p *payment) Done() bool { return p.closed }

// KeyMap implements layer.Layer.
func (p *payment) KeyMap() help.KeyMap { return p.keys }

// CopyValue implements ui.Copier: the payment address.
func (p *payment) CopyValue() (label, value string, ok bool) { return p.copyValue() }

// Inspect implements ui.Inspectable: the order's latest status record, or
// the order itself, as the gateway sent them.
func (p *payment) Inspect() (string, []byte, bool) {
	if p.status != nil && p.status.Raw != "" {
		return screenkit.Inspected("order "+p.order.OrderID+" status", p.status.Raw)
	}
	return screenkit.Inspected("order "+p.order.OrderID, p.order.Raw)
}

// SetSize implements layer.Layer.
func (p *payment) SetSize(width, height int) {
	p.width, p.height = width, height
	p.prepareQR()
	p.rebuild()
}

// check asks the gateway for the order's status; counted checks belong to
// the polling round.
func (p *payment) check(counted bool) tea.Cmd {
	if p.checking {
		return nil
	}
	if counted {
		p.checks++
	}
	p.checking = true
	client, id := p.deps.Client, p.order.OrderID
	return ui.Start(p.requests, &p.checkID, func(ctx context.Context) (apiclient.OrderStatus, error) {
		return client.OrderStatus(ctx, id)
	})
}

// recheck is r on the panel: check now; a stopped round starts again.
func (p *payment) recheck() tea.Cmd {
	if p.checking {
		return nil
	}
	p.tickSeq++ // the pending timer is replaced by the one after this check
	if p.final() {
		return p.check(false)
	}
	if !p.polling {
		p.polling, p.capped, p.paused, p.checks = true, false, false, 0
	}
	return p.check(true)
}

// nextTick is the message the panel's pending timer sends.
func (p *payment) nextTick() tickMsg { return tickMsg{panel: p.id, seq: p.tickSeq} }

// schedule starts the timer of the next check: pollEvery, or later when
// the gateway asked to wait longer.
func (p *payment) schedule(wait time.Duration) tea.Cmd {
	p.tickSeq++
	msg := p.nextTick()
	return tea.Tick(max(pollEvery, wait), func(time.Time) tea.Msg { return msg })
}

// poll handles the panel's timers and answers; anything for another
// panel, an older check or an older timer is dropped.
func (p *payment) poll(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tickMsg:
		if msg != p.nextTick() || !p.polling || p.checking {
			return nil
		}
		return p.check(true)
	case ui.Result[decimals]:
		if msg.ID == p.decID {
			d := msg.Value
			p.dec = &d
			p.prepareQR()
		}
	case ui.Result[apiclient.OrderStatus]:
		if msg.ID != p.checkID || !p.checking {
			return nil
		}
		p.checking = false
		cmd := p.checked(msg.Value, msg.Err)
		p.syncKeys()
		return cmd
	}
	return nil
}

// checked takes a check's answer and schedules the next one.
func (p *payment) checked(status apiclient.OrderStatus, err error) tea.Cmd {
	switch {
	case err == nil:
		status = readOrderStatus(status)
		p.status, p.lastErr, p.paused = &status, nil, false
		if status.Final() {
			p.polling = false
			text, tone := finalText(p.deps, status)
			// The payment panel says it in its body: the notice is for
			// the other screens, where the user may be meanwhile.
			return ui.NotifyUnlessOn(screenkit.OrdersScreen, tone, p.product.Description+": "+text)
		}
	case errors.Is(err, context.Canceled):
		p.polling, p.paused = false, true
		return nil
	case apiclient.IsUnauthorized(err), apiclient.IsNotFound(err), apiclient.IsStatus(err, 403):
		p.polling, p.lastErr = false, err
		return screenkit.Failed("checking the order", err)
	default:
		// A failed check (500, the network) counts; the next may work.
		p.lastErr = err
	}
	if !p.polling {
		return nil
	}
	if apiclient.IsRateLimited(err) {
		p.checks-- // refused here, nothing sent: not a check
	}
	if p.checks >= apiclient.OrderPollMax {
		p.polling, p.capped = false, true
		return ui.Notify(theme.ToneWarn, fmt.Sprintf("the order is still %s after %d checks: press %s on the Orders screen to check again",
			statusText(p.status), apiclient.OrderPollMax, p.keys.Recheck.Help().Key))
	}
	return p.schedule(retryAfter(err))
}

// retryAfter is how long the gateway asked to wait before the next
// check (a 429 or 503 with Retry-After), or 0.
func retryAfter(err error) time.Duration {
	var e *apiclient.Error
	if errors.As(err, &e) {
		return e.RetryAfter
	}
	return 0
}

// copyValue is the payment address, or the order id when the gateway sent
// no payment details.
func (p *payment) copyValue() (label, value string, ok bool) {
	if pc := p.order.PaymentConfig; pc != nil && pc.DestinationAddress != "" {
		return "payment address", pc.DestinationAddress, true
	}
	return "order id", p.order.OrderID, true
}
