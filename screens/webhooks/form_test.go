package webhooks

import (
	"fmt"
	"strings"
	"testing"

	"cardterm/screens/screentest"
)

// The add form's hint under the fields is one line at every size: at 80
// columns it drops what does not fit and says so with "…", as the
// footer's help does, and never wraps a hint onto a second line.
func TestWebhookFormHintIsOneLineAtEverySize(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			a := newApp(t, "alice@demo.test", screentest.WithSize(size[0], size[1]))
			a.Keys("a")
			s := a.Screen()
			var hint string
			for i, line := range strings.Split(s, "\n") {
				if strings.Contains(line, "ctrl+s save ·") {
					hint = line
					continue
				}
				for _, piece := range []string{"closes", "ticks", "last field", "next field ·"} {
					if strings.Contains(line, piece) {
						t.Fatalf("line %d holds part of the hint (%q): it wrapped\n%s", i, piece, s)
					}
				}
			}
			if !strings.Contains(hint, "esc closes") {
				t.Fatalf("no one-line hint with ctrl+s and esc:\n%s", s)
			}
		})
	}
}
