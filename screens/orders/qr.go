package orders

import (
	"context"
	"strings"

	"charm.land/lipgloss/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/ui/sanitize"
)

// The payment panel's QR code: what it holds (the EIP-681 payment link,
// or the destination address alone) and where it fits. The codes are
// encoded in Update (prepareQR); View only places them.

// lookupDecimals finds the payment token in the chain configuration by
// chain id and token address.
func lookupDecimals(ctx context.Context, client *apiclient.Client, pc apiclient.PaymentConfig) decimals {
	cfg, err := client.ChainConfig(ctx, "")
	if err != nil {
		return decimals{why: "the chain configuration could not be read (" + apiclient.ErrorMessage(err) + ")"}
	}
	for _, n := range cfg.Networks {
		if n.ChainID != pc.DestinationChainID {
			continue
		}
		for _, t := range n.Tokens {
			if strings.EqualFold(t.Address, pc.DestinationTokenAddress) {
				return decimals{decimals: t.Decimals, ok: true}
			}
		}
	}
	return decimals{why: "the token is not in the chain configuration"}
}

// pegged reports whether an amount in currency is the same amount of the
// token (a stablecoin of that currency), so it can go into the payment link.
func pegged(currency, token string) bool {
	token = strings.ToLower(token)
	switch strings.ToUpper(currency) {
	case "USD":
		return token == "usdc" || token == "usdt" || token == "musd" || token == "dai" || token == "pyusd" || token == "usds"
	case "EUR":
		return token == "eurc" || token == "eure"
	}
	return false
}

// qrTarget is what the QR code holds: the EIP-681 payment link when the
// token's decimals are known and the amount is in the token's currency,
// else the destination address alone (note says why).
func (p *payment) qrTarget() (content, what, note string) {
	pc := p.order.PaymentConfig
	if pc == nil {
		return "", "", ""
	}
	switch {
	case p.dec == nil:
		note = "looking the token up in the chain configuration…"
	case !p.dec.ok:
		note = p.dec.why
	case !pegged(pc.PaymentCurrency, pc.DestinationTokenSymbol):
		note = "the amount is in " + pc.PaymentCurrency + ", not in " + pc.DestinationTokenSymbol + ": enter it in the wallet"
	default:
		uri, err := pc.TransferURI(p.dec.decimals)
		if err == nil {
			return uri, "payment link (EIP-681): token, chain, address and amount", ""
		}
		note = err.Error()
	}
	return pc.DestinationAddress, "destination address only", note
}

// prepareQR encodes the codes the panel may draw (the target and the
// address alone) once; encoding takes milliseconds, so frames reuse them.
func (p *payment) prepareQR() {
	pc := p.order.PaymentConfig
	if pc == nil || p.final() {
		return
	}
	content, _, _ := p.qrTarget()
	for _, c := range []string{content, pc.DestinationAddress} {
		k := p.qrKey(c)
		if _, ok := p.qrCache[k]; ok {
			continue
		}
		var lines []string
		if bits := screenkit.QRBits(c); bits != nil {
			lines = screenkit.QRLines(bits, p.deps.Styles)
		}
		if p.qrCache == nil {
			p.qrCache = map[string][]string{}
		}
		p.qrCache[k] = lines
	}
}

func (p *payment) qrKey(content string) string {
	if p.deps.Styles.NoColor {
		return content + "\x00nocolor"
	}
	return content
}

// qr is a prepared code with its caption; ok is false when it cannot be
// encoded (or was not prepared).
func (p *payment) qr(content, what, note string, captionW int) (qr []string, caption string, ok bool) {
	st := p.deps.Styles
	qr = p.qrCache[p.qrKey(content)]
	if qr == nil {
		return nil, "", false
	}
	caption = "QR: " + what
	if note != "" {
		caption += " (" + sanitize.Text(note) + ")"
	}
	caption = lipgloss.NewStyle().Width(max(captionW, 20)).Render(caption)
	caption = st.Muted.Render(" " + strings.ReplaceAll(caption, "\n", "\n "))
	return qr, caption, true
}

// withQR places the QR code of content beside the text, or under it,
// or, when that does not fit, the smaller code of the address alone.
func (p *payment) withQR(text, content, address, what, note string, height int) string {
	st, width := p.deps.Styles, p.width
	textH, textW := lineCount(text), lipgloss.Width(text)
	try := func(content, what, note string) (string, bool) {
		sideW := width - textW - 2
		qr, caption, ok := p.qr(content, what, note, sideW-1)
		if !ok {
			return "", false
		}
		qrW := lipgloss.Width(qr[0])
		block := " " + strings.Join(qr, "\n ") + "\n" + caption
		if qrW+1 <= sideW && len(qr)+lineCount(caption) <= height {
			return screenkit.SideBySide(text, block, textW, "  "), true
		}
		qr, caption, _ = p.qr(content, what, note, width-1)
		block = " " + strings.Join(qr, "\n ") + "\n" + caption
		if qrW+1 <= width && textH+1+len(qr)+lineCount(caption) <= height {
			return text + "\n\n" + block, true
		}
		return "", false
	}
	if s, ok := try(content, what, note); ok {
		return s
	}
	if content != address {
		if s, ok := try(address, "destination address only", p.keys.QR.Help().Key+" shows the full payment link"); ok {
			return s
		}
	}
	return text + "\n\n" + st.Muted.Render("(no room for the QR code here: "+p.keys.QR.Help().Key+" shows it)")
}

// withQROnly draws the QR code alone under one status line: the payment
// link when it fits, else the address.
func (p *payment) withQROnly(head, content, address, what, note string) string {
	st, width, height := p.deps.Styles, p.width, p.height
	for _, c := range []struct{ content, what, note string }{{content, what, note}, {address, "destination address only", "enlarge the terminal for the full payment link"}} {
		qr, caption, ok := p.qr(c.content, c.what, c.note, width-1)
		if ok && lipgloss.Width(qr[0])+1 <= width && lineCount(head)+len(qr)+lineCount(caption) <= height {
			return head + "\n" + " " + strings.Join(qr, "\n ") + "\n" + caption
		}
		if c.content == address {
			break
		}
	}
	return head + "\n\n" + st.Muted.Render("The terminal is too small for the QR code; "+p.keys.Copy.Help().Key+" copies the address.")
}
