package ui

import (
	"strings"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"cardterm/domain/lazy"
)

// keyNames are the names of the keys that type no character, indexed at
// first use: a package map would be built before main on every start.
var keyNames = lazy.Value[map[string]rune]{New: func() map[string]rune {
	return map[string]rune{
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "escape": tea.KeyEscape,
		"tab": tea.KeyTab, "space": tea.KeySpace, "backspace": tea.KeyBackspace,
		"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
		"home": tea.KeyHome, "end": tea.KeyEnd, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
		"delete": tea.KeyDelete, "insert": tea.KeyInsert,
		"f1": tea.KeyF1, "f2": tea.KeyF2, "f3": tea.KeyF3, "f4": tea.KeyF4, "f5": tea.KeyF5,
		"f6": tea.KeyF6, "f7": tea.KeyF7, "f8": tea.KeyF8, "f9": tea.KeyF9, "f10": tea.KeyF10,
		"f11": tea.KeyF11, "f12": tea.KeyF12,
	}
}}

// KeyPress builds the key press a terminal would send for a key name as
// key.Matches spells it: "enter", "esc", "space", "shift+tab", "ctrl+c",
// "a", "F" (shift+f). Its String() is s. The tests and the accessible
// mode (which reads key names a line at a time) press keys through it.
func KeyPress(s string) tea.KeyPressMsg {
	var mod tea.KeyMod
	rest := s
	for {
		switch {
		case strings.HasPrefix(rest, "ctrl+") && len(rest) > 5:
			mod |= tea.ModCtrl
			rest = rest[5:]
			continue
		case strings.HasPrefix(rest, "alt+") && len(rest) > 4:
			mod |= tea.ModAlt
			rest = rest[4:]
			continue
		case strings.HasPrefix(rest, "shift+") && len(rest) > 6:
			mod |= tea.ModShift
			rest = rest[6:]
			continue
		}
		break
	}
	if code, ok := keyNames.Get()[rest]; ok {
		k := tea.Key{Code: code, Mod: mod}
		if code == tea.KeySpace && mod == 0 {
			k.Text = " "
		}
		return tea.KeyPressMsg(k)
	}
	r, size := utf8.DecodeRuneInString(rest)
	if size != len(rest) {
		// Several runes: a paste-like key with text.
		return tea.KeyPressMsg(tea.Key{Code: tea.KeyExtended, Text: rest, Mod: mod})
	}
	k := tea.Key{Code: r, Mod: mod}
	if unicode.IsUpper(r) {
		k.Code = unicode.ToLower(r)
		k.ShiftedCode = r
		k.Mod |= tea.ModShift
	}
	if mod&^tea.ModShift == 0 {
		k.Text = string(r)
	}
	return tea.KeyPressMsg(k)
}

// IsKeyName reports whether name is a key KeyPress knows as one key: a
// single character or a named key, after any ctrl+, alt+ and shift+.
func IsKeyName(name string) bool {
	rest := name
	for _, mod := range []string{"ctrl+", "alt+", "shift+"} {
		for strings.HasPrefix(rest, mod) && len(rest) > len(mod) {
			rest = rest[len(mod):]
		}
	}
	if _, ok := keyNames.Get()[rest]; ok {
		return true
	}
	return utf8.RuneCountInString(rest) == 1
}
