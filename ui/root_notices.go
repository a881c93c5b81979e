package ui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/ui/sanitize"
)

// The root keeps the notices still live: the latest each screen raised
// and the latest the shell raised, oldest first (r.notices). The status
// bar shows the newest of them that shows on the screen shown
// (Notice.showsOn), so a notice raised on a screen out of sight (a
// delivery heard, a token renewed) never takes the bar from the one the
// user is reading; it waits for its screen until it fades or is dismissed.

// setNotice shows a notice and logs it. Information fades after
// NoticeLifetime; warnings and errors stay until the next key press on a
// screen where they show.
func (r *Root) setNotice(n Notice) tea.Cmd {
	// Notify sanitizes already; a NoticeMsg built by hand may carry gateway
	// text too, and sanitize.Text leaves clean text as it is.
	n.Text = sanitize.Text(n.Text)
	now := r.opts.Now()
	n.At = now
	r.noticeSeq++
	n.seq = r.noticeSeq
	// The source's earlier notice is replaced: it said something older.
	r.notices = slices.DeleteFunc(r.notices, func(live Notice) bool { return live.source() == n.source() })
	r.notices = append(r.notices, n)
	r.logNotice(n)
	resize := r.layoutNotice()
	if n.Sticky() && n.Until.IsZero() {
		return resize
	}
	life := NoticeLifetime
	if !n.Until.IsZero() {
		life = max(n.Until.Sub(now), 0)
	}
	seq := n.seq
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

// dropNotices takes the live notices gone reports off wherever they
// would show (they stay in the log).
func (r *Root) dropNotices(gone func(Notice) bool) tea.Cmd {
	before := len(r.notices)
	r.notices = slices.DeleteFunc(r.notices, gone)
	if len(r.notices) == before {
		return nil
	}
	return r.layoutNotice()
}

// clearNotice dismisses the notice on the status bar, the one the user
// has just read; the others stay for their screens.
func (r *Root) clearNotice() tea.Cmd {
	shown, ok := r.visibleNotice()
	if !ok {
		return nil
	}
	return r.dropNotices(func(n Notice) bool { return n.seq == shown.seq })
}

// visibleNotice is the notice on the status bar: the newest live one
// that shows on the screen shown.
func (r *Root) visibleNotice() (Notice, bool) {
	var shown ScreenID
	if s := r.Active(); s != nil {
		shown = s.ID()
	}
	for i := len(r.notices) - 1; i >= 0; i-- {
		if r.notices[i].showsOn(shown) {
			return r.notices[i], true
		}
	}
	return Notice{}, false
}

// latestNotice is the newest live notice, whichever screen it shows on.
func (r *Root) latestNotice() (Notice, bool) {
	if len(r.notices) == 0 {
		return Notice{}, false
	}
	return r.notices[len(r.notices)-1], true
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
