package signin

// The sign-in screen's layout: the form's width, the demo accounts beside
// or under it, and the compact form for short terminals.

// formWidth is the width of the sign-in form's input boxes.
func (s *Screen) formWidth() int { return min(max(s.Width-8, 30), 56) }

// SetSize implements ui.Screen: the inputs take the form's width.
func (s *Screen) SetSize(width, height int) {
	s.Width, s.Height = width, height
	s.username.SetWidth(s.formWidth() - 4)
	s.password.SetWidth(s.formWidth() - 4)
	// The list is as tall as its rows (header and footer included), and
	// scrolls in what is left of the body.
	rows := len(s.Deps.Demo) + 2
	switch {
	case s.demoBeside():
		s.demo.SetSize(s.demoWidth(), min(rows, max(height-demoHeader-1, 3)))
	case s.compact():
		s.demo.SetSize(s.demoWidth(), min(rows, max(height-compactFormHeight-compactDemoHeader, 3)))
	default:
		s.demo.SetSize(s.demoWidth(), min(rows, max(height-formHeight-demoHeader, 3)))
	}
}

// compact reports a body too short for the form's hints and the demo
// accounts under it: the hints the footer gives too (enter, tab, ctrl+o)
// are left out and the selected account's summary takes one line, so the
// list shows several accounts, not one.
func (s *Screen) compact() bool {
	return len(s.Deps.Demo) > 0 && !s.demoBeside() && s.Height < formHeight+demoHeader+len(s.Deps.Demo)+2
}

// demoWidth is the width of the demo accounts' column.
func (s *Screen) demoWidth() int {
	if s.demoBeside() {
		return max(s.Width-s.formWidth()-8, 20)
	}
	return max(s.Width-4, 20)
}

// formHeight is the height of the form with its hints, padding and the
// blank line under it; demoHeader is the demo list's title and hint.
const (
	formHeight = 15
	demoHeader = 5 // title, hint, and two lines for the selected account
	// compactFormHeight keeps one line under the inputs, for why the user
	// is here (signed out, a refusal), and compactDemoHeader one line for
	// the selected account.
	compactFormHeight = 14
	compactDemoHeader = 3
)

// demoBeside reports whether the demo accounts go beside the form (wide
// terminals) rather than under it.
func (s *Screen) demoBeside() bool { return s.Width >= s.formWidth()+48 }
