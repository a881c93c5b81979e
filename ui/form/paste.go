package form

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// paste puts a paste into the field in focus, cleaned (sanitize.Paste) and cut
// to what the field has room for, and says what it changed: a paste is
// never dropped without a word.
func (f *Form) paste(content string) tea.Cmd {
	fl := &f.fields[f.focus]
	label := sanitize.Text(fl.spec.Label)
	switch fl.spec.Kind {
	case FieldChoice, FieldChecklist:
		return ui.Notify(theme.ToneInfo, label+" is chosen, not typed: nothing pasted")
	case FieldMultiline:
		limit, used := fl.room()
		text, note := preparePaste(content, true, label, limit, used)
		if text != "" {
			fl.area, _ = fl.area.Update(tea.PasteMsg{Content: text})
		}
		return note
	}
	return PasteInto(&fl.input, label, content)
}

// PasteInto puts a paste into a one-line text input the way every field
// takes one: cleaned (sanitize.Paste), cut to the input's CharLimit, and said
// (what was removed or cut, under the field's label).
func PasteInto(input *textinput.Model, label, content string) tea.Cmd {
	text, note := preparePaste(content, false, label, input.CharLimit, utf8.RuneCountInString(input.Value()))
	if text != "" {
		*input, _ = input.Update(tea.PasteMsg{Content: text})
	}
	return note
}

// preparePaste cleans a paste and cuts it to the room left (limit 0: no
// limit), returning the text to insert and the notice that says what
// changed (nil when nothing did).
func preparePaste(content string, multiline bool, label string, limit, used int) (string, tea.Cmd) {
	text, cleaned := sanitize.Paste(content, multiline)
	var notes []string
	tone := theme.ToneInfo
	if pasted := utf8.RuneCountInString(text); limit > 0 && used+pasted > limit {
		tone = theme.ToneWarn
		room := limit - used
		if room <= 0 {
			return "", ui.Notify(tone, fmt.Sprintf("%s is full (%d characters at most): nothing pasted", label, limit))
		}
		text = firstRunes(text, room)
		notes = append(notes, fmt.Sprintf("pasted the first %d of %d characters: %s takes %d at most", room, pasted, label, limit))
	}
	if cleaned.Any() {
		notes = append(notes, "removed "+cleaned.String()+" from the paste")
	}
	if len(notes) == 0 {
		return text, nil
	}
	return text, ui.Notify(tone, strings.Join(notes, "; "))
}

// room is the field's character limit (0: none) and how many characters
// it holds.
func (fl *formField) room() (limit, used int) {
	if fl.spec.Kind == FieldMultiline {
		return fl.area.CharLimit, fl.area.Length()
	}
	return fl.input.CharLimit, utf8.RuneCountInString(fl.input.Value())
}

// firstRunes is the first n characters of s.
func firstRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}
