package screenkit

import "cardterm/theme"

// Piece keeps one rendered part of a screen's frame with the key of what
// it shows (a comparable struct of the data, size and theme it is drawn
// from): a frame whose key did not change reuses the text instead of
// rendering it again, so a key press that changes nothing on a screen
// costs no lipgloss render. The key must hold everything the text depends
// on; a part that counts down (a token's life) stays out of it.
type Piece[K comparable] struct {
	key  K
	text string
	ok   bool
}

// Get returns the text kept for key, rendering and keeping it when the
// key changed.
func (p *Piece[K]) Get(key K, render func() string) string {
	if !p.ok || p.key != key {
		p.key, p.text, p.ok = key, render(), true
	}
	return p.text
}

// ThemeKey is the part of a Piece's key that says which theme drew it:
// the styles are rebuilt in place when the terminal's background is
// learnt, so the pointer alone does not tell.
type ThemeKey struct {
	styles        *theme.Styles
	dark, noColor bool
}

// ThemeOf is the ThemeKey of the styles st.
func ThemeOf(st *theme.Styles) ThemeKey {
	return ThemeKey{styles: st, dark: st.IsDark, noColor: st.NoColor}
}
