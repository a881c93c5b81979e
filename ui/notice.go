package ui

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
	"cardterm/ui/keymap"
	"cardterm/ui/sanitize"
)

// NoticeLifetime is how long information stays on screen. Warnings and
// errors stay until the next key press, so they can be read; every notice
// can be read again in the notice log.
const NoticeLifetime = 6 * time.Second

// noticeLogSize bounds the notice log: the session's last notices.
const noticeLogSize = 200

// Notice is one line of feedback. All errors and confirmations are reported
// this one way and shown in one place.
type Notice struct {
	Tone theme.Tone
	Text string // already sanitized
	// Screen is the screen whose command raised it: it is shown only there
	// (or everywhere when raised by the shell). The root sets it.
	Screen ScreenID
	// At is when it was raised; the root sets it from its clock.
	At time.Time
	// Until is when it fades; zero means the tone decides.
	Until time.Time
	// Answer is the gateway's error answer behind an error notice (its
	// head, AnswerCut when it went on), which i opens in the inspector
	// while the notice shows.
	Answer    []byte
	AnswerCut bool
	// Unless is a screen that says the same in its body: while it is
	// shown the notice stays off the status bar (it is in the log), so the
	// message is said once where the user looks.
	Unless ScreenID
	// Everywhere shows a screen's notice on every screen: an alert the
	// user wants wherever they are (NotifyEverywhere).
	Everywhere bool

	stamped bool
	// seq numbers the notices the root shows, so a fade or a key press
	// takes off this one and no other.
	seq int
}

// source is who raised the notice: its screen, or "" for the shell. The
// root keeps one live notice per source.
func (n Notice) source() ScreenID {
	if n.stamped {
		return n.Screen
	}
	return ""
}

// showsOn is the rule for where a notice shows, given the screen shown
// ("" when none): one raised by the shell or meant for every screen shows
// everywhere, one that its screen says in its body everywhere else, any
// other only on the screen that raised it.
func (n Notice) showsOn(shown ScreenID) bool {
	switch {
	case n.Unless != "":
		return shown != n.Unless
	case !n.stamped || n.Everywhere:
		return true
	default:
		return shown != "" && shown == n.Screen
	}
}

// Sticky reports whether the notice stays until the user acts: warnings
// and errors do.
func (n Notice) Sticky() bool { return n.Tone >= theme.ToneWarn }

// NoticeMsg carries a notice to the root model, which shows the latest
// one of the screen shown.
type NoticeMsg struct{ Notice Notice }

// DismissNoticeMsg takes the notice saying Text off the status bar, and
// off every screen where it would show later (it stays in the log): an
// action that ends before
// what its notice announced (a browser sign-in cancelled) does not leave
// it saying otherwise.
type DismissNoticeMsg struct{ Text string }

// DismissNotice asks the root to take the notice saying text off the
// status bar.
func DismissNotice(text string) tea.Cmd {
	return func() tea.Msg { return DismissNoticeMsg{Text: text} }
}

// noticeExpireMsg asks the root to drop the notice with the given
// sequence number, if it is still live: it has faded.
type noticeExpireMsg struct{ seq int }

// Notify reports a notice; text is cut to MaxMessageText characters and
// sanitized here, once, so callers may pass gateway strings of any length.
func Notify(tone theme.Tone, text string) tea.Cmd {
	n := Notice{Tone: tone, Text: sanitize.Text(CutText(text, MaxMessageText))}
	return func() tea.Msg { return NoticeMsg{Notice: n} }
}

// NotifyEverywhere reports a notice every screen shows, though a screen
// raised it: an alert (a payment declined) wherever the user is.
func NotifyEverywhere(tone theme.Tone, text string) tea.Cmd {
	n := Notice{Tone: tone, Text: sanitize.Text(CutText(text, MaxMessageText)), Everywhere: true}
	return func() tea.Msg { return NoticeMsg{Notice: n} }
}

// NotifyUnlessOn reports a notice that the screen called screen says in
// its own body: it shows on every other screen, not on that one.
func NotifyUnlessOn(screen ScreenID, tone theme.Tone, text string) tea.Cmd {
	n := Notice{Tone: tone, Text: sanitize.Text(CutText(text, MaxMessageText)), Unless: screen}
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
	message := err.Error()
	if m, ok := err.(userMessage); ok {
		message = m.UserMessage()
	}
	text := Prefixed(what, message)
	n := Notice{Tone: theme.ToneDanger, Text: sanitize.Text(CutText(text, MaxMessageText))}
	var answer gatewayAnswer
	if errors.As(err, &answer) {
		if body, cut := answer.GatewayAnswer(); len(bytes.TrimSpace(body)) > 0 {
			n.Answer, n.AnswerCut = body, cut
			if cut || utf8.RuneCountInString(text) > longNoticeText {
				// Too long to read here: the notice says where it is whole.
				n.Text = sanitize.Text(CutText(text, answerNoticeText)) + " · " + keymap.Key("global.inspect") + " shows the answer"
			}
		}
	}
	return func() tea.Msg { return NoticeMsg{Notice: n} }
}

// userMessage is an error with words for the user apart from its Error
// text, which is for logs (the client's names the Go call that failed).
type userMessage interface{ UserMessage() string }

// longNoticeText is a message longer than two lines of a wide terminal
// hold: a notice that carries the gateway's answer is then cut shorter and
// says where the whole is.
const longNoticeText = 300

// answerNoticeText is the longest message of a notice that carries the
// gateway's answer: short enough that "i shows the answer" stays on its
// two lines; the whole of it is one key away.
const answerNoticeText = 100

// gatewayAnswer is an error that carries the gateway's answer (the API
// client's error does), so ui need not import the client.
type gatewayAnswer interface {
	GatewayAnswer() (body []byte, cut bool)
}

// Prefixed is "what: message", unless the message already starts with
// what, so no notice repeats its own prefix.
func Prefixed(what, message string) string {
	if what == "" || strings.HasPrefix(strings.ToLower(message), strings.ToLower(what)) {
		return message
	}
	return what + ": " + message
}

// stampNotices makes every notice a screen's command raises carry that
// screen, so it is shown where it belongs, not on whatever screen is open
// when a late answer arrives.
func stampNotices(cmd tea.Cmd, screen ScreenID) tea.Cmd {
	if cmd == nil || IsTimer(cmd) {
		return cmd // a timer's message is never a notice; keep it recognisable
	}
	return func() tea.Msg {
		switch msg := cmd().(type) {
		case NoticeMsg:
			if !msg.Notice.stamped {
				msg.Notice.Screen, msg.Notice.stamped = screen, true
			}
			return msg
		case OpenLayerMsg:
			if msg.Owner == "" {
				msg.Owner = screen // the layer shows over the screen that asked
			}
			return msg
		case tea.BatchMsg:
			for i := range msg {
				msg[i] = stampNotices(msg[i], screen)
			}
			return msg
		default:
			return msg
		}
	}
}
