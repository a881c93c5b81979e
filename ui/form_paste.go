package ui

import (
	"fmt"
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
)

// paste puts a paste into the field in focus, cleaned (CleanPaste) and cut
// to what the field has room for, and says what it changed: a paste is
// never dropped without a word.
func (f *Form) paste(content string) tea.Cmd {
	fl := &f.fields[f.focus]
	label := Sanitize(fl.spec.Label)
	if fl.spec.Kind == FieldChoice || fl.spec.Kind == FieldChecklist {
		return Notify(theme.ToneInfo, label+" is chosen, not typed: nothing pasted")
	}
	multiline := fl.spec.Kind == FieldMultiline
	text, cleaned := CleanPaste(content, multiline)
	limit, used := fl.room()
	var notes []string
	tone := theme.ToneInfo
	if pasted := utf8.RuneCountInString(text); limit > 0 && used+pasted > limit {
		tone = theme.ToneWarn
		room := limit - used
		if room <= 0 {
			return Notify(tone, fmt.Sprintf("%s is full (%d characters at most): nothing pasted", label, limit))
		}
		text = firstRunes(text, room)
		notes = append(notes, fmt.Sprintf("pasted the first %d of %d characters: %s takes %d at most", room, pasted, label, limit))
	}
	if cleaned.Any() {
		notes = append(notes, "removed "+cleaned.String()+" from the paste")
	}
	if text != "" {
		msg := tea.PasteMsg{Content: text}
		if multiline {
			fl.area, _ = fl.area.Update(msg)
		} else {
			fl.input, _ = fl.input.Update(msg)
		}
	}
	if len(notes) == 0 {
		return nil
	}
	return Notify(tone, strings.Join(notes, "; "))
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
