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

// `cardterm api --template`: the answer formatted with a Go template, with
// the functions gh api's templates have (gh help formatting): color and
// autocolor, join, pluck, tablerow and tablerender, timeago, timefmt,
// truncate and hyperlink. Numbers keep their digits (json.Number), and
// timeago says spans the way the app does ("3 h 20 min ago").

// answerTemplate is a parsed --template and the table its tablerow calls
// gather, kept across pages until tablerender (or the end) prints it.
type answerTemplate struct {
	template *template.Template
	rows     [][]string
	out      *bytes.Buffer // where the running template writes
	color    bool          // autocolor paints
}

// parseAnswerTemplate checks the template's syntax before anything is
// sent.
func parseAnswerTemplate(text string) (*answerTemplate, error) {
	t := &answerTemplate{}
	var err error
	if t.template, err = template.New("").Funcs(t.functions()).Parse(text); err != nil {
		return nil, usageError{fmt.Sprintf("--template: %v", err)}
	}
	return t, nil
}

// execute runs the template on one answer. On a terminal the answer's
// strings are sanitized first, so only the template's own colours reach
// the terminal. text/template writes each piece as it goes, so
// tablerender's table lands where it is called.
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
	t.out, t.color = &bytes.Buffer{}, color
	if err := t.template.Execute(t.out, data); err != nil {
		return fmt.Errorf("--template: %v", err)
	}
	_, err := w.Write(t.out.Bytes())
	return err
}

// render writes the rows tablerow gathered in aligned columns and
// forgets them.
func (t *answerTemplate) render(w io.Writer) error {
	table := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, row := range t.rows {
		fmt.Fprintln(table, strings.Join(row, "\t"))
	}
	t.rows = nil
	return table.Flush()
}

// functions are gh's template functions.
func (t *answerTemplate) functions() template.FuncMap {
	texts := func(values []any) ([]string, error) {
		out := make([]string, len(values))
		for i, value := range values {
			var err error
			if out[i], err = scalarText(value); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	parseTime := func(input string) (time.Time, error) { return time.Parse(time.RFC3339, input) }
	return template.FuncMap{
		"color": func(style string, input any) (string, error) {
			text, err := scalarText(input)
			return colorText(style, text), err
		},
		"autocolor": func(style string, input any) (string, error) {
			text, err := scalarText(input)
			if t.color {
				text = colorText(style, text)
			}
			return text, err
		},
		"join": func(separator string, input []any) (string, error) {
			parts, err := texts(input)
			return strings.Join(parts, separator), err
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
			row, err := texts(fields)
			for i, text := range row {
				first, _, _ := strings.Cut(text, "\n")
				row[i] = strings.ReplaceAll(first, "\t", " ")
			}
			t.rows = append(t.rows, row)
			return "", err
		},
		"tablerender": func() (string, error) { return "", t.render(t.out) },
		"timeago": func(input string) (string, error) {
			at, err := parseTime(input)
			return humantime.Relative(at, time.Now()), err
		},
		"timefmt": func(layout, input string) (string, error) {
			at, err := parseTime(input)
			return at.Format(layout), err
		},
		"truncate": func(width int, input any) (string, error) {
			text, ok := input.(string)
			if !ok && input != nil {
				return "", fmt.Errorf("truncate: want a string, got %T", input)
			}
			return ansi.Truncate(text, width, "..."), nil
		},
		"hyperlink": func(link, text string) string {
			return "\x1b]8;;" + link + "\x1b\\" + cmp.Or(text, link) + "\x1b]8;;\x1b\\"
		},
	}
}

// scalarText is a JSON scalar as text: a number as its digits, null as
// nothing.
func scalarText(input any) (string, error) {
	switch v := input.(type) {
	case string:
		return v, nil
	case json.Number, bool:
		return fmt.Sprint(v), nil
	case nil:
		return "", nil
	}
	return "", fmt.Errorf("cannot write a %T as text", input)
}

// colorText paints text in a style of gh's templates (mgutz/ansi): a
// colour name, then +b bold, +u underline or +h bright ("green+b").
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

// sanitizeStrings returns data with every string sanitized for a
// terminal.
func sanitizeStrings(data any) any {
	switch v := data.(type) {
	case string:
		return sanitize.Multiline(v)
	case []any:
		for i := range v {
			v[i] = sanitizeStrings(v[i])
		}
	case map[string]any:
		return sanitizeKeys(v)
	}
	return data
}

// sanitizeKeys returns m with its keys sanitized as well as its values
// ({{range $key, $value := .}} prints keys). A key that only differed
// from another by what sanitizing removed does not replace it.
func sanitizeKeys(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for key, value := range m {
		clean := sanitize.Multiline(key)
		if _, taken := out[clean]; taken && clean != key {
			continue
		}
		out[clean] = sanitizeStrings(value)
	}
	return out
}
