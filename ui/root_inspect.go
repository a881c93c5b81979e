package ui

import (
	"fmt"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
)

// The JSON inspector (i): the active screen's Inspectable record shown in an
// overlay over the body. It takes every key while open except ctrl+c.

// canInspect reports whether the active screen has a record to inspect
// now, so the help offers i only there.
func (r *Root) canInspect() bool {
	if _, ok := r.noticeAnswer(); ok {
		return true
	}
	in, ok := r.Active().(Inspectable)
	if !ok {
		return false
	}
	_, _, ok = in.Inspect()
	return ok
}

// openInspector opens the overlay on the active screen's record.
func (r *Root) openInspector() tea.Cmd {
	in, ok := r.Active().(Inspectable)
	if !ok {
		return Notify(theme.ToneInfo, "nothing to inspect on this screen")
	}
	title, raw, ok := in.Inspect()
	if !ok {
		return Notify(theme.ToneInfo, "nothing to inspect: select a record first")
	}
	r.inspect = newInspector(title, raw)
	r.inspect.curlOf = r.opts.CurlOf
	if rq, ok := r.Active().(RequestInspectable); ok {
		if req, ok := rq.InspectedRequest(); ok {
			r.inspect.request = &req
		}
	}
	return nil
}

// inspectorKey gives a key to the open overlay; esc closes it.
func (r *Root) inspectorKey(msg tea.KeyPressMsg) tea.Cmd {
	_, bh := r.bodySize()
	closed, cmd := r.inspect.update(msg, bh)
	if closed {
		r.inspect = nil
	}
	return cmd
}

// noticeAnswer is the error notice on screen when it carries the
// gateway's answer.
func (r *Root) noticeAnswer() (Notice, bool) {
	n, ok := r.visibleNotice()
	return n, ok && len(n.Answer) > 0
}

// inspectNoticeAnswer opens the inspector on the answer behind the error
// notice on screen when msg is i and nothing else takes the key (a text
// field, a dialog, an overlay); it reports whether it did.
func (r *Root) inspectNoticeAnswer(msg tea.KeyPressMsg) bool {
	if !key.Matches(msg, r.keys.Inspect) || r.switcher != nil || r.dialog != nil || r.inspect != nil || r.showHelp || r.showLog {
		return false
	}
	if s := r.Active(); s != nil && s.CapturesKeys() && !r.focusNav {
		return false
	}
	n, ok := r.noticeAnswer()
	if !ok {
		return false
	}
	title, body := "the gateway's answer", n.Answer
	if n.AnswerCut {
		// Cut JSON cannot be indented: its lines are folded instead, so
		// all of it can be read by scrolling.
		title = fmt.Sprintf("the gateway's answer, its first %d KiB", len(n.Answer)>>10)
		body = foldLines(body, answerFold)
	}
	r.inspect = newInspector(title, body)
	return true
}

// answerFold is the longest line of a cut answer in the inspector.
const answerFold = 100

// foldLines breaks every line of text longer than n characters into lines
// of n.
func foldLines(text []byte, n int) []byte {
	out := make([]byte, 0, len(text)+len(text)/n+1)
	count := 0
	for _, r := range string(text) {
		if r == '\n' {
			count = 0
		} else if count == n {
			out = append(out, '\n')
			count = 0
		}
		if r != '\n' {
			count++
		}
		out = utf8.AppendRune(out, r)
	}
	return out
}
