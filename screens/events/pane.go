package events

import (
	"fmt"
	"strings"

	"cardterm/apiclient"
	"cardterm/apiclient/webhookreceiver"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui/sanitize"
)

// fieldsPane is the selected delivery: the verdict, every field of its
// body (labelled, sanitized), then the signature headers.
func (s *Screen) fieldsPane() (string, []string) {
	st := s.Deps.Styles
	d, ok := s.selected()
	if !ok {
		return st.Muted.Render("No delivery selected."), nil
	}
	verdict := st.Badge("VERIFIED", theme.ToneOK)
	if !d.Verified {
		verdict = st.Badge("REJECTED", theme.ToneDanger) + " " + st.Text(theme.ToneDanger).Render(sanitize.Text(d.Reason.Summary()))
	}
	body := s.bodies.of(d)
	fields := make([]screenkit.Field, 0, len(body)+7)
	fields = append(fields, screenkit.Field{Label: "Result", Styled: verdict})
	if !d.Verified {
		why := strings.TrimPrefix(d.Detail, d.Reason.Summary()+": ")
		fields = append(fields, screenkit.Field{Label: "Why", Value: why})
	}
	fields = append(fields, screenkit.Field{Label: "Received", Value: fmt.Sprintf("%s (#%d, answered %d)", receivedAt(d), d.Seq, d.Status)})
	fields = append(fields, body...)
	switch {
	case !d.Verified:
		// A rejected delivery is kept without its body (a flood of them
		// must not fill the memory): its size and first bytes.
		fields = append(fields, screenkit.Field{Label: "Body", Value: rejectedBody(d)})
	case len(body) == 0:
		fields = append(fields, screenkit.Field{Label: "Body", Value: fmt.Sprintf("not a JSON object (%d bytes): i shows it as sent", len(d.Body))})
	}
	fields = append(fields,
		screenkit.Field{Label: apiclient.WebhookTimestampHeader, Value: d.Header.Get(apiclient.WebhookTimestampHeader)},
		screenkit.Field{Label: apiclient.WebhookSignatureHeader, Value: d.Header.Get(apiclient.WebhookSignatureHeader)},
		screenkit.Field{Label: "From", Value: d.RemoteAddr + " " + d.Path},
	)
	title := st.Subtitle.Render("Delivery " + sanitize.Text(orUnknown(d.EventType)))
	if d.Body != nil {
		title += st.Muted.Render("  i raw JSON")
	}
	return title, strings.Split(screenkit.RenderFields(st, fields, s.Width), "\n")
}

// rejectedBody says what is kept of a rejected delivery's body.
func rejectedBody(d webhookreceiver.Delivery) string {
	size := fmt.Sprintf("%d bytes", d.Size)
	if d.Size > webhookreceiver.MaxBody {
		size = fmt.Sprintf("over %d bytes", webhookreceiver.MaxBody)
	}
	if d.BodyPrefix == "" {
		return "not kept (" + size + ")"
	}
	return "not kept (" + size + "); it began " + d.BodyPrefix
}

// bodyFieldsBudget bounds the bodies whose fields are kept: beyond it the
// fields are forgotten and read again when their delivery is selected.
const bodyFieldsBudget = 8 << 20

// bodyFields keeps the labelled fields of the bodies of the deliveries
// selected so far, by sequence number: moving back and forth in the list
// reads each body once (a body of 60 nested fields cost about 130
// allocations a key press).
type bodyFields struct {
	bySeq map[int64][]screenkit.Field
	bytes int
}

// of returns the fields of d's body, labelled, reading it the first time.
func (b *bodyFields) of(d webhookreceiver.Delivery) []screenkit.Field {
	if fields, ok := b.bySeq[d.Seq]; ok {
		return fields
	}
	sent := apiclient.RawJSON(d.Body).Fields()
	paths := make([]string, len(sent))
	for i, f := range sent {
		paths[i] = f.Path
	}
	labels := screenkit.Labels(paths)
	fields := make([]screenkit.Field, len(sent))
	for i, f := range sent {
		fields[i] = screenkit.Field{Label: labels[i], Value: f.Value}
	}
	if b.bySeq == nil || b.bytes+len(d.Body) > bodyFieldsBudget {
		b.bySeq, b.bytes = map[int64][]screenkit.Field{}, 0
	}
	b.bySeq[d.Seq] = fields
	b.bytes += len(d.Body)
	return fields
}
