package events

import (
	"fmt"
	"strings"

	"cardterm/screens/screenkit"
	"cardterm/ui"
	"cardterm/ui/keymap"
	"cardterm/ui/sanitize"
	"cardterm/ui/table"
)

// columns are the table's columns for a body width: the event id is left
// out when the terminal is narrow, so the result keeps its reason.
func columns(width int) []table.Column {
	return []table.Column{
		{Title: "Received", Width: 20},
		{Title: "Type", Min: 14},
		{Title: "Result", Min: 38}, // "✗ rejected: timestamp outside the window" whole
		{Title: "Event ID", Min: 10, Hidden: width > 0 && width < 110},
	}
}

// SetSize implements ui.Screen.
func (s *Screen) SetSize(width, height int) {
	s.Width, s.Height = width, height
	s.table.SetColumns(columns(width))
	s.layout()
	s.head = s.heading()
	s.layoutPane()
}

// layout splits the body under the heading: the list takes what its rows
// need up to two fifths, the detail pane the rest.
func (s *Screen) layout() {
	rest := max(s.Height-2, 6)
	s.tableHeight = max(min(rest*2/5, len(s.deliveries)+3), 4)
	s.paneHeight = max(rest-s.tableHeight-1, 2)
	s.table.SetSize(s.Width, s.tableHeight)
}

// CopyValue implements ui.Copier: the selected delivery's body as it
// arrived (a support agent pastes it into a ticket).
func (s *Screen) CopyValue() (label, value string, ok bool) {
	d, found := s.selected()
	if !found || len(d.Body) == 0 {
		return "", "", false
	}
	return "the body of " + sanitize.Text(orUnknown(d.EventType)), string(d.Body), true
}

// View implements ui.Screen.
func (s *Screen) View() string {
	st := s.Deps.Styles
	lines := []string{s.head, ""}
	switch {
	case s.Deps.Events == nil:
		lines = append(lines, st.Muted.Render("No in-app listener runs in this session, so no delivery can arrive here."),
			st.Muted.Render("cardterm listen receives deliveries in a terminal of its own."))
		return screenkit.Place(strings.Join(lines, "\n"), s.Width, s.Height)
	case len(s.deliveries) == 0:
		return screenkit.Place(strings.Join(append(lines, s.emptyHint()...), "\n"), s.Width, s.Height)
	}
	var b strings.Builder
	b.Grow((s.Width + 64) * s.Height)
	b.WriteString(s.head)
	b.WriteString("\n\n")
	b.WriteString(ui.FitBlock(s.table.View(), s.Width, s.tableHeight))
	b.WriteString("\n\n")
	b.WriteString(ui.FitBlock(s.paneText, s.Width, s.paneHeight))
	return ui.FitBlock(b.String(), s.Width, s.Height)
}

// layoutPane builds the pane once per key, change of selection, size or
// theme, so a frame only draws it (a body may be 1 MiB).
func (s *Screen) layoutPane() {
	s.paneTitle, s.paneLines = s.fieldsPane()
	s.paneOffset = min(s.paneOffset, s.maxPaneOffset())
	s.paneText = s.paneView()
}

// paneRoom is the rows of the pane under its title.
func (s *Screen) paneRoom() int { return max(s.paneHeight-1, 1) }

// maxPaneOffset is how far the pane scrolls: its last line on its last row.
func (s *Screen) maxPaneOffset() int {
	return screenkit.ScrollLast(len(s.paneLines), s.paneRoom())
}

// paneView draws the pane from paneOffset, saying what is hidden above
// and below as every scrolled pane does.
func (s *Screen) paneView() string {
	rows := screenkit.Scrolled(s.Deps.Styles, s.paneLines, s.paneOffset, s.paneRoom())
	return s.paneTitle + "\n" + strings.Join(rows, "\n")
}

// heading names the screen, where the listener listens and what came.
func (s *Screen) heading() string {
	st := s.Deps.Styles
	head := st.Title.Render("Events")
	if s.Deps.Events == nil {
		return head
	}
	rejected := 0
	for _, d := range s.deliveries {
		if !d.Verified {
			rejected++
		}
	}
	info := "listening on " + s.Deps.EventsURL + fmt.Sprintf(" · %d %s", len(s.deliveries), screenkit.Plural(len(s.deliveries), "delivery", "deliveries"))
	if rejected > 0 {
		info += fmt.Sprintf(" (%d rejected)", rejected)
	}
	if s.feed != nil && s.feed.closed {
		info += " · listener stopped"
	}
	return ui.FitLine(head+"  "+st.Muted.Render(info), s.Width)
}

// emptyHint says how to make an event arrive, wrapped to the width.
func (s *Screen) emptyHint() []string {
	if text := s.hookHint(); text != "" && s.Deps.LocalSandbox() {
		return s.wrapHint(text)
	}
	text := "No delivery yet. On " + s.Deps.ScreenNamed(screenkit.WebhooksScreen, "Webhooks") + ", " + keymap.Key("webhooks.listen") +
		" points a webhook at this listener (" + keymap.Key("webhooks.listen-new") + " adds a new one); then freeze the card, or press " +
		s.keys.TestEvent.Help().Key + " here to send a test event."
	if !s.Deps.LocalSandbox() {
		text = "No delivery yet. This gateway delivers only to public HTTPS addresses: run " +
			"cardterm listen --forward-to URL behind a public HTTPS tunnel to watch deliveries."
	}
	return s.wrapHint(text)
}

// Inspect implements ui.Inspectable: i shows the selected delivery's body
// exactly as it arrived, pretty-printed when it is JSON. A rejected
// delivery has no body to show (it is not kept).
func (s *Screen) Inspect() (string, []byte, bool) {
	d, ok := s.selected()
	if !ok || d.Body == nil {
		return "", nil, false
	}
	return "Delivery " + orUnknown(d.EventType) + " (#" + fmt.Sprint(d.Seq) + "), as received", d.Body, true
}
