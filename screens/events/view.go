package events

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
)

// columns are the table's columns for a body width: the event id is left
// out when the terminal is narrow, so the result keeps its reason.
func columns(width int) []ui.Column {
	return []ui.Column{
		{Title: "Received", Width: 20},
		{Title: "Type", Min: 14},
		{Title: "Result", Min: 38}, // "✗ rejected: timestamp outside the window" whole
		{Title: "Event ID", Min: 10, Hidden: width > 0 && width < 110},
	}
}

// SetSize implements ui.Screen.
func (s *Screen) SetSize(width, height int) {
	s.width, s.height = width, height
	s.table.SetColumns(columns(width))
	s.layout()
	if s.form != nil {
		s.form.SetWidth(min(width-2, 70))
	}
}

// layout splits the body under the heading: the list takes what its rows
// need up to two fifths, the detail pane the rest.
func (s *Screen) layout() {
	rest := max(s.height-2, 6)
	s.tableHeight = max(min(rest*2/5, len(s.deliveries)+3), 4)
	s.paneHeight = max(rest-s.tableHeight-1, 2)
	s.table.SetSize(s.width, s.tableHeight)
}

// CopyValue implements ui.Copier: the selected delivery's body as it
// arrived (a support agent pastes it into a ticket).
func (s *Screen) CopyValue() (label, value string, ok bool) {
	d, found := s.selected()
	if !found || len(d.Body) == 0 {
		return "", "", false
	}
	return "the body of " + ui.Sanitize(orUnknown(d.EventType)), string(d.Body), true
}

// View implements ui.Screen.
func (s *Screen) View() string {
	st := s.deps.Styles
	if s.form != nil {
		return screenkit.Place(s.heading()+"\n\n"+s.form.View(), s.width, s.height)
	}
	lines := []string{s.heading(), ""}
	switch {
	case s.deps.Events == nil:
		lines = append(lines, st.Muted.Render("No in-app listener runs in this session, so no delivery can arrive here."),
			st.Muted.Render("cardterm listen receives deliveries in a terminal of its own."))
		return screenkit.Place(strings.Join(lines, "\n"), s.width, s.height)
	case len(s.deliveries) == 0:
		return screenkit.Place(strings.Join(append(lines, s.emptyHint()...), "\n"), s.width, s.height)
	}
	pane := s.fieldsPane
	if s.showRaw {
		pane = s.rawPane
	}
	body := ui.FitBlock(s.table.View(), s.width, s.tableHeight) + "\n\n" + ui.FitBlock(pane(), s.width, s.paneHeight)
	return ui.FitBlock(strings.Join(lines, "\n")+"\n"+body, s.width, s.height)
}

// heading names the screen, where the listener listens and what came.
func (s *Screen) heading() string {
	st := s.deps.Styles
	head := st.Title.Render("Events")
	if s.deps.Events == nil {
		return head
	}
	rejected := 0
	for _, d := range s.deliveries {
		if !d.Verified {
			rejected++
		}
	}
	info := "listening on " + s.deps.EventsURL + fmt.Sprintf(" · %d %s", len(s.deliveries), screenkit.Plural(len(s.deliveries), "delivery", "deliveries"))
	if rejected > 0 {
		info += fmt.Sprintf(" (%d rejected)", rejected)
	}
	if s.feed != nil && s.feed.closed {
		info += " · listener stopped"
	}
	return ui.FitLine(head+"  "+st.Muted.Render(info), s.width)
}

// emptyHint says how to make an event arrive.
func (s *Screen) emptyHint() []string {
	st := s.deps.Styles
	var text []string
	if s.deps.SandboxGateway {
		text = []string{
			"No delivery yet. On the Webhooks screen (9), l points a webhook at this listener",
			"(L adds a new one); then freeze the card, or press t here to send a test event.",
		}
	} else {
		text = []string{
			"No delivery yet. This gateway delivers only to public HTTPS addresses: run",
			"cardterm listen --forward-to URL behind a public HTTPS tunnel to watch deliveries.",
		}
	}
	out := make([]string, len(text))
	for i, t := range text {
		out[i] = st.Muted.Render(ansi.Truncate(t, s.width, "…"))
	}
	return out
}

// fieldsPane is the selected delivery: the verdict, every field of its
// body (labelled, sanitized), then the signature headers.
func (s *Screen) fieldsPane() string {
	st := s.deps.Styles
	d, ok := s.selected()
	if !ok {
		return st.Muted.Render("No delivery selected.")
	}
	verdict := st.Badge("VERIFIED", theme.ToneOK)
	if !d.Verified {
		verdict = st.Badge("REJECTED", theme.ToneDanger) + " " + st.Text(theme.ToneDanger).Render(ui.Sanitize(d.Reason.Summary()))
	}
	fields := []screenkit.Field{{Label: "Result", Styled: verdict}}
	if !d.Verified {
		why := strings.TrimPrefix(d.Detail, d.Reason.Summary()+": ")
		fields = append(fields, screenkit.Field{Label: "Why", Value: why})
	}
	fields = append(fields, screenkit.Field{Label: "Received", Value: fmt.Sprintf("%s (#%d, answered %d)", receivedAt(d), d.Seq, d.Status)})
	body := apiclient.RawJSON(d.Body).Fields()
	for _, f := range body {
		fields = append(fields, screenkit.Field{Label: screenkit.Label(f.Path), Value: f.Value})
	}
	if len(body) == 0 {
		fields = append(fields, screenkit.Field{Label: "Body", Value: fmt.Sprintf("not a JSON object (%d bytes): i shows it as sent", len(d.Body))})
	}
	fields = append(fields,
		screenkit.Field{Label: apiclient.WebhookTimestampHeader, Value: d.Header.Get(apiclient.WebhookTimestampHeader)},
		screenkit.Field{Label: apiclient.WebhookSignatureHeader, Value: d.Header.Get(apiclient.WebhookSignatureHeader)},
		screenkit.Field{Label: "From", Value: d.RemoteAddr + " " + d.Path},
	)
	title := "Delivery " + ui.Sanitize(orUnknown(d.EventType)) + st.Muted.Render("  i raw JSON")
	return screenkit.Section(st, title, screenkit.RenderFields(st, fields, s.width))
}

// rawPane is the selected delivery's body exactly as it arrived,
// pretty-printed when it is JSON, sanitized either way.
func (s *Screen) rawPane() string {
	st := s.deps.Styles
	d, ok := s.selected()
	if !ok {
		return st.Muted.Render("No delivery selected.")
	}
	text := string(d.Body)
	var pretty bytes.Buffer
	if json.Indent(&pretty, d.Body, "", "  ") == nil {
		text = pretty.String()
	}
	lines := strings.Split(ui.SanitizeMultiline(text), "\n")
	if len(lines) > s.paneHeight-1 && s.paneHeight > 2 {
		more := len(lines) - (s.paneHeight - 2)
		lines = append(lines[:s.paneHeight-2], st.Muted.Render(fmt.Sprintf("… %d more lines (y copies the whole body)", more)))
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, s.width, "…")
	}
	title := "Body of " + ui.Sanitize(orUnknown(d.EventType)) + ", as received" + st.Muted.Render("  i fields")
	return st.Subtitle.Render(title) + "\n" + strings.Join(lines, "\n")
}
