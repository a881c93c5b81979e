package events

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox/webhookreceiver"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/keymap"
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
		fields = append(fields, screenkit.Field{Label: "Body", Value: fmt.Sprintf("not a JSON object (%d bytes): %s shows it as sent", len(d.Body), keymap.Key("global.inspect"))})
	}
	fields = append(fields,
		screenkit.Field{Label: "Signed", Value: signedAt(d.Header.Get(apiclient.WebhookTimestampHeader))},
		screenkit.Field{Label: "Signature", Value: ui.Shorten(d.Header.Get(apiclient.WebhookSignatureHeader), 24)},
		screenkit.Field{Label: "From", Value: d.RemoteAddr + " " + d.Path},
	)
	title := st.Subtitle.Render("Delivery " + sanitize.Text(orUnknown(d.EventType)))
	if d.Body != nil {
		title += st.Muted.Render("  " + keymap.Key("global.inspect") + " raw JSON")
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

// envelope are the members every event has, in the order the detail
// shows them and with the words other details use; the event object's
// fields come between them and the rest, labelled without their prefix.
var envelope = []struct{ path, label string }{
	{"event_type", "Event"}, {"event_id", "Event ID"}, {"user_id", "User"}, {"occurred_at", "Occurred"},
	{"event_object_id", "About"},
}

// of returns the fields of d's body, labelled, reading it the first time:
// the event (type, id, user, when, what about), then its object's fields,
// then any other member; times read as every time in the app.
func (b *bodyFields) of(d webhookreceiver.Delivery) []screenkit.Field {
	if fields, ok := b.bySeq[d.Seq]; ok {
		return fields
	}
	sent := apiclient.RawJSON(d.Body).Fields()
	var head, object, rest []screenkit.Field
	var objectPaths, restPaths []string
	for _, e := range envelope {
		for _, f := range sent {
			if f.Path == e.path {
				head = append(head, screenkit.Field{Label: e.label, Value: screenkit.FormatTime(f.Value)})
			}
		}
	}
	for _, f := range sent {
		switch inner, isObject := strings.CutPrefix(f.Path, "event_object."); {
		case slices.ContainsFunc(envelope, func(e struct{ path, label string }) bool { return e.path == f.Path }):
		case isObject:
			object = append(object, screenkit.Field{Value: screenkit.SentValue(f.Value)})
			objectPaths = append(objectPaths, inner)
		default:
			rest = append(rest, screenkit.Field{Value: screenkit.SentValue(f.Value)})
			restPaths = append(restPaths, f.Path)
		}
	}
	for i, label := range screenkit.Labels(objectPaths) {
		object[i].Label = label
	}
	// "About" names the object; its own id says the same again.
	if i := slices.Index(objectPaths, "id"); i >= 0 && slices.ContainsFunc(head, func(f screenkit.Field) bool {
		return f.Label == "About" && f.Value == object[i].Value
	}) {
		object = slices.Delete(object, i, i+1)
	}
	for i, label := range screenkit.Labels(restPaths) {
		rest[i].Label = label
	}
	fields := append(append(head, object...), rest...)
	if b.bySeq == nil || b.bytes+len(d.Body) > bodyFieldsBudget {
		b.bySeq, b.bytes = map[int64][]screenkit.Field{}, 0
	}
	b.bySeq[d.Seq] = fields
	b.bytes += len(d.Body)
	return fields
}

// signedAt is an X-Timestamp (unix seconds) as a time, or as sent when it
// is not one.
func signedAt(timestamp string) string {
	sec, err := strconv.ParseInt(strings.TrimSpace(timestamp), 10, 64)
	if err != nil {
		return timestamp
	}
	return screenkit.FormatTime(time.Unix(sec, 0).UTC().Format(time.RFC3339))
}
