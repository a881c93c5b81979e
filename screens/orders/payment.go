package screens

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"cardterm/apiclient"
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

// ordPollEvery is the time between two automatic checks.
const ordPollEvery = apiclient.OrderPollEverySeconds * time.Second

// ordTickMsg is a poll timer firing; only the latest timer (seq) counts.
type ordTickMsg struct{ seq int }

func ordTick(seq int) tea.Cmd {
	return tea.Tick(ordPollEvery, func(time.Time) tea.Msg { return ordTickMsg{seq: seq} })
}

// ordDecimals is what the chain configuration says of the payment token.
type ordDecimals struct {
	decimals int
	ok       bool
	why      string // why the decimals are unknown
}

// ordPayment is the open payment panel of one order.
type ordPayment struct {
	product apiclient.Product
	order   apiclient.Order
	status  *apiclient.OrderStatus

	checks   int  // checks of the current round (at most OrderPollMax)
	polling  bool // the next check is scheduled
	capped   bool // the round ended after OrderPollMax checks
	paused   bool // esc cancelled a check: polling stopped
	checking bool
	checkID  ui.RequestID
	lastErr  error

	decID ui.RequestID
	dec   *ordDecimals // nil while the chain configuration is read

	qrOnly  bool                // v: the QR code alone, as large as it can be
	qrCache map[string][]string // rendered QR codes by content
}

// openPayment shows the panel of a new order, checks its status at once and
// looks the token up in the chain configuration.
func (o *Orders) openPayment(p apiclient.Product, order apiclient.Order) tea.Cmd {
	o.tickSeq++
	o.pay = &ordPayment{product: p, order: order, polling: true}
	cmds := []tea.Cmd{o.check(true)}
	if pc := order.PaymentConfig; pc != nil {
		client, pcv := o.deps.Client, *pc
		var cmd tea.Cmd
		o.pay.decID, cmd = ui.Go(o.deps.Requests, func(ctx context.Context) (ordDecimals, error) {
			return ordLookupDecimals(ctx, client, pcv), nil
		})
		cmds = append(cmds, cmd)
	}
	return tea.Batch(cmds...)
}

// closePayment closes the panel; its timer and any answer still on the way
// are dropped.
func (o *Orders) closePayment() {
	o.pay = nil
	o.tickSeq++
}

// check asks the gateway for the order's status; counted checks belong to
// the polling round.
func (o *Orders) check(counted bool) tea.Cmd {
	p := o.pay
	if p == nil || p.checking {
		return nil
	}
	if counted {
		p.checks++
	}
	p.checking = true
	client, id := o.deps.Client, p.order.OrderID
	var cmd tea.Cmd
	p.checkID, cmd = ui.Go(o.deps.Requests, func(ctx context.Context) (apiclient.OrderStatus, error) {
		return client.OrderStatus(ctx, id)
	})
	return cmd
}

// recheck is r on the panel: check now; a stopped round starts again.
func (o *Orders) recheck() tea.Cmd {
	p := o.pay
	if p.checking {
		return nil
	}
	o.tickSeq++ // the pending timer is replaced by the one after this check
	if p.status != nil && p.status.Final() {
		return o.check(false)
	}
	if !p.polling {
		p.polling, p.capped, p.paused, p.checks = true, false, false, 0
	}
	return o.check(true)
}

// payUpdate handles the panel's messages; anything for a closed panel, an
// older check or an older timer is dropped.
func (o *Orders) payUpdate(msg tea.Msg) tea.Cmd {
	p := o.pay
	if p == nil {
		return nil
	}
	switch msg := msg.(type) {
	case ordTickMsg:
		if msg.seq != o.tickSeq || !p.polling || p.checking {
			return nil
		}
		return o.check(true)
	case ui.Result[ordDecimals]:
		if msg.ID == p.decID {
			d := msg.Value
			p.dec = &d
		}
	case ui.Result[apiclient.OrderStatus]:
		if msg.ID != p.checkID {
			return nil
		}
		p.checking = false
		return o.checked(msg.Value, msg.Err)
	}
	return nil
}

// checked takes a check's answer and schedules the next one.
func (o *Orders) checked(st apiclient.OrderStatus, err error) tea.Cmd {
	p := o.pay
	switch {
	case err == nil:
		p.status, p.lastErr, p.paused = &st, nil, false
		if st.Final() {
			p.polling = false
			text, tone := ordFinalNotice(p.product, st)
			return ui.Notify(tone, text)
		}
	case errors.Is(err, context.Canceled):
		p.polling, p.paused = false, true
		return nil
	case apiclient.IsUnauthorized(err), apiclient.IsNotFound(err), apiclient.IsStatus(err, 403):
		p.polling, p.lastErr = false, err
		return failed("checking the order", err)
	default:
		// A failed check (500, the network) counts; the next may work.
		p.lastErr = err
	}
	if !p.polling {
		return nil
	}
	if p.checks >= apiclient.OrderPollMax {
		p.polling, p.capped = false, true
		return ui.Notify(theme.ToneWarn, fmt.Sprintf("the order is still %s after %d checks: press r on the Orders screen to check again",
			ordStatusText(p.status), apiclient.OrderPollMax))
	}
	o.tickSeq++
	return ordTick(o.tickSeq)
}

// ordStatusText names the last known status.
func ordStatusText(st *apiclient.OrderStatus) string {
	if st == nil || st.Status == "" {
		return "unconfirmed"
	}
	return ui.Sanitize(st.Status)
}

// ordStatusTone colours an order status.
func ordStatusTone(status string) theme.Tone {
	switch status {
	case apiclient.OrderCompleted:
		return theme.ToneOK
	case apiclient.OrderStarted:
		return theme.ToneInfo
	case apiclient.OrderPending, apiclient.OrderExpired, apiclient.OrderRefunded:
		return theme.ToneWarn
	case apiclient.OrderFailed:
		return theme.ToneDanger
	}
	return theme.ToneNeutral
}

// ordMeta reads a string from an order's metadata.
func ordMeta(st apiclient.OrderStatus, k string) string {
	v := strings.TrimSpace(string(st.Metadata[k]))
	if len(v) >= 2 && v[0] == '"' {
		return strings.Trim(v, `"`)
	}
	return ""
}

// ordFinalText is the message of a final status; the panel's title names
// the product, the notice (seen on any screen) names it too.
func ordFinalText(p apiclient.Product, st apiclient.OrderStatus) (string, theme.Tone) {
	switch st.Status {
	case apiclient.OrderCompleted:
		s := "Payment received: the order is complete."
		if ordMeta(st, "cardId") != "" {
			s += " The new card is on the Card screen (2)."
		}
		return s, theme.ToneOK
	case apiclient.OrderFailed:
		s := "The order failed"
		if r := ordMeta(st, "failureReason"); r != "" {
			s += ": " + r
		}
		return s + ". Order again to retry.", theme.ToneDanger
	case apiclient.OrderExpired:
		return "The order expired before it was paid. Do not send funds to its address; order again for a new one.", theme.ToneWarn
	case apiclient.OrderRefunded:
		return "The payment was refunded.", theme.ToneWarn
	}
	return "The order is " + st.Status + ".", theme.ToneInfo
}

// ordFinalNotice is ordFinalText for the status bar, naming the product.
func ordFinalNotice(p apiclient.Product, st apiclient.OrderStatus) (string, theme.Tone) {
	text, tone := ordFinalText(p, st)
	return p.Description + ": " + text, tone
}

// paymentView draws the panel in width x height: the payment fields with
// the QR code beside or under them, then where the order stands. With v
// (or when nothing else fits) the QR code is drawn alone, as large as
// the terminal allows.
func (o *Orders) paymentView(width, height int) string {
	st := o.deps.Styles
	p := o.pay
	status := ""
	if p.status != nil {
		status = p.status.Status
	}
	head := st.Title.Render("Payment") + "  " + st.Value.Render(ui.Sanitize(p.product.Description))
	stateBadge := st.Muted.Render("checking…")
	if status != "" {
		stateBadge = badge(st, status, ordStatusTone(status))
	}
	statusLine := stateBadge + "  " + st.Muted.Render(fmt.Sprintf("check %d of %d", p.checks, apiclient.OrderPollMax))
	fields := []field{{label: "Status", styled: statusLine}}
	pc := p.order.PaymentConfig
	if pc != nil {
		fields = append(fields,
			field{label: "Amount", value: string(pc.PaymentAmount) + " " + pc.PaymentCurrency},
			field{label: "Pay to", value: pc.DestinationAddress},
			field{label: "Chain id", value: pc.DestinationChainID},
			field{label: "Token", value: strings.TrimSpace(pc.DestinationTokenSymbol + " " + pc.DestinationTokenAddress)},
		)
	}
	// The order's own record goes under the message: useful, not urgent.
	record := []field{{label: "Order id", value: p.order.OrderID}, {label: "Request id", value: p.order.RequestID}}
	if p.status != nil {
		if p.status.PaidAt != nil {
			fields = append(fields, field{label: "Paid at", value: *p.status.PaidAt})
		}
		record = append(record, extraFields(p.status.Metadata)...)
	}
	msgW := min(width, 90)
	msg := strings.Join(o.paymentMessage(msgW), "\n")
	bottom := msg + "\n\n" + section(st, "Order", renderFields(st, record, min(width, 66)))
	if pc == nil {
		return head + "\n\n" + renderFields(st, fields, min(width, 66)) + "\n\n" +
			st.Text(theme.ToneWarn).Render("The gateway sent no payment details for this order.") + "\n\n" + bottom
	}
	info := renderFields(st, fields, min(width, 66))
	if p.status != nil && p.status.Final() {
		// The order is over: no code that invites a payment any more.
		return head + "\n\n" + info + "\n\n" + bottom
	}
	content, what, note := p.qrTarget()
	if p.qrOnly {
		return p.withQROnly(st, head+"\n"+statusLine, content, pc.DestinationAddress, what, note, width, height)
	}
	room := height - 2 - ordLines(msg) - 1 // head and blank, message, gap
	return head + "\n\n" + p.withQR(st, info, content, pc.DestinationAddress, what, note, width, room) + "\n\n" + bottom
}

// paymentMessage says where the order stands and what to do.
func (o *Orders) paymentMessage(width int) []string {
	st, p := o.deps.Styles, o.pay
	wrap := func(s string, tone theme.Tone) string {
		return st.Text(tone).Render(lipgloss.NewStyle().Width(width).Render(ui.Sanitize(s)))
	}
	var out []string
	switch {
	case p.status != nil && p.status.Final():
		text, tone := ordFinalText(p.product, *p.status)
		out = append(out, wrap(text, tone))
	case p.capped:
		out = append(out, wrap(fmt.Sprintf("Still %s after %d checks: automatic checking stopped. The payment may still arrive; press r to check again.",
			ordStatusText(p.status), apiclient.OrderPollMax), theme.ToneWarn))
	case p.paused:
		out = append(out, wrap("Checking stopped (the request was cancelled). Press r to check again.", theme.ToneWarn))
	case p.polling:
		out = append(out, wrap(fmt.Sprintf("Send the amount to the address above; the status is checked every %d s.", apiclient.OrderPollEverySeconds), theme.ToneNeutral))
	}
	if p.lastErr != nil {
		out = append(out, wrap("Last check failed: "+apiclient.ErrorMessage(p.lastErr), theme.ToneDanger))
	}
	keys := st.KeyHint.Render("y") + " " + st.KeyDesc.Render("copy address") + "   "
	if p.status == nil || !p.status.Final() {
		qr := "QR code alone"
		if p.qrOnly {
			qr = "details"
		}
		keys += st.KeyHint.Render("v") + " " + st.KeyDesc.Render(qr) + "   "
	}
	out = append(out, keys+st.KeyHint.Render("r")+" "+st.KeyDesc.Render("check now")+"   "+st.KeyHint.Render("esc")+" "+st.KeyDesc.Render("close"))
	return out
}

// CopyValue implements ui.Copier: the payment address while the panel is
// open, else the selected product's id.
func (o *Orders) CopyValue() (label, value string, ok bool) {
	if o.pay != nil {
		if pc := o.pay.order.PaymentConfig; pc != nil && pc.DestinationAddress != "" {
			return "payment address", pc.DestinationAddress, true
		}
		return "order id", o.pay.order.OrderID, true
	}
	if p, ok := o.selected(); ok {
		return "product id", p.ID, true
	}
	return "", "", false
}
