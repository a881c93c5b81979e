package card

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui/form"
	"cardterm/ui/sanitize"
)

// SetSize implements ui.Screen.
func (c *Screen) SetSize(width, height int) { c.Width, c.Height = width, height }

// formWidth is an open form's width: under the message when there is no
// card, else the side panel's.
func (c *Screen) formWidth(width int) int {
	if c.card == nil {
		return max(width-2, 20)
	}
	return c.sideWidth(width)
}

// View implements ui.Screen.
func (c *Screen) View() string { return c.viewWith(nil) }

// viewWith draws the screen with open, the form layer over it (nil for
// none), where the card's panels go.
func (c *Screen) viewWith(open *form.Form) string {
	width, height := c.Width, c.Height
	st := c.Deps.Styles
	var b strings.Builder
	b.WriteString(st.Title.Render("Card") + "\n\n")
	switch {
	case c.card == nil && c.loadErr == nil:
		b.WriteString(st.Muted.Render("Loading card…"))
	case c.loadErr != nil && apiclient.IsNotFound(c.loadErr): // (an error check costs an allocation)
		b.WriteString(st.Subtitle.Render("No card yet") + "\n")
		b.WriteString(st.Muted.Render("You have not ordered a card."))
		if !c.Deps.ReadOnly {
			b.WriteString("\n" + st.Muted.Render("Press "+c.keys.Order.Help().Key+" to order a virtual card."))
		}
		b.WriteString("\n" + st.Muted.Width(max(width-2, 20)).Render("Freezing, the PIN and the card details come with a card."))
	case c.loadErr != nil && apiclient.IsStatus(c.loadErr, 403):
		b.WriteString(st.Text(theme.ToneWarn).Render("The gateway does not allow card operations for this account.") + "\n")
		b.WriteString(st.Muted.Width(max(width-2, 20)).Render("Card operations, ordering a card included, need a VERIFIED identity; see the verification state on " + c.Deps.ScreenNamed(screenkit.AccountScreen, "Account") + ". Gateway said: " + sanitize.Text(apiclient.ErrorMessage(c.loadErr))))
	case c.card == nil:
		b.WriteString(st.Text(theme.ToneDanger).Render("Could not load the card: "+sanitize.Text(apiclient.ErrorMessage(c.loadErr))) + "\n")
		b.WriteString(st.Muted.Render("r retries"))
	default:
		body := c.cardWithPanels(open, width, true)
		if c.pin != nil && c.pin.qr != "" && strings.Count(body, "\n")+3 > height {
			// A QR code cut off at the bottom cannot be scanned: leave it
			// out and say so (the link above is whole).
			body = c.cardWithPanels(open, width, false)
		}
		b.WriteString(body)
	}
	if open != nil && c.card == nil {
		b.WriteString("\n\n" + open.View())
	}
	return screenkit.Place(b.String(), width, height)
}

// cardWithPanels lays the card out with the PIN panel, the open form and
// the note about the last secret image: side by side when there is room,
// else one under the other.
// sideWidth is the width of the panel beside (or, narrow, under) the card.
func (c *Screen) sideWidth(width int) int {
	if width < 90 {
		return max(width-2, 20)
	}
	return min(max(width/2-2, 30), 60)
}

func (c *Screen) cardWithPanels(open *form.Form, width int, withQR bool) string {
	var side []string
	sideW := c.sideWidth(width)
	narrow := width < 90
	if open != nil {
		side = append(side, open.View())
	} else if c.pin != nil {
		side = append(side, c.pinPanelView(sideW, withQR, narrow))
	}
	if c.pinBusy {
		side = append(side, c.Deps.Styles.Muted.Render("requesting a set-PIN link…"))
	}
	if c.secret != nil && open == nil {
		if c.pin != nil && c.secret.at.After(c.pin.issued) {
			// The newest outcome first: under a set-PIN panel it fell off
			// the bottom of a short terminal unseen.
			side = append([]string{c.secretView(sideW)}, side...)
		} else {
			side = append(side, c.secretView(sideW))
		}
	}
	if len(side) == 0 {
		return c.cardView(width)
	}
	panel := strings.Join(side, "\n\n")
	if narrow {
		return c.cardView(width) + "\n\n" + panel
	}
	leftW := width - sideW - 3
	left := c.cardView(leftW)
	// The panel sits beside the card's content, not at the far side of a
	// wide terminal.
	leftW = min(leftW, screenkit.BlockWidth(left))
	body := screenkit.SideBySide(left, panel, leftW, "   ")
	if open == nil && c.pin != nil && c.pinLeft() > 0 {
		// The set-PIN link on a line of the whole width, so it is drawn
		// whole where the side panel is too narrow for it.
		body = strings.TrimRight(body, " \n") + "\n\n" + c.Deps.Styles.Label.Render("Set-PIN link") + "\n" + linkLine(c.Deps.Styles, c.pin.url, width)
	}
	return body
}

// cardKey is what the card's fields and note are drawn from.
type cardKey struct {
	card    *apiclient.Card // a new value on every read
	running bool
	what    string
	loading bool
	width   int
	theme   screenkit.ThemeKey
}

// cardView is the card's fields and note, drawn again only when the card,
// the change in progress, the width or the theme change.
func (c *Screen) cardView(width int) string {
	key := cardKey{card: c.card, running: c.change.Running(), what: c.change.What(), loading: c.loading,
		width: width, theme: screenkit.ThemeOf(c.Deps.Styles)}
	return c.cardPiece.Get(key, func() string { return c.renderCard(width) })
}

func (c *Screen) renderCard(width int) string {
	st := c.Deps.Styles
	card := c.card
	status := screenkit.Badge(st, card.Status, screenkit.CardTone(card.Status))
	switch {
	case c.change.Running():
		status += " " + st.Muted.Render(c.change.What()+" in progress…")
	case c.loading:
		status += " " + st.Muted.Render("reloading…")
	}
	fields := []screenkit.Field{
		{Label: "Status", Styled: status},
		{Label: "Type", Value: card.Type},
		{Label: "Holder", Value: card.HolderName},
		{Label: "Number", Value: "•••• •••• •••• " + card.PanLast4},
		{Label: "Expires", Value: card.ExpiryDate},
		{Label: "Ordered", Value: screenkit.FormatTime(card.OrderedAt)},
		{Label: "Card id", Value: card.ID},
	}
	fields = append(fields, screenkit.ExtraFields(card.Extra)...)
	body := screenkit.RenderFields(st, fields, width)
	var note string
	switch card.Status {
	case apiclient.CardActive:
		note = "Freezing declines every transaction attempt until you unfreeze."
	case apiclient.CardFrozen:
		note = "Frozen: every transaction attempt is declined. Unfreezing takes effect at once."
	case apiclient.CardBlocked:
		note = "Blocked: this is permanent. The card cannot be unfrozen; order a new card (" + c.keys.Order.Help().Key + ") to replace it."
		if c.Deps.ReadOnly { // read-only offers no key that orders
			note = "Blocked: this is permanent. The card cannot be unfrozen; a new card replaces it."
		}
	}
	if note != "" {
		body += "\n\n" + st.Text(screenkit.CardTone(card.Status)).Width(max(width-2, 20)).Render(note)
	}
	return body
}

// linkLine draws a link whole: on one line where it fits, else broken
// across lines of the whole width with nothing else on them, so every
// character of it is on screen (a link cut with "…" cannot be typed in);
// each piece is an OSC 8 hyperlink carrying it whole, and y copies it
// whole too.
func linkLine(st *theme.Styles, link string, width int) string {
	shown := sanitize.Text(link)
	style := st.Link
	if shown == link && (strings.HasPrefix(link, "https://") || strings.HasPrefix(link, "http://")) {
		// Only a clean web link goes into the sequence: a hostile one
		// could close it and write its own.
		style = style.Hyperlink(link)
	}
	pieces := strings.Split(ansi.Hardwrap(shown, max(width, 20), false), "\n")
	for i, piece := range pieces {
		pieces[i] = style.Render(piece)
	}
	return strings.Join(pieces, "\n")
}
