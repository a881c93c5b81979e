package screenkit

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/textinput"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/theme"
	"cardterm/ui"
)

// Field is one label/value line of a detail view. Values are gateway data
// and are sanitized when rendered.
type Field struct {
	Label string
	Value string
	// Styled, when set, is drawn instead of Value (badges); it is built
	// from sanitized text by the caller.
	Styled string
}

// RenderFields draws fields as an aligned two-column list that fits width.
// Labels are sanitized too: extra fields and metadata take theirs from the
// gateway's JSON keys.
func RenderFields(s *theme.Styles, fields []Field, width int) string {
	labels := make([]string, len(fields))
	labelWidth := 0
	for i, f := range fields {
		labels[i] = ui.Sanitize(f.Label)
		labelWidth = max(labelWidth, ansi.StringWidth(labels[i]))
	}
	valueWidth := max(width-labelWidth-2, 8)
	var b strings.Builder
	for i, f := range fields {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s.Label.Render(PadRight(labels[i], labelWidth)))
		b.WriteString("  ")
		v := f.Styled
		if v == "" {
			text := ui.Sanitize(f.Value)
			if text == "" {
				v = s.Muted.Render("—")
			} else {
				v = s.Value.Render(ui.Shorten(text, valueWidth))
			}
		}
		b.WriteString(v)
	}
	return b.String()
}

// ExtraFields turns the fields the gateway sent beyond the interface into
// detail lines, so nothing the server says is hidden.
func ExtraFields(extra apiclient.Extra) []Field {
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]Field, 0, len(keys))
	for _, k := range keys {
		v := strings.TrimSpace(string(extra[k]))
		if len(v) >= 2 && v[0] == '"' {
			v = strings.Trim(v, `"`)
		}
		out = append(out, Field{Label: k, Value: v})
	}
	return out
}

func PadRight(s string, width int) string {
	if w := ansi.StringWidth(s); w < width {
		return s + strings.Repeat(" ", width-w)
	}
	return s
}

// Section renders a titled block.
func Section(s *theme.Styles, title, body string) string {
	return s.Subtitle.Render(title) + "\n" + body
}

// Place fits content into exactly width x height, top-left aligned; lines
// are fitted, never re-rendered, so a frame costs what its text costs.
func Place(content string, width, height int) string {
	return ui.FitBlock(content, width, height)
}

// OrDash shows an optional gateway value, "—" when absent.
func OrDash(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// FormatLeft shows a remaining duration compactly ("5h59m", "12m", "expired").
func FormatLeft(d time.Duration) string {
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

// NewInput is a text input styled from the theme (bubbles' defaults are
// for dark terminals and ignore NO_COLOR), with a steady cursor.
func NewInput(st *theme.Styles) textinput.Model {
	in := textinput.New()
	in.SetStyles(ui.InputStyles(st))
	return in
}

// DateOnly is the date part of an ISO 8601 timestamp, or the text as it is.
func DateOnly(ts string) string {
	if len(ts) >= 10 && ts[4] == '-' {
		return ts[:10]
	}
	return ts
}

// Plural picks the word for n things.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
