package form

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/ui/sanitize"
)

// ClickLine puts the focus in the field drawn at line y of the form's
// view (0 is its title), as tab would; ok is false when no field is drawn
// there. A form scrolled to fit its height takes no clicks: its lines move
// with the focus.
func (f *Form) ClickLine(y int) (cmd tea.Cmd, ok bool) {
	head := 2 // the title and the blank line under the head
	for _, l := range f.spec.Lines {
		head += strings.Count(ansi.Wrap(sanitize.Text(l), f.width, " "), "\n") + 1
	}
	line := y - head
	if line < 0 || len(f.fields) == 0 {
		return nil, false
	}
	if f.height > 0 {
		body, _, _ := f.fieldLines()
		if head+len(body)+1+len(f.footLines()) > f.height {
			return nil, false
		}
	}
	// The lines each field takes are the ones fieldLines marks as the
	// focus's when that field has it.
	focus, at := f.focus, -1
	for i := range f.fields {
		f.focus = i
		_, from, to := f.fieldLines()
		if line >= from && line <= to {
			at = i
			break
		}
	}
	f.focus = focus
	if at < 0 {
		return nil, false
	}
	return f.setFocus(at), true
}

// TypingPlain reports whether the field in focus shows what is typed (not
// a secret), for presenter mode (PlainTyping).
// No form (nil) has nothing secret in focus.
func (f *Form) TypingPlain() bool {
	if f == nil {
		return true
	}
	fl := f.focused()
	return fl == nil || fl.spec.Kind != FieldSecret
}
