package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"charm.land/lipgloss/v2"

	"cardterm/sandbox/webhookreceiver"
	"cardterm/ui/sanitize"
)

// deliveryLine is the JSON form of a delivery that `cardterm listen` prints
// when piped: one object per line.
type deliveryLine struct {
	Seq        int64               `json:"seq"`
	ReceivedAt string              `json:"receivedAt"`
	Verified   bool                `json:"verified"`
	Reason     string              `json:"reason,omitempty"`
	Detail     string              `json:"detail,omitempty"`
	Status     int                 `json:"status"`
	EventType  string              `json:"eventType,omitempty"`
	EventID    string              `json:"eventId,omitempty"`
	UserID     string              `json:"userId,omitempty"`
	Path       string              `json:"path"`
	Headers    map[string][]string `json:"headers"`
	// Body is a verified body as JSON when it is valid JSON in UTF-8;
	// BodyText holds any other verified body as a string. A rejected
	// delivery has neither: its size and the start of its body.
	Body       json.RawMessage `json:"body,omitempty"`
	BodyText   *string         `json:"bodyText,omitempty"`
	Size       int             `json:"size"`
	BodyPrefix string          `json:"bodyPrefix,omitempty"`
	Forward    *forwardLine    `json:"forward,omitempty"`
}

type forwardLine struct {
	URL        string `json:"url"`
	Pattern    string `json:"pattern,omitempty"`
	Status     int    `json:"status,omitempty"`
	DurationMs int64  `json:"durationMs"`
	Error      string `json:"error,omitempty"`
	Chaos      string `json:"chaos,omitempty"`
	// Counts are the target's so far, this forward included.
	Counts *webhookreceiver.RouteCount `json:"counts,omitempty"`
}

// deliveryJSONLine encodes d as one line of JSON in which every control,
// bidi and zero-width character is escaped, so no sender can drive the
// terminal that shows it.
func deliveryJSONLine(d webhookreceiver.Delivery, counts *webhookreceiver.RouteCount) []byte {
	line := deliveryLine{Seq: d.Seq, ReceivedAt: d.ReceivedAt.UTC().Format(time.RFC3339Nano), Verified: d.Verified,
		Reason: string(d.Reason), Detail: d.Detail, Status: d.Status, EventType: d.EventType, EventID: d.EventID,
		UserID: d.UserID, Path: d.Path, Headers: map[string][]string(d.Header), Size: d.Size, BodyPrefix: d.BodyPrefix}
	switch {
	case !d.Verified:
	case len(bytes.TrimSpace(d.Body)) > 0 && utf8.Valid(d.Body) && json.Valid(d.Body):
		line.Body = d.Body
	default:
		text := strings.ToValidUTF8(string(d.Body), "\uFFFD")
		line.BodyText = &text
	}
	if f := d.Forward; f != nil {
		line.Forward = &forwardLine{URL: f.URL, Pattern: f.Pattern, Status: f.Status, DurationMs: f.Duration.Milliseconds(),
			Error: f.Error, Chaos: f.Chaos, Counts: counts}
	}
	b, err := json.Marshal(line)
	if err != nil { // only a body json.Valid accepted but Marshal did not
		line.Body, line.BodyText = nil, new(string)
		*line.BodyText = string(d.Body)
		b, _ = json.Marshal(line)
	}
	return append(sanitize.JSON(b), '\n')
}

// Styles of the live list: status in colour, the rest plain. Functions,
// as are the other commands' styles: a package-level style is built
// before main on every start, and making one is cheap.
func verifiedStyle() lipgloss.Style { return lipgloss.NewStyle().Foreground(lipgloss.Green).Bold(true) }
func rejectedStyle() lipgloss.Style { return lipgloss.NewStyle().Foreground(lipgloss.Red).Bold(true) }
func faintStyle() lipgloss.Style    { return lipgloss.NewStyle().Faint(true) }

// printDeliveryLine writes d as a row of the live list; every value the
// sender chose is sanitized. Colours follow the terminal (and NO_COLOR).
func printDeliveryLine(w io.Writer, d webhookreceiver.Delivery) {
	_, _ = lipgloss.Fprintln(w, deliveryRow(d))
}

// deliveryRow is the text of one live-list row.
func deliveryRow(d webhookreceiver.Delivery) string {
	eventType := d.EventType
	if eventType == "" {
		eventType = "(no event_type)"
	}
	var b strings.Builder
	b.WriteString(faintStyle().Render(d.ReceivedAt.Local().Format("15:04:05")))
	b.WriteString("  ")
	if d.Verified {
		b.WriteString(verifiedStyle().Render(fmt.Sprintf("%-9s", "verified")))
	} else {
		b.WriteString(rejectedStyle().Render(fmt.Sprintf("%-9s", "rejected")))
	}
	fmt.Fprintf(&b, " %d  %-22s", d.Status, sanitize.Text(eventType))
	if d.EventID != "" {
		fmt.Fprintf(&b, "  %s", faintStyle().Render(sanitize.Text(d.EventID)))
	}
	if !d.Verified {
		fmt.Fprintf(&b, "  %s", rejectedStyle().Render(sanitize.Text(d.Detail)))
		fmt.Fprintf(&b, "  %s", faintStyle().Render(bodySummary(d)))
	}
	writeForward(&b, d.Forward)
	return b.String()
}

// bodySummary is what a rejected delivery keeps of its body: its size and
// its first bytes (printable already).
func bodySummary(d webhookreceiver.Delivery) string {
	size := fmt.Sprintf("%d bytes", d.Size)
	if d.Size > webhookreceiver.MaxBody {
		size = fmt.Sprintf("over %d bytes", webhookreceiver.MaxBody)
	}
	if d.BodyPrefix == "" {
		return "(" + size + ")"
	}
	return "(" + size + ": " + sanitize.Text(d.BodyPrefix) + ")"
}

// printForwardLine writes how a verified delivery's forward went, as a row
// under the live list's rows.
func printForwardLine(w io.Writer, d webhookreceiver.Delivery, counts *webhookreceiver.RouteCount) {
	var b strings.Builder
	b.WriteString(faintStyle().Render(time.Now().Local().Format("15:04:05")))
	fmt.Fprintf(&b, "  forwarded #%d %s", d.Seq, sanitize.Text(d.EventType))
	if d.Forward != nil && d.Forward.Chaos != "" {
		fmt.Fprintf(&b, " (chaos: %s)", d.Forward.Chaos)
	}
	writeForward(&b, d.Forward)
	if counts != nil {
		b.WriteString("  " + faintStyle().Render(routeCountText(*counts)))
	}
	_, _ = lipgloss.Fprintln(w, b.String())
}

// routeCountText is a target's counts in a few words.
func routeCountText(c webhookreceiver.RouteCount) string {
	return fmt.Sprintf("[%s → %s: %d forwarded, %d failed, %d dropped, %d pending]", sanitize.Text(c.Pattern), sanitize.Text(c.URL),
		c.Forwarded, c.Failed, c.Dropped, max(0, c.Pending()))
}

// writeForward appends a forward's outcome to a row.
func writeForward(b *strings.Builder, f *webhookreceiver.ForwardResult) {
	if f != nil {
		switch {
		case f.Error != "":
			fmt.Fprintf(b, "  → %s", rejectedStyle().Render("forward failed: "+sanitize.Text(f.Error)))
		case f.Status >= 200 && f.Status < 300:
			fmt.Fprintf(b, "  → %s in %s", verifiedStyle().Render(fmt.Sprint(f.Status)), f.Duration.Round(time.Millisecond))
		default:
			fmt.Fprintf(b, "  → %s in %s", rejectedStyle().Render(fmt.Sprintf("%d %s", f.Status, http.StatusText(f.Status))), f.Duration.Round(time.Millisecond))
		}
	}
}
