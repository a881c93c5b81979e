package ui

import (
	"context"
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
)

// Notice lifetimes: short for information, longer for errors so they can be
// read before they go.
const (
	NoticeLifetime      = 6 * time.Second
	ErrorNoticeLifetime = 12 * time.Second
)

// Notice is one line of feedback shown at the right of the status bar. All
// errors and confirmations are reported this one way.
type Notice struct {
	Tone  theme.Tone
	Text  string    // already sanitized
	Until time.Time // zero: the root sets it from its clock and the tone
}

// NoticeMsg carries a notice to the root model, which shows the latest one.
type NoticeMsg struct{ Notice Notice }

// noticeExpireMsg asks the root to drop the notice with the given sequence
// number if it has expired.
type noticeExpireMsg struct{ seq int }

// Lifetime is how long a notice in this tone stays on screen.
func Lifetime(t theme.Tone) time.Duration {
	if t >= theme.ToneWarn {
		return ErrorNoticeLifetime
	}
	return NoticeLifetime
}

// Notify reports a notice; text is sanitized here so callers may pass
// gateway strings.
func Notify(tone theme.Tone, text string) tea.Cmd {
	n := Notice{Tone: tone, Text: Sanitize(text)}
	return func() tea.Msg { return NoticeMsg{Notice: n} }
}

// ReportError reports a failed action as a notice: a cancelled request is
// information ("<what> cancelled"), anything else is a danger notice
// "<what>: <error>". A nil error reports nothing.
func ReportError(what string, err error) tea.Cmd {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) {
		return Notify(theme.ToneInfo, what+" cancelled")
	}
	return Notify(theme.ToneDanger, what+": "+err.Error())
}
