package webhooks

import (
	"slices"
	"testing"
)

// The detail's key hints are laid out whole: a line never ends on a key
// whose words start the next (it read "… · y" above "copy url" at 120
// columns).
func TestPackHintsKeepsEachHintWhole(t *testing.T) {
	hints := []string{"esc back", "e edit", "t toggle active", "y copy url"}
	for _, tc := range []struct {
		width int
		want  []string
	}{
		{80, []string{"esc back · e edit · t toggle active · y copy url"}},
		{40, []string{"esc back · e edit · t toggle active", "y copy url"}},
		{20, []string{"esc back · e edit", "t toggle active", "y copy url"}},
		{8, []string{"esc back", "e edit", "t toggle", "active", "y copy", "url"}},
	} {
		if got := packHints(hints, tc.width); !slices.Equal(got, tc.want) {
			t.Errorf("width %d: %q, want %q", tc.width, got, tc.want)
		}
	}
}
