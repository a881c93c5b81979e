package ui

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"cardterm/theme"
)

// The footer at every width from 1 to 120: whole, or as many keys as fit
// then "…" and the help key; never a dangling separator, never a key cut.
func TestFooterEndsWholeOrWithEllipsisAndHelp(t *testing.T) {
	st := theme.New(true, false)
	r := &Root{st: &st}
	var bs []key.Binding
	for i := range 9 {
		k := fmt.Sprintf("%c", 'a'+i)
		bs = append(bs, key.NewBinding(key.WithKeys(k), key.WithHelp(k, "action "+k)))
	}
	bs = append(bs, key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")))
	whole := "a action a • b action b • c action c • d action d • e action e • f action f • g action g • h action h • i action i • ? help"
	for w := 1; w <= 130; w++ {
		got := ansi.Strip(r.fitFooter(bs, w))
		if cw := ansi.StringWidth(got); cw > w {
			t.Fatalf("width %d: %d cells: %q", w, cw, got)
		}
		switch {
		case w >= ansi.StringWidth(whole):
			if got != whole {
				t.Errorf("width %d: %q", w, got)
			}
		case w >= len("… ? help"):
			if !strings.HasSuffix(got, "… ? help") || strings.HasSuffix(got, "• ? help") {
				t.Errorf("width %d: %q", w, got)
			}
			for _, item := range strings.Split(strings.TrimSuffix(strings.TrimSuffix(got, "… ? help"), " • "), " • ") {
				if item != "" && !strings.Contains(whole, item) {
					t.Errorf("width %d: cut item %q in %q", w, item, got)
				}
			}
		}
	}
}
