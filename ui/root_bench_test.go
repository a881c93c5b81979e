package ui_test

import (
	"testing"

	tea "charm.land/bubbletea/v2"

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

// BenchmarkRootFramePresenter is BenchmarkRootFrame in presenter mode:
// the box of keys drawn over every frame.
func BenchmarkRootFramePresenter(b *testing.B) {
	f := newPresenterFixture(&testing.T{})
	f.drive(uitestSize(120, 40))
	keys := []tea.KeyPressMsg{uitest.Key("x"), uitest.Key("j"), uitest.Key("ctrl+r")}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f.root.Update(keys[i%len(keys)])
		_ = f.root.View()
	}
}
