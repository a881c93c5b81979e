package cli

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"text/template"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/itchyny/gojq"

	"cardterm/apiclient"
	"cardterm/domain/humantime"
	"cardterm/domain/statement"
	"cardterm/ui/sanitize"
)

// sendPages prints a gateway's error answer too, unfiltered, as gh does.
func sendPages(ctx context.Context, client *apiclient.Client, baseURL string, call *apiCall, std streams) int {
	call.w, call.terminal = std.stdout, isTerminal(std.stdout)
	call.color = call.terminal && os.Getenv("NO_COLOR") == ""
	call.table = tabwriter.NewWriter(call.w, 0, 0, 2, ' ', 0)
	base, _ := url.Parse(baseURL)                                // the client's: it parses
	_, first, _ := pageLink(base, firstLink(base, call.request)) // on base: it is built on it
	seen := map[string]bool{first: true}                         // the pages read, by key
	var err error
	for request, later := call.request, false; request.Path != "" && err == nil; later = true {
		answer, sendErr := client.Raw(ctx, request)
		call.head(answer, later)
		if sendErr != nil {
			if !call.silent {
				_ = call.raw(answer.Body)
			}
			fmt.Fprintf(std.stderr, "cardterm api: %s %s: %s\n", request.Method, sanitize.Text(request.Path), sanitize.Text(apiclient.ErrorMessage(sendErr)))
			return exitCodeFor(sendErr)
		}
		err = call.body(ctx, answer.Body)
		request.Path, request.Query = "", nil // the last page, unless --paginate finds one more
		if call.paginate && err == nil {
			request.Path, err = nextPage(base, answer.Body, seen)
		}
	}
	if err == nil && call.slurp {
		err = call.raw([]byte("[" + string(bytes.Join(call.slurped, []byte{','})) + "]\n"))
	} else if err == nil && call.format != nil {
		err = call.table.Flush() // the rows no tablerender printed
	}
	if err == nil {
		return exitOK
	}
	fmt.Fprintln(std.stderr, "cardterm api:", err)
	if ctx.Err() != nil { // SIGINT or SIGTERM while --jq ran
		return exitInterrupted
	}
	return exitCodeFor(err) // a walk that stopped is incomplete (5), else refused
}

// head is -i's; Go refuses control bytes in headers, not in a status line.
func (c *apiCall) head(answer apiclient.RawAnswer, later bool) {
	if later && c.include {
		_, _ = io.WriteString(c.w, "\n")
	}
	if !c.include || answer.Status == 0 {
		return
	}
	fmt.Fprintf(c.w, "%s\r\n", sanitize.Text(answer.Proto+" "+answer.StatusText))
	header := "%s: %s\r\n"
	if c.color {
		header = "\x1b[" + colorKey + "m%s\x1b[m: %s\r\n"
	}
	for _, name := range slices.Sorted(maps.Keys(answer.Header)) {
		fmt.Fprintf(c.w, header, name, strings.Join(answer.Header[name], ", "))
	}
	_, _ = io.WriteString(c.w, "\r\n")
}

func (c *apiCall) body(ctx context.Context, body []byte) error {
	switch {
	case c.silent:
		return nil
	case c.slurp && !json.Valid(body):
		return errors.New("--slurp: a page is not JSON")
	case c.slurp:
		c.slurped = append(c.slurped, bytes.TrimSpace(body))
		return nil
	case c.jqProgram != nil:
		return printJQ(ctx, c.w, c.terminal, c.jqProgram, body)
	case c.format != nil:
		return c.execute(body)
	}
	return c.raw(body)
}

// raw gives a pipe or a file the gateway's bytes, a terminal escaped JSON.
func (c *apiCall) raw(body []byte) error {
	out, err := body, error(nil)
	switch {
	case !c.terminal:
	case len(bytes.TrimSpace(body)) == 0:
		return nil
	case c.color:
		out, err = colorJSON(body)
	default:
		out, err = indentBody(body)
	}
	if err != nil {
		out = []byte(strings.TrimRight(sanitize.Multiline(string(body)), "\n") + "\n")
	}
	_, err = c.w.Write(out)
	return err
}

// printJQ (api and get) prints as jq -r and gh: strings as text, one a line.
func printJQ(ctx context.Context, w io.Writer, terminal bool, code *gojq.Code, body []byte) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber() // gojq keeps a json.Number's digits
	var value any
	if err := dec.Decode(&value); err != nil {
		return fmt.Errorf("--jq: the answer is not JSON: %v", err)
	}
	results := code.RunWithContext(ctx, value)
	for result, ok := results.Next(); ok; result, ok = results.Next() {
		if err, isErr := result.(error); isErr {
			if halt, ok := err.(*gojq.HaltError); ok && halt.Value() == nil {
				return nil // halt: the end, not an error
			}
			return jqError(err)
		}
		line, _ := gojq.Marshal(result) // it never fails on a value gojq made
		if text, isText := result.(string); isText && terminal {
			line = []byte(sanitize.Multiline(text))
		} else if isText {
			line = []byte(text)
		} else if terminal {
			line = sanitize.JSON(line)
		}
		if _, err := w.Write(append(line, '\n')); err != nil {
			return err
		}
	}
	return nil
}

const maxPages = 10000

// firstLink is the address Raw sends request to: its path under base's
// own, with a leading slash, and its query after the path's own.
func firstLink(base *url.URL, request apiclient.RawRequest) string {
	link := strings.TrimRight(base.String(), "/") + "/" + strings.TrimPrefix(strings.TrimSpace(request.Path), "/")
	if len(request.Query) == 0 {
		return link
	}
	if strings.Contains(link, "?") {
		return link + "&" + request.Query.Encode()
	}
	return link + "?" + request.Query.Encode()
}

// pageLink resolves a link against base into the path Raw is given (the
// link's path under base's own, its query as written) and the page's key:
// that path with its query in one order, so the first request and a next
// link back to it are known as one page however either was written.
func pageLink(base *url.URL, link string) (path, key string, err error) {
	u, err := base.Parse(link)
	if err != nil || u.Host != base.Host || u.Scheme != base.Scheme {
		return "", "", pagesStopped(fmt.Sprintf("the next page, %s, is not on the gateway: it is not followed with your credentials", sanitize.Text(link)))
	}
	path, key = u.RequestURI(), u.EscapedPath()
	if prefix := strings.TrimRight(base.Path, "/"); strings.HasPrefix(path, prefix+"/") {
		path, key = path[len(prefix):], key[len(prefix):]
	}
	if u.RawQuery != "" {
		key += "?" + u.Query().Encode()
	}
	return path, key, nil
}

// pagesStopped is a page walk that could not reach the last page: what it
// printed is not the whole list (exit 5, as get's walks).
type pagesStopped string

func (p pagesStopped) Error() string { return string(p) }
func (p pagesStopped) Unwrap() error { return statement.ErrStopped }

// nextPage is "" on the last page; it follows no link off the gateway.
func nextPage(base *url.URL, body []byte, seen map[string]bool) (string, error) {
	var page struct {
		Links struct{ Next any } `json:"_links"`
	}
	_ = json.Unmarshal(body, &page) // not JSON, or not paged: the last page
	href, _ := page.Links.Next.(string)
	if link, ok := page.Links.Next.(map[string]any); ok {
		href, _ = link["href"].(string)
	}
	if href == "" {
		return "", nil
	}
	path, key, err := pageLink(base, href)
	if err != nil {
		return "", err
	}
	if seen[key] || len(seen) >= maxPages {
		return "", pagesStopped(fmt.Sprintf("the pages do not end (%s again, or %d pages)", sanitize.Text(href), maxPages))
	}
	seen[key] = true
	return path, nil
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

// parseTemplate checks --template, with gh's functions, before anything is sent.
func (c *apiCall) parseTemplate() (err error) {
	c.format, err = template.New("").Funcs(template.FuncMap{
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
		"timeago": func(input string) (string, error) { // in the app's words: "3 h 20 min ago"
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
	}).Parse(c.template)
	if err != nil {
		return usageError{fmt.Sprintf("--template: %v", err)}
	}
	return nil
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
