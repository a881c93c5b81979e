package ui_test

import (
	"testing"

	"cardterm/ui/uitest"
)

// BenchmarkRootFrame is one key press that reaches a screen, then the whole
// frame: navigation, body, status bar and footer at 120x40. The screen
// itself costs almost nothing here, so this is the shell's share of every
// key press.
func BenchmarkRootFrame(b *testing.B) {
	f := newFixture(&testing.T{}, true, false)
	f.signInNow()
	f.drive(uitestSize(120, 40))
	key := uitest.Key("x")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f.root.Update(key)
		_ = f.root.View()
	}
}
