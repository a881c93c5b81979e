package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/ui/layer"
)

// The mouse (RootOptions.Mouse asks the terminal for it): the root knows
// where the navigation, the body, the status bar and the footer are. A
// click on a navigation entry opens its screen; a press and release on
// the same y or n button of a dialog answers it; a click with shift, alt
// or ctrl does nothing (terminals select text so); the wheel scrolls the inspector and the help. A click or
// the wheel in the body goes, in body coordinates, to the active screen
// when it takes the mouse (MouseTaker); a screen that does not gets the
// wheel as ↑ and ↓. The status bar and the footer take no clicks.

// BodyMouseMsg is a click or a wheel step in the body, at the body's
// column X and line Y (0, 0 is its top left corner).
type BodyMouseMsg struct {
	X, Y int
	// Wheel is the wheel's step: -1 up, 1 down; 0 for a click.
	Wheel int
}

// MouseTaker is a screen that handles BodyMouseMsg in its Update (its
// tables take ClickRow and Wheel, its forms ClickLine).
type MouseTaker interface {
	TakesMouse() bool
}

// wheelLines is how far one wheel step scrolls a text.
const wheelLines = 3

// clickModifiers are the modifiers that make a click something else:
// terminals select text with shift (and alt or ctrl in some), so such a
// click never presses a button or opens anything.
const clickModifiers = tea.ModShift | tea.ModAlt | tea.ModCtrl | tea.ModMeta | tea.ModSuper | tea.ModHyper

// handleMouse routes a mouse message by where it happened.
func (r *Root) handleMouse(msg tea.MouseMsg) tea.Cmd {
	m := msg.Mouse()
	wheel := 0
	switch msg := msg.(type) {
	case tea.MouseClickMsg:
		r.pressed = nil
		if msg.Button != tea.MouseLeft || msg.Mod&clickModifiers != 0 {
			return nil
		}
	case tea.MouseReleaseMsg:
		return r.releaseMouse(msg)
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			wheel = -1
		case tea.MouseWheelDown:
			wheel = 1
		default:
			return nil
		}
	default:
		return nil // motion
	}
	if r.topRank() == int(layer.Prompt) {
		return nil
	}
	body, where := r.mouseArea(m.X, m.Y)
	switch where {
	case inNavigation:
		return r.navMouse(body.Y, wheel)
	case inBody:
		body.Wheel = wheel
		return r.bodyMouse(body)
	}
	return nil
}

// mouseArea is the part of the frame at column x, line y: the navigation
// or the body (with the body's coordinates), or elsewhere.
func (r *Root) mouseArea(x, y int) (BodyMouseMsg, mouseArea) {
	_, bh := r.bodySize()
	top := r.bannerHeight()
	if y < top || y >= top+bh {
		return BodyMouseMsg{}, elsewhere // the banner, the notice, the status bar, the footer
	}
	y -= top
	left := r.navWidth()
	if left > 0 {
		if x < left {
			return BodyMouseMsg{Y: y}, inNavigation
		}
		left += len(gutter)
	}
	if x < left {
		return BodyMouseMsg{}, elsewhere
	}
	return BodyMouseMsg{X: x - left, Y: y}, inBody
}

// mouseArea names the parts of the frame that take the mouse.
type mouseArea uint8

const (
	elsewhere mouseArea = iota
	inNavigation
	inBody
)

// navMouse opens the screen of the navigation entry clicked at line y.
func (r *Root) navMouse(y, wheel int) tea.Cmd {
	if wheel != 0 || r.dialogOpen() || !r.signedIn || y >= len(r.screens) {
		return nil
	}
	r.focusNav = false
	r.closeRootLayers(layer.Sheet)
	return r.navigate(r.screens[y].ID())
}

// bodyMouse gives a click or a wheel step in the body to what is shown
// there: the top layer (a dialog's buttons answer on release), or the
// active screen.
func (r *Root) bodyMouse(msg BodyMouseMsg) tea.Cmd {
	if d := r.topDialog(); d != nil {
		if msg.Wheel == 0 {
			return r.dialogClick(d, msg.X, msg.Y)
		}
		return nil
	}
	if _, _, open := r.topLayer(); open {
		return r.toActive(msg)
	}
	s := r.Active()
	if s == nil {
		return nil
	}
	if taker, ok := s.(MouseTaker); ok && taker.TakesMouse() {
		return r.toActive(msg)
	}
	if msg.Wheel == 0 || s.CapturesKeys() {
		return nil
	}
	arrow := tea.KeyPressMsg{Code: tea.KeyDown}
	if msg.Wheel < 0 {
		arrow = tea.KeyPressMsg{Code: tea.KeyUp}
	}
	return r.toActive(arrow)
}

// dialogButton names a dialog's buttons.
type dialogButton uint8

const (
	noButton dialogButton = iota
	confirmButton
	cancelButton
)

// pressedButton is the dialog button a plain press went down on.
type pressedButton struct {
	dialog *dialog
	button dialogButton
}

// dialogClick notes a plain press on the dialog's y (confirm) or n
// (cancel) button; the dialog answers when the button is released on the
// same button (releaseMouse), so a press dragged off it answers nothing.
func (r *Root) dialogClick(d *dialog, x, y int) tea.Cmd {
	if button := r.dialogButtonAt(d, x, y); button != noButton {
		r.pressed = &pressedButton{dialog: d, button: button}
	}
	return nil
}

// releaseMouse answers the dialog when a plain left release ends the
// press on the same button of the same dialog.
func (r *Root) releaseMouse(msg tea.MouseReleaseMsg) tea.Cmd {
	pressed := r.pressed
	r.pressed = nil
	m := msg.Mouse()
	d := r.topDialog()
	if pressed == nil || d == nil || pressed.dialog != d ||
		(m.Button != tea.MouseLeft && m.Button != tea.MouseNone) || m.Mod&clickModifiers != 0 {
		return nil
	}
	body, where := r.mouseArea(m.X, m.Y)
	if where != inBody || r.dialogButtonAt(d, body.X, body.Y) != pressed.button {
		return nil
	}
	answer := d.spec.OnConfirm
	if pressed.button == cancelButton {
		answer = d.spec.OnCancel
	}
	d.done = true
	r.layers.Sweep()
	return msgCmd(answer)
}

// dialogButtonAt is the dialog's button at body column x, line y, found
// on the box as renderBody draws it.
func (r *Root) dialogButtonAt(d *dialog, x, y int) dialogButton {
	bw, bh := r.bodySize()
	box := d.view(r.st, bw-2, bh)
	left := max((bw-lipgloss.Width(box))/2, 0)
	top := max((bh-lipgloss.Height(box))/2, 0)
	lines := strings.Split(box, "\n")
	row := len(lines) - 1 - r.st.Dialog.GetBorderBottomSize() - r.st.Dialog.GetPaddingBottom()
	if y-top != row || row < 0 {
		return noButton
	}
	plain := ansi.Strip(lines[row])
	confirm, cancel := strings.Index(plain, "y "), strings.LastIndex(plain, "n cancel")
	if confirm < 0 || cancel < confirm {
		return noButton
	}
	col := x - left
	from, to := ansi.StringWidth(plain[:confirm]), ansi.StringWidth(plain[:cancel])
	switch {
	case col >= from && col < to-2:
		return confirmButton
	case col >= to && col < to+len("n cancel"):
		return cancelButton
	}
	return noButton
}

// helpRoom is the most lines the help is drawn in to learn its length.
const helpRoom = 400

// scroll moves the help by lines, no further than its last screenful,
// and offers the keys that move it only where there is more to see.
func (s *sheet) scroll(lines int) {
	text := strings.TrimRight(s.r.renderHelp(s.width, helpRoom, 0), " \n")
	total := strings.Count(text, "\n") + 1
	last := max(total-s.height, 0)
	s.offset = min(max(s.offset+lines, 0), last)
	s.keys.Down.SetEnabled(s.offset < last)
	s.keys.PageDown.SetEnabled(s.offset < last)
	s.keys.Up.SetEnabled(s.offset > 0)
	s.keys.PageUp.SetEnabled(s.offset > 0)
}

// scrolledHelp is the help's text from the line offset on.
func scrolledHelp(text string, offset, height int) string {
	if offset == 0 || height >= helpRoom {
		return text
	}
	lines := strings.Split(text, "\n")
	return strings.Join(lines[min(offset, len(lines)):], "\n")
}
