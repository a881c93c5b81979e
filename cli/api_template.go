package cli

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"text/template"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/domain/humantime"
	"cardterm/ui/sanitize"
)

// answerTemplate is --template with gh's functions; the rows tablerow
// gathers wait, across pages, for tablerender or the end.
type answerTemplate struct {
	template *template.Template
	rows     [][]string
	out      io.Writer // where the running template, and tablerender, write
	color    bool      // autocolor paints
}

// parseAnswerTemplate checks the template before anything is sent.
func parseAnswerTemplate(text string) (*answerTemplate, error) {
	t := &answerTemplate{}
	var err error
	if t.template, err = template.New("").Funcs(t.functions()).Parse(text); err != nil {
		return nil, usageError{fmt.Sprintf("--template: %v", err)}
	}
	return t, nil
}

// execute runs the template on one answer; on a terminal its strings and
// keys are sanitized first, so only the template's own colours reach it.
func (t *answerTemplate) execute(w io.Writer, body []byte, terminal, color bool) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var data any
	if err := dec.Decode(&data); err != nil {
		return fmt.Errorf("--template: the answer is not JSON: %v", err)
	}
	if terminal {
		data = sanitizeStrings(data)
	}
	t.out, t.color = w, color
	if err := t.template.Execute(w, data); err != nil {
		return fmt.Errorf("--template: %v", err)
	}
	return nil
}

// render writes the rows tablerow gathered in aligned columns.
func (t *answerTemplate) render(w io.Writer) error {
	table := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, row := range t.rows {
		fmt.Fprintln(table, strings.Join(row, "\t"))
	}
	t.rows = nil
	return table.Flush()
}

// functions are gh's; timeago speaks as the app does ("3 h 20 min ago").
func (t *answerTemplate) functions() template.FuncMap {
	return template.FuncMap{
		"color": func(style string, input any) string { return colorText(style, valueText(input)) },
		"autocolor": func(style string, input any) string {
			if t.color {
				return colorText(style, valueText(input))
			}
			return valueText(input)
		},
		"join": func(separator string, input []any) string {
			texts := make([]string, len(input))
			for i, value := range input {
				texts[i] = valueText(value)
			}
			return strings.Join(texts, separator)
		},
		"pluck": func(field string, input []any) []any {
			var out []any
			for _, item := range input {
				if object, ok := item.(map[string]any); ok {
					out = append(out, object[field])
				}
			}
			return out
		},
		"tablerow": func(fields ...any) string {
			row := make([]string, len(fields))
			for i, field := range fields { // one line a row, tabs for the columns
				first, _, _ := strings.Cut(valueText(field), "\n")
				row[i] = strings.ReplaceAll(first, "\t", " ")
			}
			t.rows = append(t.rows, row)
			return ""
		},
		"tablerender": func() (string, error) { return "", t.render(t.out) },
		"timeago": func(input string) (string, error) {
			at, err := time.Parse(time.RFC3339, input)
			return humantime.Relative(at, time.Now()), err
		},
		"timefmt": func(layout, input string) (string, error) {
			at, err := time.Parse(time.RFC3339, input)
			return at.Format(layout), err
		},
		"truncate": func(width int, input any) string { return ansi.Truncate(valueText(input), width, "...") },
		"hyperlink": func(link, text string) string {
			return "\x1b]8;;" + link + "\x1b\\" + cmp.Or(text, link) + "\x1b]8;;\x1b\\"
		},
	}
}

// valueText is a JSON value as the functions print it: a string as
// itself, null as nothing, anything else as JSON (numbers keep digits).
func valueText(input any) string {
	if text, isText := input.(string); isText || input == nil {
		return text
	}
	data, _ := json.Marshal(input)
	return string(data)
}

// colorText paints text in gh's styles: "green+b" (+b bold, +u underline, +h bright).
func colorText(style, text string) string {
	name, attributes, _ := strings.Cut(style, "+")
	code := slices.Index([]string{"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"}, name)
	if code < 0 {
		return text
	}
	if strings.Contains(attributes, "h") {
		code += 8
	}
	return lipgloss.NewStyle().Foreground(lipgloss.ANSIColor(code)).
		Bold(strings.Contains(attributes, "b")).Underline(strings.Contains(attributes, "u")).Render(text)
}

// sanitizeStrings sanitizes data's strings and keys for a terminal; a key
// sanitized into another's does not replace it.
func sanitizeStrings(data any) any {
	switch v := data.(type) {
	case string:
		return sanitize.Multiline(v)
	case []any:
		for i := range v {
			v[i] = sanitizeStrings(v[i])
		}
	case map[string]any:
		clean := make(map[string]any, len(v))
		for key, value := range v {
			cleanKey := sanitize.Multiline(key)
			if _, taken := clean[cleanKey]; !taken || cleanKey == key {
				clean[cleanKey] = sanitizeStrings(value)
			}
		}
		return clean
	}
	return data
}
