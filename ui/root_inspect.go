package ui

import (
	"fmt"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
	"cardterm/ui/layer"
)

// The JSON inspector (i): the active screen's Inspectable record shown in an
// overlay over the body. It takes every key while open except ctrl+c.

// canInspect reports whether the active screen has a record to inspect
// now, so the help offers i only there.
func (r *Root) canInspect() bool {
	if _, ok := r.noticeAnswer(); ok {
		return true
	}
	in, ok := r.inspectable().(Inspectable)
	if !ok {
		return false
	}
	_, _, ok = in.Inspect()
	return ok
}

// inspectable is what i inspects: the screen's panel on top when it has
// a record of its own (the support console's audit trail), else the
// active screen.
func (r *Root) inspectable() any {
	return r.bodyOffering(func(of any) bool { _, ok := of.(Inspectable); return ok })
}

// bodyOffering is the screen's top panel when it offers what the global
// key acts on (offers), else the active screen: y copies and i inspects
// what the panel shows.
func (r *Root) bodyOffering(offers func(any) bool) any {
	if panel, ok := r.bodyPanel(); ok && offers(panel) {
		return panel
	}
	return r.Active()
}

// openInspector opens the overlay on the active screen's record.
func (r *Root) openInspector() tea.Cmd {
	of := r.inspectable()
	in, ok := of.(Inspectable)
	if !ok {
		return Notify(theme.ToneInfo, "nothing to inspect on this screen")
	}
	title, raw, ok := in.Inspect()
	if !ok {
		return Notify(theme.ToneInfo, "nothing to inspect: select a record first")
	}
	shown := r.newInspector(title, raw)
	shown.curlOf = r.opts.CurlOf
	if rq, ok := of.(RequestInspectable); ok {
		if req, ok := rq.InspectedRequest(); ok {
			shown.request = &req
		}
	}
	r.openRootLayer(shown, layer.Inspector)
	return nil
}

// newInspector is an inspector drawn in the root's styles.
func (r *Root) newInspector(title string, raw []byte) *inspector {
	in := newInspector(title, raw)
	in.st = r.st
	return in
}

// noticeAnswer is the error notice on screen when it carries the
// gateway's answer.
func (r *Root) noticeAnswer() (Notice, bool) {
	n, ok := r.visibleNotice()
	return n, ok && len(n.Answer) > 0
}

// inspectNoticeAnswer opens the inspector on the answer behind the error
// notice on screen when msg is the inspect key and nothing else takes the key (a text
// field, a dialog, an overlay); it reports whether it did.
func (r *Root) inspectNoticeAnswer(msg tea.KeyPressMsg) bool {
	if !key.Matches(msg, r.keys.Inspect) || r.topRank() > int(layer.Panel) || r.capturing() {
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
	r.openRootLayer(r.newInspector(title, body), layer.Inspector)
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
