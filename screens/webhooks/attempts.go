package webhooks

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/domain/humantime"
	"cardterm/domain/ledger"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// maxAttemptLines bounds the delivery log drawn in the detail view.
const maxAttemptLines = 24

// loadAttempts reads the delivery log of configuration id. The log
// (GET /v1/webhooks/{id}/deliveries) is the sandbox's own, not the
// gateway interface's: it is asked of the sandbox only.
func (w *Screen) loadAttempts(id string) tea.Cmd {
	client := w.Deps.Client
	w.attempts, w.attemptsErr, w.attemptsFor = nil, nil, id
	if !w.Deps.LocalSandbox() {
		return nil
	}
	return ui.Start(w.Requests, &w.attemptsID, func(ctx context.Context) ([]apiclient.WebhookDelivery, error) {
		return client.WebhookDeliveries(ctx, id)
	})
}

// attemptsNotOffered reports a gateway without delivery logs.
func attemptsNotOffered(err error) bool {
	return apiclient.IsNotFound(err) || apiclient.IsStatus(err, http.StatusMethodNotAllowed) ||
		apiclient.IsStatus(err, http.StatusNotImplemented)
}

// attemptsSection lists the latest deliveries to configuration id, each
// with its attempts: number, the receiver's status (or why none came),
// time, duration and when the next try follows.
func (w *Screen) attemptsSection(id string, width int) string {
	st := w.Deps.Styles
	title := "Delivery attempts"
	switch {
	case !w.Deps.LocalSandbox():
		return screenkit.Section(st, title, st.Muted.Render("Delivery attempts are shown for the sandbox gateway only: the gateway interface has no delivery log."))
	case w.attemptsFor != id || (w.attempts == nil && w.attemptsErr == nil):
		return screenkit.Section(st, title, st.Muted.Render("loading…"))
	case attemptsNotOffered(w.attemptsErr):
		return screenkit.Section(st, title, st.Muted.Render("Delivery attempts are not available from this gateway (it keeps no delivery log)."))
	case w.attemptsErr != nil:
		return screenkit.Section(st, title, st.Text(theme.ToneDanger).Render("Could not load them: "+sanitize.Text(apiclient.ErrorMessage(w.attemptsErr))))
	case len(w.attempts) == 0:
		return screenkit.Section(st, title, st.Muted.Render("No event sent to it yet."))
	}
	var lines []string
	for _, d := range w.attempts {
		if len(lines) >= maxAttemptLines {
			lines = append(lines, st.Muted.Render("… older deliveries not shown"))
			break
		}
		lines = append(lines, deliveryHead(st, d, width)...)
		lines = append(lines, strings.Split(screenkit.RenderFields(st, attemptFields(d.Attempts), width), "\n")...)
	}
	return screenkit.Section(st, title+st.Muted.Render("  r reloads"), strings.Join(lines, "\n"))
}

// deliveryHead is a delivery's line: event, state, time and event id; the
// id goes whole to a line of its own when the line is too wide for width,
// rather than being cut at the screen's edge.
func deliveryHead(st *theme.Styles, d apiclient.WebhookDelivery, width int) []string {
	head := st.Value.Render(sanitize.Text(d.EventType)) + "  " + stateBadge(st, d.State) + "  " +
		st.Muted.Render(sanitize.Text(screenkit.FormatTime(d.CreatedAt)))
	event := "event " + sanitize.Text(d.EventID)
	if whole := head + st.Muted.Render(" · "+event); ui.CellWidth(whole) <= width {
		return []string{whole}
	}
	return []string{ui.FitMarked(head, width), ui.FitMarked(st.Muted.Render("  "+event), width)}
}

// stateBadge colours a delivery's state.
func stateBadge(st *theme.Styles, state string) string {
	tone := theme.ToneInfo
	switch state {
	case "delivered":
		tone = theme.ToneOK
	case "failed":
		tone = theme.ToneDanger
	case "retrying":
		tone = theme.ToneWarn
	}
	return st.Badge(strings.ToUpper(sanitize.Text(state)), tone)
}

// attemptFields are a delivery's attempts under its line, each labelled
// by its number: an attempt too long for the screen (a refused connection
// and why) wraps under its label, read whole rather than cut at the edge.
func attemptFields(attempts []apiclient.WebhookAttempt) []screenkit.Field {
	fields := make([]screenkit.Field, 0, len(attempts))
	for i, a := range attempts {
		var previous *apiclient.WebhookAttempt
		if i > 0 {
			previous = &attempts[i-1]
		}
		fields = append(fields, screenkit.Field{Label: fmt.Sprintf("  #%d", a.Attempt), Styled: attemptOutcome(a, previous)})
	}
	return fields
}

// attemptLine is one attempt: "#2  503 Service Unavailable  1 s after
// #1 · 12 ms · next try in 2 s"; previous is the attempt before it, nil
// for the first.
func attemptLine(a apiclient.WebhookAttempt, previous *apiclient.WebhookAttempt) string {
	return sanitize.Text(fmt.Sprintf("#%d  ", a.Attempt)) + attemptOutcome(a, previous)
}

// attemptOutcome is an attempt's line after its number, sanitized.
func attemptOutcome(a apiclient.WebhookAttempt, previous *apiclient.WebhookAttempt) string {
	outcome := "no answer"
	if a.Status != 0 {
		outcome = fmt.Sprintf("%d %s", a.Status, http.StatusText(a.Status))
	}
	if a.Error != "" && a.Status == 0 {
		outcome += ": " + a.Error
	}
	line := fmt.Sprintf("%s  %s · %d ms", outcome, attemptWhen(a, previous), a.DurationMs)
	if a.NextAttemptAt != "" {
		line += " · next try " + nextTryWhen(a)
	}
	return sanitize.Text(line)
}

// closeGap is how near two moments are written by the span between them
// (humantime): retries follow 1, 2, 4 and 8 s apart, and two times of
// one minute (TimeLayout) would read the same.
const closeGap = time.Minute

// attemptWhen is when a was made: the span since the attempt before when
// the two are close ("2 s after #1"), else its time.
func attemptWhen(a apiclient.WebhookAttempt, previous *apiclient.WebhookAttempt) string {
	if previous != nil {
		if gap, ok := closeSpan(previous.At, a.At); ok {
			return humantime.Duration(gap) + " after #" + strconv.Itoa(previous.Attempt)
		}
	}
	return screenkit.FormatTime(a.At)
}

// nextTryWhen is when the retry after a follows: "in 4 s" when it is
// close, else its time.
func nextTryWhen(a apiclient.WebhookAttempt) string {
	if gap, ok := closeSpan(a.At, a.NextAttemptAt); ok {
		return "in " + humantime.Duration(gap)
	}
	return screenkit.FormatTime(a.NextAttemptAt)
}

// closeSpan is how long after from until is, when both are timestamps
// and until follows within closeGap.
func closeSpan(from, until string) (time.Duration, bool) {
	start, ok := ledger.ParseTime(from)
	end, ok2 := ledger.ParseTime(until)
	gap := end.Sub(start)
	return gap, ok && ok2 && gap >= 0 && gap < closeGap
}

// detailExtraFields are the fields the gateway added to a configuration,
// lastDelivery (the latest attempt) as one readable line ("card.frozen ·
// failed · attempt 5 · the receiver answered 500 · 2026-11-29 14:57 UTC");
// its attempts are listed in full below. The line is long (the error says
// why): it wraps under its label rather than losing its middle.
func detailExtraFields(st *theme.Styles, extra apiclient.Extra) []screenkit.Field {
	last := apiclient.RawJSON(extra["lastDelivery"])
	eventType := textField(last, "eventType")
	if eventType == "" {
		return screenkit.ExtraFields(extra)
	}
	rest := maps.Clone(extra)
	delete(rest, "lastDelivery")
	field := screenkit.Field{Label: "Last delivery", Styled: st.Value.Render(sanitize.Text(lastDeliveryLine(last, eventType)))}
	return append([]screenkit.Field{field}, screenkit.ExtraFields(rest)...)
}

// lastDeliveryLine is the latest attempt in one line: event, state,
// attempt, what went wrong (or the receiver's status) and when.
func lastDeliveryLine(last apiclient.RawJSON, eventType string) string {
	parts := []string{eventType}
	if state := textField(last, "state"); state != "" {
		parts = append(parts, state)
	}
	if attempt := intField(last, "attempt"); attempt > 0 {
		parts = append(parts, fmt.Sprintf("attempt %d", attempt))
	}
	errorText := textField(last, "error")
	switch status := intField(last, "status"); {
	case errorText != "":
		parts = append(parts, errorText)
	case status > 0:
		parts = append(parts, fmt.Sprintf("answered %d", status))
	}
	if at := textField(last, "at"); at != "" {
		parts = append(parts, screenkit.FormatTime(at))
	}
	return strings.Join(parts, " · ")
}

// textField is the text at path, "" when absent or null.
func textField(record apiclient.RawJSON, path string) string {
	if text, _ := record.Field(path); text != "null" {
		return text
	}
	return ""
}

// intField is the whole number at path, 0 when absent or not a number.
func intField(record apiclient.RawJSON, path string) int {
	text, _ := record.Field(path)
	n, _ := strconv.Atoi(text)
	return n
}
