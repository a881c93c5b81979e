package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/ui/sanitize"
)

// setNotice shows a notice and logs it. Information fades after
// NoticeLifetime; warnings and errors stay until the next key press.
func (r *Root) setNotice(n Notice) tea.Cmd {
	// Notify sanitizes already; a NoticeMsg built by hand may carry gateway
	// text too, and sanitize.Text leaves clean text as it is.
	n.Text = sanitize.Text(n.Text)
	now := r.opts.Now()
	n.At = now
	r.notice = n
	r.logNotice(n)
	r.noticeSeq++
	seq := r.noticeSeq
	resize := r.layoutNotice()
	if n.Sticky() && n.Until.IsZero() {
		return resize
	}
	life := NoticeLifetime
	if !n.Until.IsZero() {
		life = max(n.Until.Sub(now), 0)
	}
	return tea.Batch(resize, tea.Tick(life, func(time.Time) tea.Msg { return noticeExpireMsg{seq: seq} }))
}

// logNotice keeps n in the notice log (m). The log keeps the text alone:
// 200 gateway answers of 64 KiB would be 12 MiB for lines no one
// inspects again.
func (r *Root) logNotice(n Notice) {
	n.Answer, n.AnswerCut = nil, false
	r.noticesLogged++
	r.noticeLog = append(r.noticeLog, n)
	if len(r.noticeLog) > noticeLogSize {
		r.noticeLog = r.noticeLog[len(r.noticeLog)-noticeLogSize:]
	}
}

// clearNotice dismisses the notice on screen (it stays in the log).
func (r *Root) clearNotice() tea.Cmd {
	if r.notice.Text == "" {
		return nil
	}
	r.notice = Notice{}
	return r.layoutNotice()
}

// visibleNotice is the notice for the screen shown now: one raised by the
// shell shows everywhere, one raised by a screen only on that screen.
func (r *Root) visibleNotice() (Notice, bool) {
	n := r.notice
	if n.Text == "" {
		return n, false
	}
	s := r.Active()
	if n.Unless != "" {
		// Shown on every screen but the one that says it in its body.
		return n, s == nil || s.ID() != n.Unless
	}
	if !n.stamped || n.Everywhere {
		return n, true
	}
	return n, s != nil && s.ID() == n.Screen
}

// layoutNotice decides where the notice goes: on the status bar when it fits
// beside what the bar shows, otherwise whole on up to two lines of its own
// above the bar (the body gives them up). It resizes the screens when the
// body's height changes.
func (r *Root) layoutNotice() tea.Cmd {
	before := len(r.noticeLines)
	r.noticeLines = nil
	if n, ok := r.visibleNotice(); ok && r.width > 0 {
		room := r.width - ansi.StringWidth(r.statusLeft()) - 3
		if ansi.StringWidth(n.Text) > room {
			lines := strings.Split(ansi.Wrap(n.Text, max(r.width-2, 1), " "), "\n")
			if len(lines) > 2 {
				lines = []string{lines[0], ansi.Truncate(strings.Join(lines[1:], " "), max(r.width-2, 1), "…")}
			}
			r.noticeLines = lines
		}
	}
	if len(r.noticeLines) != before {
		return r.resize()
	}
	return nil
}

// renderNoticeLines draws the notice's own lines, exactly r.width wide.
func (r *Root) renderNoticeLines() string {
	n, _ := r.visibleNotice()
	out := make([]string, len(r.noticeLines))
	for i, l := range r.noticeLines {
		out[i] = FitLine(" "+r.st.Text(n.Tone).Render(l), r.width)
	}
	return strings.Join(out, "\n")
}

// renderNoticeLog draws the session's notices, newest first, with their
// time and the screen that raised them.
func (r *Root) renderNoticeLog(w, h int) string {
	var b strings.Builder
	b.WriteString(r.st.Title.Render("Notices") + "  " + r.st.Muted.Render(fmt.Sprintf("%d this session · newest first · esc closes", len(r.noticeLog))) + "\n\n")
	if len(r.noticeLog) == 0 {
		b.WriteString(r.st.Muted.Render("Nothing has been reported yet."))
	}
	for i := len(r.noticeLog) - 1; i >= 0; i-- {
		n := r.noticeLog[i]
		where := "cardterm"
		if n.stamped {
			where = r.screenTitle(n.Screen)
		}
		head := n.At.Local().Format("15:04:05") + "  " + where + "  "
		text := ansi.Wrap(n.Text, max(w-ansi.StringWidth(head), 20), " ")
		for j, part := range strings.Split(text, "\n") {
			if j == 0 {
				b.WriteString(r.st.Muted.Render(head))
			} else {
				b.WriteString(strings.Repeat(" ", ansi.StringWidth(head)))
			}
			b.WriteString(r.st.Text(n.Tone).Render(part) + "\n")
		}
	}
	return FitBlock(b.String(), w, h)
}

// screenTitle names a screen for the notice log.
func (r *Root) screenTitle(id ScreenID) string {
	if id == ScreenSignIn && r.signIn != nil {
		return sanitize.Text(r.signIn.Title())
	}
	if id == ScreenSupport && r.support != nil {
		return sanitize.Text(r.support.Title())
	}
	for _, s := range r.screens {
		if s.ID() == id {
			return sanitize.Text(s.Title())
		}
	}
	return "cardterm"
}
