package whitelist

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// The selected entry in full, under the table: the columns cut long names
// and hide the beneficiary and the id on narrow terminals, and a support
// agent needs them whole. y copies the same fields.

// detailLines is the height of the selected entry's pane.
const detailLines = 3

// entryField is one labelled value of the selected entry.
type entryField struct{ label, value string }

// entryFields are the selected entry's fields, each passed through clip
// and sanitized, in the order the pane and the copy show them: the pane
// clips what it reads on a frame (ui.ClipLong), the copy takes them whole.
func entryFields(e *apiclient.WhitelistEntry, clip func(string) string) []entryField {
	memo := "—"
	if e.WalletMemo != nil && *e.WalletMemo != "" {
		memo = *e.WalletMemo
	}
	return []entryField{
		{"Name", sanitize.Text(clip(e.Name))},
		{"Beneficiary", sanitize.Text(clip(beneficiary(e)))},
		{"Address", sanitize.Text(clip(e.WalletAddress))},
		{"Memo/tag", sanitize.Text(clip(memo))},
		{"ID", sanitize.Text(clip(e.ID))},
	}
}

// detailView lays the fields out on at most detailLines lines of width,
// several to a line where they fit; a value wider than a line loses its
// middle, never a whole field.
func detailView(st *theme.Styles, e *apiclient.WhitelistEntry, width int) string {
	var lines []string
	var line strings.Builder
	used := 0
	for _, f := range entryFields(e, ui.ClipLong) {
		w := ansi.StringWidth(f.label) + 1 + ansi.StringWidth(f.value)
		if used > 0 && used+3+w > width {
			lines = append(lines, line.String())
			line.Reset()
			used = 0
		}
		value := f.value
		if w > width {
			value = ui.Shorten(value, max(width-ansi.StringWidth(f.label)-1, 1))
			w = width
		}
		if used > 0 {
			line.WriteString("   ")
			used += 3
		}
		line.WriteString(screenkit.LabelValue(st, f.label, value))
		used += w
	}
	lines = append(lines, line.String())
	if len(lines) > detailLines {
		lines = lines[:detailLines]
	}
	return strings.Join(lines, "\n")
}

// copyText is the selected entry's fields whole, one a line, as y copies
// them (for a ticket or a message).
func copyText(e *apiclient.WhitelistEntry) string {
	var b strings.Builder
	for i, f := range entryFields(e, func(s string) string { return s }) {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(f.label + ": " + f.value)
	}
	return b.String()
}
