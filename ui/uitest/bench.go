package uitest

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// BenchKeyPresses measures one key press and the frame after it on a long
// list: down span times, then up span times, so the cursor stays away from
// the list's ends. press sends the key to the model under test and draws.
func BenchKeyPresses(b *testing.B, press func(tea.KeyPressMsg), down, up string, span int) {
	b.Helper()
	downKey, upKey := Key(down), Key(up)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := downKey
		if i%(2*span) >= span {
			k = upKey
		}
		press(k)
	}
}

// BenchTypeAndErase measures typing char into an open filter and drawing
// the frame; backspace, outside the timer, brings the filter back before
// the next round, so every round types onto the same text.
func BenchTypeAndErase(b *testing.B, update func(tea.KeyPressMsg), view func(), char string) {
	b.Helper()
	typed, backspace := Key(char), Key("backspace")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		update(typed)
		view()
		b.StopTimer()
		update(backspace)
		b.StartTimer()
	}
}
