package webhooks

import (
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/screens/screentest"
)

// Retries follow 1, 2, 4 and 8 s apart: two attempts of one minute are
// told apart by the span since the one before (humantime), and attempts
// far apart keep their time, written the one way the app writes times.
func TestAttemptLineSaysWhenCloseAttemptsCame(t *testing.T) {
	first := apiclient.WebhookAttempt{Attempt: 1, At: "2026-11-29T17:15:00Z", Status: 503, DurationMs: 12, NextAttemptAt: "2026-11-29T17:15:01Z"}
	for _, c := range []struct {
		name     string
		attempt  apiclient.WebhookAttempt
		previous *apiclient.WebhookAttempt
		want     string
	}{
		{"the first, its retry close", first, nil,
			"#1  503 Service Unavailable  2026-11-29 17:15 UTC · 12 ms · next try in 1 s"},
		{"a retry the same minute", apiclient.WebhookAttempt{Attempt: 2, At: "2026-11-29T17:15:01Z", Status: 503, DurationMs: 3, NextAttemptAt: "2026-11-29T17:15:03Z"}, &first,
			"#2  503 Service Unavailable  1 s after #1 · 3 ms · next try in 2 s"},
		{"a retry under a second later", apiclient.WebhookAttempt{Attempt: 2, At: "2026-11-29T17:15:00.4Z", Error: "timeout"}, &first,
			"#2  no answer: timeout  under 1 s after #1 · 0 ms"},
		{"a retry 50 s later", apiclient.WebhookAttempt{Attempt: 2, At: "2026-11-29T17:15:50Z", Status: 500}, &first,
			"#2  500 Internal Server Error  50 s after #1 · 0 ms"},
		{"a retry hours later", apiclient.WebhookAttempt{Attempt: 2, At: "2026-11-29T19:40:00Z", Status: 503, NextAttemptAt: "2026-11-29T21:40:00Z"}, &first,
			"#2  503 Service Unavailable  2026-11-29 19:40 UTC · 0 ms · next try 2026-11-29 21:40 UTC"},
		{"times that are not timestamps", apiclient.WebhookAttempt{Attempt: 2, At: "soon", Status: 503, NextAttemptAt: "later"}, &first,
			"#2  503 Service Unavailable  soon · 0 ms · next try later"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := attemptLine(c.attempt, c.previous); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// On the screen, the five attempts of one failed delivery, all made within
// a minute, each say how long after the one before they came.
func TestWebhooksDetailTellsCloseAttemptsApart(t *testing.T) {
	a := newApp(t, "alice@demo.test", screentest.WithSize(120, 40))
	flakyWithAttempts(t, a)
	a.Keys("r", "j", "j", "enter")
	// Each attempt's latency is the receiver's real one (0 ms, or 2 under
	// the race detector): the lines are matched up to it.
	a.MustShow(t, "#1  503 Service Unavailable  2026-11-22 09:00 UTC · ",
		"#2  503 Service Unavailable  1 s after #1 · ",
		"#3  503 Service Unavailable  2 s after #2 · ",
		"#4  503 Service Unavailable  4 s after #3 · ",
		"#5  503 Service Unavailable  8 s after #4 · ")
}

// At 80 columns a long delivery error (the sandbox will not send outside
// loopback, and says why at length) wraps under its label, in the attempt
// and in "Last delivery", rather than being cut at the screen's edge.
func TestWebhooksDetailWrapsLongErrorsAt80(t *testing.T) {
	a := newApp(t, "alice@demo.test", screentest.WithSize(80, 40))
	failedDelivery(t, a, "Far", "https://receiver.example/hooks")
	a.Keys("r", "j", "j", "enter")
	s := a.Screen()
	screentest.MustShow(t, s, "Webhook Far", "#1  no answer: not sent:", "Last delivery")
	body := strings.Join(strings.Split(s, "\n")[:38], "\n") // not the footer, whose hints end in "…"
	screentest.MustNotShow(t, body, "…")
	// Every word of the error is on the screen, in the attempt and in the
	// last delivery: twice, once the wrapped lines are read on.
	var body80 []string
	for _, line := range strings.Split(s, "\n") {
		if _, text, ok := strings.Cut(line, "│"); ok {
			body80 = append(body80, text)
		}
	}
	read := strings.Join(strings.Fields(strings.Join(body80, " ")), " ")
	if got := strings.Count(read, "to loopback hosts only (localhost, 127.0.0.1); point the webhook at a receiver on this machine"); got != 2 {
		t.Errorf("the whole error shows %d times, want 2:\n%s", got, s)
	}
	for _, line := range strings.Split(s, "\n") {
		if strings.Contains(line, "loopback hosts only") && !strings.HasPrefix(line, "      ") {
			t.Errorf("the wrapped error is not under its label's value: %q", line)
		}
	}
}
