package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// The mouse (RootOptions.Mouse asks the terminal for it): the root knows
// where the navigation, the body, the status bar and the footer are. A
// click on a navigation entry opens its screen; a click on a dialog's
// y or n button answers it; the wheel scrolls the inspector and the help. A click or
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

// handleMouse routes a mouse message by where it happened.
func (r *Root) handleMouse(msg tea.MouseMsg) tea.Cmd {
	m := msg.Mouse()
	wheel := 0
	switch msg := msg.(type) {
	case tea.MouseClickMsg:
		if msg.Button != tea.MouseLeft {
			return nil
		}
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
		return nil // releases and motion
	}
	if r.switcher != nil {
		return nil
	}
	_, bh := r.bodySize()
	top := r.bannerHeight()
	if m.Y < top || m.Y >= top+bh {
		return nil // the banner, the notice, the status bar, the footer
	}
	y := m.Y - top
	left := r.navWidth()
	if left > 0 {
		if m.X < left {
			return r.navMouse(y, wheel)
		}
		left += len(gutter)
	}
	if m.X < left {
		return nil
	}
	return r.bodyMouse(BodyMouseMsg{X: m.X - left, Y: y, Wheel: wheel})
}

// navMouse opens the screen of the navigation entry clicked at line y.
func (r *Root) navMouse(y, wheel int) tea.Cmd {
	if wheel != 0 || r.dialog != nil || !r.signedIn || y >= len(r.screens) {
		return nil
	}
	r.focusNav = false
	r.showHelp, r.showLog = false, false
	return r.navigate(r.screens[y].ID())
}

// bodyMouse gives a click or a wheel step in the body to what is shown
// there: a dialog, the inspector, the help, or the active screen.
func (r *Root) bodyMouse(msg BodyMouseMsg) tea.Cmd {
	switch {
	case r.dialog != nil:
		if msg.Wheel == 0 {
			return r.dialogClick(msg.X, msg.Y)
		}
		return nil
	case r.inspect != nil:
		if msg.Wheel != 0 {
			_, bh := r.bodySize()
			last := max(len(r.inspect.lines)-inspectorRows(bh), 0)
			r.inspect.offset = min(max(r.inspect.offset+msg.Wheel*wheelLines, 0), last)
		}
		return nil
	case r.showHelp:
		r.scrollHelp(msg.Wheel * wheelLines)
		return nil
	case r.showLog:
		return nil
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

// dialogClick answers the dialog when the click is on its y (confirm) or
// n (cancel) button, found on the box as renderBody draws it.
func (r *Root) dialogClick(x, y int) tea.Cmd {
	bw, bh := r.bodySize()
	box := r.dialog.view(r.st, bw-2, bh)
	left := max((bw-lipgloss.Width(box))/2, 0)
	top := max((bh-lipgloss.Height(box))/2, 0)
	lines := strings.Split(box, "\n")
	row := len(lines) - 1 - r.st.Dialog.GetBorderBottomSize() - r.st.Dialog.GetPaddingBottom()
	if y-top != row || row < 0 {
		return nil
	}
	plain := ansi.Strip(lines[row])
	confirm, cancel := strings.Index(plain, "y "), strings.LastIndex(plain, "n cancel")
	if confirm < 0 || cancel < confirm {
		return nil
	}
	col := x - left
	from, to := ansi.StringWidth(plain[:confirm]), ansi.StringWidth(plain[:cancel])
	var answer tea.Msg
	switch {
	case col >= from && col < to-2:
		answer = r.dialog.spec.OnConfirm
	case col >= to && col < to+len("n cancel"):
		answer = r.dialog.spec.OnCancel
	default:
		return nil
	}
	r.dialog = nil
	return msgCmd(answer)
}

// helpRoom is the most lines the help is drawn in to learn its length.
const helpRoom = 400

// scrollHelp moves the help by lines, no further than its last screenful.
func (r *Root) scrollHelp(lines int) {
	bw, bh := r.bodySize()
	offset := r.helpOffset
	r.helpOffset = 0
	text := strings.TrimRight(r.renderHelp(bw, helpRoom), " \n")
	total := strings.Count(text, "\n") + 1
	r.helpOffset = min(max(offset+lines, 0), max(total-bh, 0))
}

// scrolledHelp is the help's text from the line the wheel scrolled it to.
func (r *Root) scrolledHelp(text string, height int) string {
	if r.helpOffset == 0 || height >= helpRoom {
		return text
	}
	lines := strings.Split(text, "\n")
	return strings.Join(lines[min(r.helpOffset, len(lines)):], "\n")
}
