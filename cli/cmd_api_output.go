package cli

import (
	"bytes"
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

	"github.com/itchyny/gojq"

	"cardterm/apiclient"
	"cardterm/ui/sanitize"
)

// What `cardterm api` prints, and how it follows pages: the answer as
// sent in a pipe, indented, coloured and escaped on a terminal; with -i
// its status line and headers first; with --silent no body; --jq's
// results, --template's text, or with --slurp every page in one array.

// answerWriter prints answers: byte for byte to a pipe or a file (a
// script gets what the gateway sent), made safe to look at on a terminal.
type answerWriter struct {
	w        io.Writer
	terminal bool
	color    bool           // a terminal without NO_COLOR: JSON and header names coloured
	jq       *gojq.Code     // nil: the whole answer
	output   answerTemplate // --template; zero: none
	include  bool           // -i: the status line and headers first
	silent   bool           // --silent: no body
	slurp    bool           // --slurp: the pages gathered into one array
	pages    [][]byte
}

func newAnswerWriter(w io.Writer, call apiCall, a apiFlags) *answerWriter {
	terminal := isTerminal(w)
	return &answerWriter{w: w, terminal: terminal, color: terminal && os.Getenv("NO_COLOR") == "",
		jq: call.jq, output: call.output, include: a.include, silent: a.silent, slurp: a.slurp}
}

// head prints the status line and the headers (sorted by name), then an
// empty line, as gh api -i does; nothing without -i or without an answer.
func (a *answerWriter) head(answer apiclient.RawAnswer) {
	if !a.include || answer.Status == 0 {
		return
	}
	clean := func(s string) string { return s }
	if a.terminal {
		clean = sanitize.Text
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\r\n", clean(answer.Proto), clean(answer.StatusText))
	names := slices.Sorted(maps.Keys(answer.Header))
	for _, name := range names {
		shown := clean(name)
		if a.color {
			shown = "\x1b[1;34m" + shown + "\x1b[m"
		}
		fmt.Fprintf(&b, "%s: %s\r\n", shown, clean(strings.Join(answer.Header[name], ", ")))
	}
	b.WriteString("\r\n")
	_, _ = io.WriteString(a.w, b.String())
}

// pageBreak separates the pages' heads with -i.
func (a *answerWriter) pageBreak() { _, _ = io.WriteString(a.w, "\n") }

// errorAnswer prints an error answer's body as the gateway sent it
// (never filtered; nothing with --silent).
func (a *answerWriter) errorAnswer(body []byte) {
	if len(body) > 0 && !a.silent {
		_ = a.raw(body)
	}
}

// write prints one answer: what --jq selects, --template's text, or the
// whole answer; with --slurp the page is kept for finish.
func (a *answerWriter) write(ctx context.Context, body []byte) error {
	switch {
	case a.silent:
		return nil
	case a.slurp:
		if !json.Valid(body) {
			return errors.New("--slurp: a page is not JSON")
		}
		a.pages = append(a.pages, bytes.TrimSpace(body))
		return nil
	case a.jq != nil:
		return a.jqResults(ctx, body)
	case a.output.set():
		return a.output.execute(a.w, body, a.terminal, a.color)
	}
	return a.raw(body)
}

// finish prints what was kept until the last page: the --slurp array,
// and the last table --template's tablerow started.
func (a *answerWriter) finish() error {
	if a.slurp {
		array := append([]byte{'['}, bytes.Join(a.pages, []byte{','})...)
		array = append(array, ']')
		if !a.terminal {
			array = append(array, '\n')
		}
		return a.raw(array)
	}
	if a.output.set() {
		return a.output.flush(a.w)
	}
	return nil
}

// jqResults prints what --jq selects from one answer.
func (a *answerWriter) jqResults(ctx context.Context, body []byte) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber() // gojq keeps a json.Number's digits
	var value any
	if err := dec.Decode(&value); err != nil {
		return fmt.Errorf("--jq: the answer is not JSON: %v", err)
	}
	results := a.jq.RunWithContext(ctx, value)
	for {
		result, ok := results.Next()
		if !ok {
			return nil
		}
		if err, isErr := result.(error); isErr {
			var halt *gojq.HaltError
			if errors.As(err, &halt) && halt.Value() == nil {
				return nil // halt: stop without an error
			}
			return jqError(err)
		}
		if err := a.result(result); err != nil {
			return err
		}
	}
}

// result prints one --jq result on its own line: a string as its text,
// anything else as compact JSON (as jq -r and gh api --jq do).
func (a *answerWriter) result(v any) error {
	var line []byte
	if text, ok := v.(string); ok {
		line = []byte(text)
		if a.terminal {
			line = []byte(sanitize.Multiline(text))
		}
	} else {
		encoded, err := gojq.Marshal(v)
		if err != nil {
			return fmt.Errorf("--jq: %v", err)
		}
		line = encoded
		if a.terminal {
			line = sanitize.JSON(encoded)
		}
	}
	_, err := a.w.Write(append(line, '\n'))
	return err
}

// raw prints a whole answer: as it is when piped; on a terminal indented
// (and coloured unless NO_COLOR) and escaped when it is JSON, else
// sanitized text.
func (a *answerWriter) raw(body []byte) error {
	if !a.terminal {
		_, err := a.w.Write(body)
		return err
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	var out []byte
	var err error
	if a.color {
		out, err = colorJSON(body)
	} else {
		out, err = indentBody(body)
	}
	if err != nil {
		out = []byte(strings.TrimRight(sanitize.Multiline(string(body)), "\n") + "\n")
	}
	_, err = a.w.Write(out)
	return err
}

// pageFollower finds the next page of a paged answer: the interface pages
// with _links.next ({href, method}, null on the last page).
type pageFollower struct {
	base *url.URL
	seen map[string]bool
}

// maxPages stops a gateway whose pages never end.
const maxPages = 10000

func newPageFollower(baseURL string) *pageFollower {
	base, _ := url.Parse(baseURL)
	return &pageFollower{base: base, seen: map[string]bool{}}
}

// next returns the path of the page after body, false when body is the
// last page (or not a paged answer). A next page on another host is an
// error: the credentials go only to the gateway.
func (p *pageFollower) next(body []byte) (string, bool, error) {
	var page struct {
		Links struct {
			Next json.RawMessage `json:"next"`
		} `json:"_links"`
	}
	if json.Unmarshal(body, &page) != nil || len(page.Links.Next) == 0 {
		return "", false, nil
	}
	var href string
	if json.Unmarshal(page.Links.Next, &href) != nil {
		var link struct {
			Href string `json:"href"`
		}
		if json.Unmarshal(page.Links.Next, &link) != nil {
			return "", false, nil
		}
		href = link.Href
	}
	if href == "" {
		return "", false, nil
	}
	u, err := url.Parse(href)
	if err != nil {
		return "", false, fmt.Errorf("the next page's link %q: %v", href, err)
	}
	path := u.RequestURI()
	if u.IsAbs() || u.Host != "" {
		if p.base == nil || u.Host != p.base.Host || u.Scheme != p.base.Scheme {
			return "", false, fmt.Errorf("the next page is at %s, not on the gateway; it is not followed with your credentials", href)
		}
		// The base URL's own path prefix is added again to the request.
		path = "/" + strings.TrimPrefix(strings.TrimPrefix(path, strings.TrimRight(p.base.Path, "/")), "/")
	}
	if p.seen[path] || len(p.seen) >= maxPages {
		return "", false, fmt.Errorf("the pages do not end (%s again, or %d pages)", href, maxPages)
	}
	p.seen[path] = true
	return path, true, nil
}
