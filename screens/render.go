package screens

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/theme"
	"cardterm/ui"
)

// field is one label/value line of a detail view. Values are gateway data
// and are sanitized when rendered.
type field struct {
	label string
	value string
	// styled, when set, is drawn instead of value (badges); it is built
	// from sanitized text by the caller.
	styled string
}

// renderFields draws fields as an aligned two-column list that fits width.
// Labels are sanitized too: extra fields and metadata take theirs from the
// gateway's JSON keys.
func renderFields(s *theme.Styles, fields []field, width int) string {
	labels := make([]string, len(fields))
	labelWidth := 0
	for i, f := range fields {
		labels[i] = ui.Sanitize(f.label)
		labelWidth = max(labelWidth, ansi.StringWidth(labels[i]))
	}
	valueWidth := max(width-labelWidth-2, 8)
	var b strings.Builder
	for i, f := range fields {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s.Label.Render(padRight(labels[i], labelWidth)))
		b.WriteString("  ")
		v := f.styled
		if v == "" {
			text := ui.Sanitize(f.value)
			if text == "" {
				v = s.Muted.Render("—")
			} else {
				v = s.Value.Render(ansi.Truncate(text, valueWidth, "…"))
			}
		}
		b.WriteString(v)
	}
	return b.String()
}

// extraFields turns the fields the gateway sent beyond the interface into
// detail lines, so nothing the server says is hidden.
func extraFields(extra apiclient.Extra) []field {
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]field, 0, len(keys))
	for _, k := range keys {
		v := strings.TrimSpace(string(extra[k]))
		if len(v) >= 2 && v[0] == '"' {
			v = strings.Trim(v, `"`)
		}
		out = append(out, field{label: k, value: v})
	}
	return out
}

func padRight(s string, width int) string {
	if w := ansi.StringWidth(s); w < width {
		return s + strings.Repeat(" ", width-w)
	}
	return s
}

// section renders a titled block.
func section(s *theme.Styles, title, body string) string {
	return s.Subtitle.Render(title) + "\n" + body
}

// place fits content into exactly width x height, top-left aligned.
func place(content string, width, height int) string {
	lines := strings.Split(content, "\n")
	if len(lines) > height {
		lines = lines[:height]
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, width, "")
	}
	return lipgloss.NewStyle().Width(width).Height(height).MaxHeight(height).Render(strings.Join(lines, "\n"))
}

// orDash shows an optional gateway value, "—" when absent.
func orDash(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// formatLeft shows a remaining duration compactly ("5h59m", "12m", "expired").
func formatLeft(d time.Duration) string {
	switch {
	case d <= 0:
		return "expired"
	case d >= time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	case d >= time.Minute:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	}
	return fmt.Sprintf("%ds", int(d.Seconds()))
}

// newInput is a text input styled from the theme (bubbles' defaults are
// for dark terminals and ignore NO_COLOR), with a steady cursor.
func newInput(st *theme.Styles) textinput.Model {
	in := textinput.New()
	in.SetStyles(ui.InputStyles(st))
	return in
}
