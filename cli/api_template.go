package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
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

// answerTemplate is a parsed --template; its zero value is none.
type answerTemplate struct {
	text  string
	table *templateTable // tablerow's rows, kept across pages until rendered
}

// set reports whether --template was given.
func (t answerTemplate) set() bool { return t.text != "" }

// parseAnswerTemplate checks the template's syntax before anything is
// sent.
func parseAnswerTemplate(text string) (answerTemplate, error) {
	if _, err := template.New("").Funcs(templateFuncs(&templateTable{}, false, time.Now())).Parse(text); err != nil {
		return answerTemplate{}, err
	}
	return answerTemplate{text: text, table: &templateTable{}}, nil
}

// templateTable gathers tablerow's rows until tablerender (or the end).
type templateTable struct {
	rows [][]string
}

// render writes the rows in aligned columns and forgets them.
func (t *templateTable) render(w io.Writer) error {
	if len(t.rows) == 0 {
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, row := range t.rows {
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	t.rows = nil
	return tw.Flush()
}

// execute runs the template on one answer. On a terminal the answer's
// strings are sanitized first, so only the template's own colours reach
// the terminal.
func (t answerTemplate) execute(w io.Writer, body []byte, terminal, color bool) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var data any
	if err := dec.Decode(&data); err != nil {
		return fmt.Errorf("--template: the answer is not JSON: %v", err)
	}
	if terminal {
		data = sanitizeStrings(data)
	}
	table := t.table
	var out bytes.Buffer
	tmpl, err := template.New("").Funcs(templateFuncs(table, color, time.Now())).Parse(t.text)
	if err != nil {
		return err
	}
	if err := tmpl.Execute(&tableFlusher{out: &out, table: table}, data); err != nil {
		return fmt.Errorf("--template: %v", err)
	}
	_, err = w.Write(out.Bytes())
	return err
}

// flush renders a table tablerow began and no tablerender ended.
func (t answerTemplate) flush(w io.Writer) error {
	return t.table.render(w)
}

// tableFlusher is where the template writes: tablerender's marker there
// renders the rows gathered so far in place.
type tableFlusher struct {
	out   *bytes.Buffer
	table *templateTable
}

// renderMarker stands for tablerender in the template's output.
const renderMarker = "\x00tablerender\x00"

func (f *tableFlusher) Write(p []byte) (int, error) {
	text := string(p)
	for {
		before, after, found := strings.Cut(text, renderMarker)
		f.out.WriteString(before)
		if !found {
			return len(p), nil
		}
		if err := f.table.render(f.out); err != nil {
			return 0, err
		}
		text = after
	}
}

// templateFuncs are gh's template functions.
func templateFuncs(table *templateTable, color bool, now time.Time) template.FuncMap {
	paint := func(style string, input any) (string, error) {
		text, err := scalarText(input)
		if err != nil {
			return "", err
		}
		return colorText(style, text), nil
	}
	auto := paint
	if !color {
		auto = func(_ string, input any) (string, error) { return scalarText(input) }
	}
	return template.FuncMap{
		"color":     paint,
		"autocolor": auto,
		"join": func(sep string, input []any) (string, error) {
			parts := make([]string, 0, len(input))
			for _, item := range input {
				text, err := scalarText(item)
				if err != nil {
					return "", err
				}
				parts = append(parts, text)
			}
			return strings.Join(parts, sep), nil
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
			row := make([]string, 0, len(fields))
			for _, field := range fields {
				text, err := scalarText(field)
				if err != nil {
					return "", fmt.Errorf("tablerow: %v", err)
				}
				first, _, _ := strings.Cut(text, "\n")
				row = append(row, strings.ReplaceAll(first, "\t", " "))
			}
			table.rows = append(table.rows, row)
			return "", nil
		},
		"tablerender": func() string { return renderMarker },
		"timeago": func(input string) (string, error) {
			t, err := time.Parse(time.RFC3339, input)
			if err != nil {
				return "", err
			}
			return humantime.Relative(t, now), nil
		},
		"timefmt": func(format, input string) (string, error) {
			t, err := time.Parse(time.RFC3339, input)
			if err != nil {
				return "", err
			}
			return t.Format(format), nil
		},
		"truncate": func(width int, input any) (string, error) {
			if input == nil {
				return "", nil
			}
			text, ok := input.(string)
			if !ok {
				return "", fmt.Errorf("truncate: want a string, got %T", input)
			}
			return ansi.Truncate(text, width, "..."), nil
		},
		"hyperlink": func(link, text string) string {
			if text == "" {
				text = link
			}
			return "\x1b]8;;" + link + "\x1b\\" + text + "\x1b]8;;\x1b\\"
		},
	}
}

// scalarText is a JSON scalar as text: a number as its digits, null as
// nothing.
func scalarText(input any) (string, error) {
	switch v := input.(type) {
	case string:
		return v, nil
	case json.Number:
		return v.String(), nil
	case bool:
		return fmt.Sprint(v), nil
	case nil:
		return "", nil
	}
	return "", fmt.Errorf("cannot write a %T as text", input)
}

// templateColors are the colour names gh's templates take (mgutz/ansi):
// a name, optionally +b (bold), +u (underline) or +h (bright).
var templateColors = map[string]int{"black": 0, "red": 1, "green": 2, "yellow": 3, "blue": 4, "magenta": 5, "cyan": 6, "white": 7}

// colorText paints text in style ("red", "green+b", "blue+u").
func colorText(style, text string) string {
	name, attributes, _ := strings.Cut(style, "+")
	code, ok := templateColors[name]
	if !ok {
		return text
	}
	c := lipgloss.ANSIColor(code)
	if strings.Contains(attributes, "h") {
		c = lipgloss.ANSIColor(code + 8)
	}
	s := lipgloss.NewStyle().Foreground(c).Bold(strings.Contains(attributes, "b")).Underline(strings.Contains(attributes, "u"))
	return s.Render(text)
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
