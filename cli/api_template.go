package cli

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"text/template"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/domain/humantime"
	"cardterm/ui/sanitize"
)

// parseTemplate checks --template before anything is sent.
func (c *apiCall) parseTemplate() error {
	var err error
	if c.format, err = template.New("").Funcs(c.templateFunctions()).Parse(c.template); err != nil {
		return usageError{fmt.Sprintf("--template: %v", err)}
	}
	return nil
}

// execute sanitizes the answer for a terminal: only the template's colours reach it.
func (c *apiCall) execute(body []byte) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var data any
	if err := dec.Decode(&data); err != nil {
		return fmt.Errorf("--template: the answer is not JSON: %v", err)
	}
	if c.terminal {
		data = sanitizeStrings(data)
	}
	if err := c.format.Execute(c.w, data); err != nil {
		return fmt.Errorf("--template: %v", err)
	}
	return nil
}

// templateFunctions are gh's; timeago speaks as the app does ("3 h 20 min ago").
func (c *apiCall) templateFunctions() template.FuncMap {
	return template.FuncMap{
		"color": colorText,
		"autocolor": func(style string, input any) string {
			if c.color {
				return colorText(style, input)
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
		"tablerow": func(fields ...any) (string, error) {
			row := make([]string, len(fields))
			for i, field := range fields { // one line a row, tabs for the columns
				first, _, _ := strings.Cut(valueText(field), "\n")
				row[i] = strings.ReplaceAll(first, "\t", " ")
			}
			_, err := fmt.Fprintln(c.table, strings.Join(row, "\t"))
			return "", err
		},
		"tablerender": func() (string, error) { return "", c.table.Flush() },
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
			return ansi.SetHyperlink(link) + cmp.Or(text, link) + ansi.ResetHyperlink()
		},
	}
}

// valueText prints null as nothing, anything but a string as JSON.
func valueText(input any) string {
	if text, isText := input.(string); isText || input == nil {
		return text
	}
	data, _ := json.Marshal(input)
	return string(data)
}

// colorText paints in gh's styles: "green+b" (+b bold, +u underline, +h bright).
func colorText(style string, input any) string {
	name, attributes, _ := strings.Cut(style, "+")
	code := slices.Index([]string{"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"}, name)
	if code < 0 {
		return valueText(input)
	}
	if strings.Contains(attributes, "h") {
		code += 8
	}
	return lipgloss.NewStyle().Foreground(lipgloss.ANSIColor(code)).
		Bold(strings.Contains(attributes, "b")).Underline(strings.Contains(attributes, "u")).Render(valueText(input))
}

// sanitizeStrings leaves a key sanitized into another's from replacing it.
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
