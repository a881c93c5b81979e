package ui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
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
}

// record adds a key, folding a repeat into the last one (j ×3) and
// forgetting the oldest past presenterKeys.
func (p *presenter) record(name string) {
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
	return Sanitize(msg.String())
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
	s := r.Active()
	if s == nil || r.dialog != nil || r.switcher != nil || !s.CapturesKeys() {
		return false
	}
	plain, ok := s.(PlainTyping)
	return !ok || !plain.TypingPlain()
}

// presenterCaps draws the keys as reversed, bold caps, a repeat with its
// count: "[ 2 ] [ j ] ×3".
func (r *Root) presenterCaps(keys []pressedKey) string {
	keyCap := r.st.KeyHint.Bold(true).Reverse(true).Padding(0, 1)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		part := keyCap.Render(k.name)
		if k.count > 1 && k.name != secretMark {
			part += r.st.Title.Render(" ×" + strconv.Itoa(k.count))
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, "  ")
}

// presenterBox is the bordered box of the keys, at most maxW cells wide:
// the oldest keys go first when they do not fit. "" when there is nothing
// to show.
func (r *Root) presenterBox(maxW int) string {
	box := lipgloss.NewStyle().Border(lipgloss.ThickBorder()).BorderForeground(r.st.Accent.GetForeground()).Padding(0, 1)
	for keys := r.presenter.keys; len(keys) > 0; keys = keys[1:] {
		drawn := box.Render(r.presenterCaps(keys))
		if lipgloss.Width(drawn) <= maxW {
			return drawn
		}
	}
	return ""
}

// withPresenter draws the box over the frame's body, at its bottom right:
// the rows above the notice lines, the status bar and the footer.
func (r *Root) withPresenter(frame string) string {
	if !r.presenter.shown || len(r.presenter.keys) == 0 || r.width <= 0 {
		return frame
	}
	_, bh := r.bodySize()
	box := r.presenterBox(r.width - 2)
	h := lipgloss.Height(box)
	if box == "" || bh < h {
		return frame
	}
	x := r.width - lipgloss.Width(box) - 1
	y := r.bannerHeight() + bh - h
	return overlay(frame, box, x, y)
}
