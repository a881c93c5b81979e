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

// answerWriter prints `cardterm api`'s answers: byte for byte to a pipe
// or a file (a script gets what the gateway sent); on a terminal
// indented, coloured and escaped. With -i the status line and headers
// come first; --silent prints no body; --jq, --template or --slurp (every
// page in one array) print what they make of it.
type answerWriter struct {
	w        io.Writer
	terminal bool
	color    bool            // a terminal without NO_COLOR: JSON and header names coloured
	jq       *gojq.Code      // nil: the whole answer
	output   *answerTemplate // --template; nil: none
	include  bool            // -i: the status line and headers first
	silent   bool            // --silent: no body
	slurp    bool            // --slurp: the pages gathered into one array
	pages    [][]byte
}

// sendPages sends the request, then each next page with --paginate, and
// prints every answer; it returns the exit code.
func sendPages(ctx context.Context, client *apiclient.Client, baseURL string, call apiCall, a apiFlags, std streams) int {
	terminal := isTerminal(std.stdout)
	out := &answerWriter{w: std.stdout, terminal: terminal, color: terminal && os.Getenv("NO_COLOR") == "",
		jq: call.jq, output: call.output, include: a.include, silent: a.silent, slurp: a.slurp}
	pages := newPageFollower(baseURL)
	fail := func(code int, err error) int {
		fmt.Fprintln(std.stderr, "cardterm api:", err)
		return code
	}
	for page := 0; ; page++ {
		answer, err := client.Raw(ctx, call.request)
		if page > 0 && a.include {
			_, _ = io.WriteString(out.w, "\n")
		}
		out.head(answer)
		if err != nil { // as gh api: the gateway's error answer on stdout, unfiltered
			if !a.silent {
				_ = out.raw(answer.Body)
			}
			request := call.request.Method + " " + sanitize.Text(call.request.Path)
			return fail(exitCodeFor(err), fmt.Errorf("%s: %s", request, sanitize.Text(apiclient.ErrorMessage(err))))
		}
		if err := out.write(ctx, answer.Body); err != nil && ctx.Err() != nil {
			return fail(exitInterrupted, err) // SIGINT or SIGTERM while --jq ran
		} else if err != nil {
			return fail(exitRefused, err)
		}
		next, more, err := pages.next(answer.Body)
		if err != nil && a.paginate {
			return fail(exitRefused, err)
		}
		if !a.paginate || !more {
			if err := out.finish(); err != nil {
				return fail(exitRefused, err)
			}
			return exitOK
		}
		call.request = apiclient.RawRequest{Method: call.request.Method, Path: next, Header: call.request.Header}
	}
}

// head prints the status line and the headers (sorted by name), then an
// empty line, as gh api -i does; nothing without -i or without an answer.
// Go refuses control bytes in headers, not in the status line.
func (a *answerWriter) head(answer apiclient.RawAnswer) {
	if !a.include || answer.Status == 0 {
		return
	}
	status := answer.Proto + " " + answer.StatusText
	if a.terminal {
		status = sanitize.Text(status)
	}
	var b strings.Builder
	b.WriteString(status + "\r\n")
	for _, name := range slices.Sorted(maps.Keys(answer.Header)) {
		shown := name
		if a.color {
			shown = "\x1b[1;34m" + name + "\x1b[m"
		}
		fmt.Fprintf(&b, "%s: %s\r\n", shown, strings.Join(answer.Header[name], ", "))
	}
	_, _ = io.WriteString(a.w, b.String()+"\r\n")
}

// write prints one answer: what --jq selects, --template's text, or the
// whole answer; with --slurp the page is kept for finish.
func (a *answerWriter) write(ctx context.Context, body []byte) error {
	switch {
	case a.silent:
		return nil
	case a.slurp && !json.Valid(body):
		return errors.New("--slurp: a page is not JSON")
	case a.slurp:
		a.pages = append(a.pages, bytes.TrimSpace(body))
		return nil
	case a.jq != nil:
		return a.jqResults(ctx, body)
	case a.output != nil:
		return a.output.execute(a.w, body, a.terminal, a.color)
	}
	return a.raw(body)
}

// finish prints what was kept until the last page: the --slurp array,
// and the last table --template's tablerow started.
func (a *answerWriter) finish() error {
	switch {
	case a.slurp:
		return a.raw([]byte("[" + string(bytes.Join(a.pages, []byte{','})) + "]\n"))
	case a.output != nil:
		return a.output.render(a.w)
	}
	return nil
}

// jqResults prints what --jq selects from one answer, one result a line:
// a string as its text, anything else as compact JSON (as jq -r and gh
// api --jq do). halt stops it without an error.
func (a *answerWriter) jqResults(ctx context.Context, body []byte) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber() // gojq keeps a json.Number's digits
	var value any
	if err := dec.Decode(&value); err != nil {
		return fmt.Errorf("--jq: the answer is not JSON: %v", err)
	}
	results := a.jq.RunWithContext(ctx, value)
	for result, ok := results.Next(); ok; result, ok = results.Next() {
		var halt *gojq.HaltError
		if err, isErr := result.(error); isErr && errors.As(err, &halt) && halt.Value() == nil {
			return nil
		} else if isErr {
			return jqError(err)
		}
		line, err := gojq.Marshal(result)
		text, isText := result.(string)
		switch {
		case err != nil:
			return fmt.Errorf("--jq: %v", err)
		case isText && a.terminal:
			line = []byte(sanitize.Multiline(text))
		case isText:
			line = []byte(text)
		case a.terminal:
			line = sanitize.JSON(line)
		}
		if _, err := a.w.Write(append(line, '\n')); err != nil {
			return err
		}
	}
	return nil
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
	show := indentBody
	if a.color {
		show = colorJSON
	}
	out, err := show(body)
	if err != nil {
		out = []byte(strings.TrimRight(sanitize.Multiline(string(body)), "\n") + "\n")
	}
	_, err = a.w.Write(out)
	return err
}

// pageFollower finds the next page of a paged answer: the interface pages
// with _links.next ({href, method}, or the href alone; null on the last
// page). It stops a gateway whose pages never end.
type pageFollower struct {
	base *url.URL
	seen map[string]bool
}

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
		Links struct{ Next json.RawMessage } `json:"_links"`
	}
	var link struct{ Href string }
	// Not JSON, or no _links: the last page. A next link is {href, method}
	// or the href alone.
	_ = json.Unmarshal(body, &page)
	if json.Unmarshal(page.Links.Next, &link.Href) != nil {
		_ = json.Unmarshal(page.Links.Next, &link)
	}
	if link.Href == "" {
		return "", false, nil
	}
	u, err := url.Parse(link.Href)
	if err != nil {
		return "", false, fmt.Errorf("the next page's link %q: %v", sanitize.Text(link.Href), err)
	}
	path := u.RequestURI()
	if u.IsAbs() || u.Host != "" {
		if p.base == nil || u.Host != p.base.Host || u.Scheme != p.base.Scheme {
			return "", false, fmt.Errorf("the next page is at %s, not on the gateway; it is not followed with your credentials", sanitize.Text(link.Href))
		}
		// The base URL's own path prefix is added again to the request.
		path = "/" + strings.TrimPrefix(strings.TrimPrefix(path, strings.TrimRight(p.base.Path, "/")), "/")
	}
	if p.seen[path] || len(p.seen) >= maxPages {
		return "", false, fmt.Errorf("the pages do not end (%s again, or %d pages)", sanitize.Text(link.Href), maxPages)
	}
	p.seen[path] = true
	return path, true, nil
}
