package ui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"cardterm/ui/layer"
	"cardterm/ui/sanitize"
)

// Presenter mode (--presenter): the last keys pressed, in a box at the
// bottom right of the body, so an audience follows a demo on a projector.
// The box is drawn over the body, never over the status bar or the
// footer; f2 (GlobalKeyMap.Presenter) hides or shows it.

// presenterKeys is how many keys the box shows: a repeated key counts once.
const presenterKeys = 5

// secretMark stands for anything typed where a secret may be typed: the
// box never shows a secret, nor how long it is.
const secretMark = "•••"

// PlainTyping is implemented by a screen that can tell whether the text
// field that has its keys is a plain one (not a password, PIN or secret
// key). While a screen captures keys, the presenter shows what is typed
// only when the screen says the field is plain; otherwise it shows •••.
type PlainTyping interface {
	TypingPlain() bool
}

// pressedKey is one key of the box, with how many times in a row it was
// pressed.
type pressedKey struct {
	name  string
	count int
}

// presenter is the keys shown in presenter mode.
type presenter struct {
	shown bool
	keys  []pressedKey // oldest first, at most presenterKeys
	// box is the box drawn for boxWidth, kept until a key, a resize or
	// the theme changes it ("" to draw again).
	box      string
	boxWidth int
	// paint is what the styles put around caps, counts and the border,
	// worked out once per theme.
	paint *presenterPaint
}

// presenterPaint is the styles' escape sequences around the box's parts.
type presenterPaint struct {
	capPre, capPost, countPre, countPost, edgePre, edgePost string
}

// restyled drops what was drawn in the old styles.
func (p *presenter) restyled() { p.box, p.paint = "", nil }

// record adds a key, folding a repeat into the last one (j ×3) and
// forgetting the oldest past presenterKeys.
func (p *presenter) record(name string) {
	p.box = ""
	if n := len(p.keys); n > 0 && p.keys[n-1].name == name {
		p.keys[n-1].count++
		return
	}
	if len(p.keys) == presenterKeys {
		copy(p.keys, p.keys[1:])
		p.keys = p.keys[:presenterKeys-1]
	}
	p.keys = append(p.keys, pressedKey{name: name, count: 1})
}

// presentedKey is how the box names a key press: its name as the key
// maps write it (ctrl+s, alt+x, enter, j), or secretMark for a character
// typed while secret says a secret may be typed.
func presentedKey(msg tea.KeyPressMsg, secret bool) string {
	k := msg.Key()
	typed := k.Text != "" && k.Mod&(tea.ModCtrl|tea.ModAlt|tea.ModSuper|tea.ModMeta|tea.ModHyper) == 0
	if secret && (typed || k.Code == tea.KeySpace) {
		return secretMark
	}
	return sanitize.Text(msg.String())
}

// recordKey notes a key press for the box (root_keys.go calls it first).
func (r *Root) recordKey(msg tea.KeyPressMsg) {
	if !r.presenter.shown {
		return
	}
	r.presenter.record(presentedKey(msg, r.typingMaySecret()))
}

// typingMaySecret reports whether a typed key may be part of a secret:
// the active screen's text field has the keys and the screen does not say
// it is a plain one.
func (r *Root) typingMaySecret() bool {
	if r.topRank() >= int(layer.Dialog) || !r.capturing() {
		return false
	}
	var typing any = r.Active()
	if panel, ok := r.bodyPanel(); ok {
		typing = panel
	}
	plain, ok := typing.(PlainTyping)
	return !ok || !plain.TypingPlain()
}

// presenterBox is the keys as a box of reversed, bold key caps, a repeat
// with its count ("┃  2    j  ×3 ┃"), at most maxW cells wide: the oldest
// keys go first when they do not fit. "" when there is nothing to show.
// It is written by hand, not rendered by lipgloss: it changes on every key.
func (r *Root) presenterBox(maxW int) string {
	if r.presenter.paint == nil {
		p := &presenterPaint{}
		p.capPre, p.capPost = WrapStyle(r.st.KeyHint.Bold(true).Reverse(true))
		p.countPre, p.countPost = WrapStyle(r.st.Title)
		p.edgePre, p.edgePost = WrapStyle(lipgloss.NewStyle().Foreground(r.st.Accent.GetForeground()))
		r.presenter.paint = p
	}
	p := r.presenter.paint
	capPre, capPost, countPre, countPost, edgePre, edgePost := p.capPre, p.capPost, p.countPre, p.countPost, p.edgePre, p.edgePost
	keys := r.presenter.keys
	width := func(keys []pressedKey) int {
		w := 2 * (len(keys) - 1) // two spaces between caps
		for _, k := range keys {
			w += CellWidth(k.name) + 2
			if k.count > 1 && k.name != secretMark {
				w += 2 + len(strconv.Itoa(k.count))
			}
		}
		return w
	}
	for len(keys) > 0 && width(keys)+4 > maxW {
		keys = keys[1:]
	}
	if len(keys) == 0 {
		return ""
	}
	inner := width(keys) + 2 // a space each side
	var b strings.Builder
	b.Grow(inner*8 + 64)
	b.WriteString(edgePre + "┏" + strings.Repeat("━", inner) + "┓" + edgePost + "\n")
	b.WriteString(edgePre + "┃" + edgePost + " ")
	for i, k := range keys {
		if i > 0 {
			b.WriteString("  ")
		}
		b.WriteString(capPre + " " + k.name + " " + capPost)
		if k.count > 1 && k.name != secretMark {
			b.WriteString(countPre + " ×" + strconv.Itoa(k.count) + countPost)
		}
	}
	b.WriteString(" " + edgePre + "┃" + edgePost + "\n")
	b.WriteString(edgePre + "┗" + strings.Repeat("━", inner) + "┛" + edgePost)
	return b.String()
}

// presenterBoxRows is the height of the box of keys.
const presenterBoxRows = 3

// presenterMinBody is the fewest rows the body keeps when rows are kept
// for the box; a window shorter than that shows no box.
const presenterMinBody = 8

// presenterRows is how many rows under the body are kept for the box of
// keys (the body is laid out that much shorter, so the box covers nothing
// a screen draws, at 100x30 on a projector as anywhere): the box's height
// while presenter mode is on and the window leaves the body enough rows.
func (r *Root) presenterRows() int {
	if !r.presenter.shown || r.height-2-len(r.noticeLines)-r.bannerHeight()-presenterBoxRows < presenterMinBody {
		return 0
	}
	return presenterBoxRows
}

// withPresenter draws the box in the rows kept under the body, at its
// right: above the notice lines, the status bar and the footer.
func (r *Root) withPresenter(frame string) string {
	if !r.presenter.shown || len(r.presenter.keys) == 0 || r.width <= 0 || r.presenterRows() == 0 {
		return frame
	}
	bw, bh := r.bodySize()
	if r.presenter.box == "" || r.presenter.boxWidth != r.width {
		r.presenter.box, r.presenter.boxWidth = r.presenterBox(bw-1), r.width
	}
	box := r.presenter.box
	h := lipgloss.Height(box)
	if box == "" || h > r.presenterRows() {
		return frame
	}
	x := r.width - lipgloss.Width(box) - 1
	y := r.bannerHeight() + bh
	// Only the box's rows are cut and joined again.
	start := 0
	for range y {
		i := strings.IndexByte(frame[start:], '\n')
		if i < 0 {
			return frame
		}
		start += i + 1
	}
	end := start
	for range h {
		i := strings.IndexByte(frame[end:], '\n')
		if i < 0 {
			end = len(frame)
			break
		}
		end += i + 1
	}
	rows := strings.TrimSuffix(frame[start:end], "\n")
	return frame[:start] + overlay(rows, box, x, 0) + frame[start+len(rows):]
}
