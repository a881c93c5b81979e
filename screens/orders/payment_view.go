package orders

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui/sanitize"
)

// statusText names the last known status.
func statusText(st *apiclient.OrderStatus) string {
	if st == nil || st.Status == "" {
		return "unconfirmed"
	}
	return sanitize.Text(st.Status)
}

// statusTone colours an order status.
func statusTone(status string) theme.Tone {
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

// metadata reads a string from an order's metadata.
func metadata(st apiclient.OrderStatus, k string) string {
	v := strings.TrimSpace(string(st.Metadata[k]))
	if len(v) >= 2 && v[0] == '"' {
		return strings.Trim(v, `"`)
	}
	return ""
}

// finalText is the message of a final status; the panel's title names the
// product, and the notice (seen on any screen) is prefixed with it. deps
// names the Card screen's key.
func finalText(deps screenkit.Deps, st apiclient.OrderStatus) (string, theme.Tone) {
	switch st.Status {
	case apiclient.OrderCompleted:
		s := "Payment received: the order is complete."
		if metadata(st, "cardId") != "" {
			s += " The new card is on " + deps.ScreenNamed(screenkit.CardScreen, "Card") + "."
		}
		return s, theme.ToneOK
	case apiclient.OrderFailed:
		s := "The order failed"
		if r := metadata(st, "failureReason"); r != "" {
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

// View implements layer.Layer: the frame rebuild made when the order, the
// size or the view last changed, so a key press that changes nothing
// (an arrow, a key of another screen) draws without rendering anything.
func (p *payment) View() string {
	if p.builtWith != p.deps.Styles {
		// The theme changed under the panel (no message reached it).
		return screenkit.Place(p.render(), p.width, p.height)
	}
	return p.frame
}

// rebuild draws the panel into frame; Update and SetSize call it after
// anything the panel shows has changed.
func (p *payment) rebuild() {
	p.frame, p.builtWith = screenkit.Place(p.render(), p.width, p.height), p.deps.Styles
}

// render draws the payment fields with the QR code beside or under them,
// then where the order stands. With v (or when nothing else fits) the QR
// code is drawn alone, as large as the terminal allows.
func (p *payment) render() string {
	st, width, height := p.deps.Styles, p.width, p.height
	status := ""
	if p.status != nil {
		status = p.status.Status
	}
	head := st.Title.Render("Payment") + "  " + st.Value.Render(sanitize.Text(p.product.Description))
	stateBadge := st.Muted.Render("checking…")
	if status != "" {
		stateBadge = screenkit.Badge(st, status, statusTone(status))
	}
	statusLine := stateBadge + "  " + st.Muted.Render(fmt.Sprintf("check %d of %d", p.checks, apiclient.OrderPollMax))
	fields := []screenkit.Field{{Label: "Status", Styled: statusLine}}
	pc := p.order.PaymentConfig
	if pc != nil {
		fields = append(fields,
			screenkit.Field{Label: "Amount", Value: string(pc.PaymentAmount) + " " + pc.PaymentCurrency},
			screenkit.Field{Label: "Pay to", Value: pc.DestinationAddress},
			screenkit.Field{Label: "Chain id", Value: pc.DestinationChainID},
			screenkit.Field{Label: "Token", Value: strings.TrimSpace(pc.DestinationTokenSymbol + " " + pc.DestinationTokenAddress)},
		)
	}
	// The order's own record goes under the message: useful, not urgent.
	record := []screenkit.Field{{Label: "Order id", Value: p.order.OrderID}, {Label: "Request id", Value: p.order.RequestID}}
	if p.status != nil {
		if p.status.PaidAt != nil {
			fields = append(fields, screenkit.Field{Label: "Paid at", Value: screenkit.FormatTime(*p.status.PaidAt)})
		}
		record = append(record, screenkit.ExtraFields(p.status.Metadata)...)
		// Every other field the gateway sent, in its own names.
		record = append(record, screenkit.OtherFields(p.status.Raw, orderStatusKnown)...)
	}
	msg := strings.Join(p.message(min(width, 90)), "\n")
	bottom := msg + "\n\n" + screenkit.Section(st, "Order", screenkit.RenderFields(st, record, min(width, 66)))
	info := screenkit.RenderFields(st, fields, min(width, 66))
	if pc == nil {
		return head + "\n\n" + info + "\n\n" +
			st.Text(theme.ToneWarn).Render("The gateway sent no payment details for this order.") + "\n\n" + bottom
	}
	if p.final() {
		// The order is over: no code that invites a payment any more.
		return head + "\n\n" + info + "\n\n" + bottom
	}
	content, what, note := p.qrTarget()
	if p.qrOnly {
		return p.withQROnly(head+"\n"+statusLine, content, pc.DestinationAddress, what, note)
	}
	room := height - 2 - lineCount(msg) - 1 // head and blank, message, gap
	return head + "\n\n" + p.withQR(info, content, pc.DestinationAddress, what, note, room) + "\n\n" + bottom
}

// message says where the order stands and what to do.
func (p *payment) message(width int) []string {
	st := p.deps.Styles
	wrap := func(s string, tone theme.Tone) string {
		return st.Text(tone).Render(lipgloss.NewStyle().Width(width).Render(sanitize.Text(s)))
	}
	var out []string
	switch {
	case p.final():
		text, tone := finalText(p.deps, *p.status)
		out = append(out, wrap(text, tone))
	case p.capped:
		out = append(out, wrap(fmt.Sprintf("Still %s after %d checks: automatic checking stopped. The payment may still arrive; press %s to check again.",
			statusText(p.status), apiclient.OrderPollMax, p.keys.Recheck.Help().Key), theme.ToneWarn))
	case p.paused:
		out = append(out, wrap("Checking stopped (the request was cancelled). Press "+p.keys.Recheck.Help().Key+" to check again.", theme.ToneWarn))
	case p.polling:
		out = append(out, wrap(fmt.Sprintf("Send the amount to the address above; the status is checked every %d s.", apiclient.OrderPollEverySeconds), theme.ToneNeutral))
	}
	if p.lastErr != nil {
		out = append(out, wrap("Last check failed: "+apiclient.ErrorMessage(p.lastErr), theme.ToneDanger))
	}
	keys := st.KeyHint.Render(p.keys.Copy.Help().Key) + " " + st.KeyDesc.Render(p.keys.Copy.Help().Desc) + "   "
	if p.keys.QR.Enabled() {
		keys += st.KeyHint.Render(p.keys.QR.Help().Key) + " " + st.KeyDesc.Render(p.keys.QR.Help().Desc) + "   "
	}
	out = append(out, keys+st.KeyHint.Render(p.keys.Recheck.Help().Key)+" "+st.KeyDesc.Render("check now")+"   "+st.KeyHint.Render(p.keys.Close.Help().Key)+" "+st.KeyDesc.Render("close"))
	return out
}
