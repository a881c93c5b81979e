package cli

import (
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/ui/uitest"
)

// The tests of the commands run in a process sealed from this machine's
// settings (a default profile, CARDTERM_*, a proxy, a browser). The tests
// that run the built binary, in tmux or piped, are in the e2e package.
func TestMain(m *testing.M) { uitest.Main(m) }

// BenchmarkStartToFirstFrame measures what happens between start and the
// first frame: starting the embedded sandbox gateway, wiring the client and
// screens, Init, the first window size and View. Budget: 100 ms.
func BenchmarkStartToFirstFrame(b *testing.B) {
	for b.Loop() {
		app, err := newApp(options{timeout: time.Second}, nil, io.Discard)
		if err != nil {
			b.Fatal(err)
		}
		m := app.root
		_ = m.Init()
		m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		if !strings.Contains(m.View().Content, "SANDBOX") {
			b.Fatal("the first frame does not show the sandbox sign-in")
		}
		app.close()
	}
}
