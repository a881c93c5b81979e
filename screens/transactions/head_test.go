package transactions

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"cardterm/ui/keymap"
)

// The line beside the title keeps the filters in effect whole and names
// only the hints that fit whole: with dates, a search and two categories
// at a 120-column terminal's body it once ended "x…".
func TestTransactionsHeadKeepsFiltersAndWholeHints(t *testing.T) {
	r := transactionRig(t, "alice@demo.test")
	r.Keys("f")
	r.Type("2025-01-01")
	r.Keys("tab")
	r.Type("2026-12-31")
	r.Keys("tab")
	r.Type("Lidl")
	r.Keys("tab")
	r.Type("GROCERIES,RESTAURANTS")
	r.Keys("ctrl+s")
	filters := []string{"2025-01-01 to 2026-12-31", "category GROCERIES,RESTAURANTS", `search "Lidl"`}
	for _, tc := range []struct {
		width      int
		filtersFit bool
		hintsShown int
	}{
		{width: 100, filtersFit: true, hintsShown: 0}, // a 120-column terminal's body
		{width: 180, filtersFit: true, hintsShown: 3}, // 200 columns
		{width: 60, filtersFit: false},                // 80 columns
	} {
		r.W = tc.width
		head, _, _ := strings.Cut(r.View(), "\n")
		if w := ansi.StringWidth(head); w > tc.width {
			t.Errorf("width %d: the head is %d wide: %q", tc.width, w, head)
		}
		if tc.filtersFit {
			for _, f := range filters {
				if !strings.Contains(head, f) {
					t.Errorf("width %d: %q not whole in %q", tc.width, f, head)
				}
			}
			if strings.Contains(head, "…") {
				t.Errorf("width %d: the head is cut: %q", tc.width, head)
			}
		}
		shown := 0
		for _, hint := range newKeyMap(false).summaryHints() {
			if strings.Contains(head, hint) {
				shown++
			}
		}
		if tc.filtersFit && shown != tc.hintsShown {
			t.Errorf("width %d: %d hints shown, want %d: %q", tc.width, shown, tc.hintsShown, head)
		}
	}
}

// The hints beside the title are the keys in force: with a keys file that
// moves filters, pages and export, they name the new keys, not f, n/p, x.
func TestTransactionsHeadHintsFollowTheKeysFile(t *testing.T) {
	file, err := keymap.Parse("keys.yaml", []byte(
		"transactions.filters: F\ntransactions.next: \"]\"\ntransactions.previous: \"[\"\ntransactions.export: X\n"))
	if err != nil {
		t.Fatal(err)
	}
	keymap.Use(file)
	t.Cleanup(func() { keymap.Use(nil) })
	r := transactionRig(t, "alice@demo.test")
	r.W = 180
	head, _, _ := strings.Cut(r.View(), "\n")
	for _, hint := range []string{"F filters", "]/[ pages", "X export"} {
		if !strings.Contains(head, hint) {
			t.Errorf("%q not in %q", hint, head)
		}
	}
	if strings.Contains(head, "f filters") {
		t.Errorf("the built-in key still named: %q", head)
	}
}
