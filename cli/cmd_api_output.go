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

// answerWriter prints `cardterm api`'s answers: byte for byte to a pipe or
// a file (a script gets what the gateway sent), on a terminal indented,
// coloured and escaped; the flags and the call say what else.
type answerWriter struct {
	w               io.Writer
	terminal, color bool // color: a terminal without NO_COLOR
	flags           apiFlags
	call            apiCall
	slurped         [][]byte // --slurp's pages, printed by finish
}

// sendPages sends the call, then with --paginate each next page, prints
// every answer and returns the exit code.
func sendPages(ctx context.Context, client *apiclient.Client, baseURL string, call apiCall, a apiFlags, std streams) int {
	terminal := isTerminal(std.stdout)
	out := &answerWriter{w: std.stdout, terminal: terminal, color: terminal && os.Getenv("NO_COLOR") == "", flags: a, call: call}
	fail := func(err error) int {
		fmt.Fprintln(std.stderr, "cardterm api:", err)
		if ctx.Err() != nil { // SIGINT or SIGTERM while --jq ran
			return exitInterrupted
		}
		return exitRefused
	}
	pages, request := newPageFollower(baseURL), call.request
	for page := 1; ; page++ {
		answer, err := client.Raw(ctx, request)
		out.head(answer, page > 1)
		if err != nil { // as gh api: the gateway's error answer on stdout, unfiltered
			if !a.silent {
				_ = out.raw(answer.Body)
			}
			fmt.Fprintf(std.stderr, "cardterm api: %s %s: %s\n", request.Method, sanitize.Text(request.Path), sanitize.Text(apiclient.ErrorMessage(err)))
			return exitCodeFor(err)
		}
		if err := out.body(ctx, answer.Body); err != nil {
			return fail(err)
		}
		if !a.paginate {
			break
		}
		next, more, err := pages.next(answer.Body)
		if err != nil {
			return fail(err)
		} else if !more {
			break
		}
		request = apiclient.RawRequest{Method: request.Method, Path: next, Header: request.Header}
	}
	if err := out.finish(); err != nil {
		return fail(err)
	}
	return exitOK
}

// head prints the status line and the headers, sorted, as gh api -i does,
// a later page's after an empty line. Go refuses control bytes in
// headers, not in the status line.
func (a *answerWriter) head(answer apiclient.RawAnswer, later bool) {
	if later && a.flags.include {
		_, _ = io.WriteString(a.w, "\n")
	}
	if !a.flags.include || answer.Status == 0 {
		return
	}
	status := answer.Proto + " " + answer.StatusText
	if a.terminal {
		status = sanitize.Text(status)
	}
	fmt.Fprintf(a.w, "%s\r\n", status)
	for _, name := range slices.Sorted(maps.Keys(answer.Header)) {
		shown := name
		if a.color {
			shown = "\x1b[" + colorKey + "m" + name + "\x1b[m"
		}
		fmt.Fprintf(a.w, "%s: %s\r\n", shown, strings.Join(answer.Header[name], ", "))
	}
	_, _ = io.WriteString(a.w, "\r\n")
}

// body prints one answer as --jq, --template or --silent say; --slurp
// keeps the page for finish.
func (a *answerWriter) body(ctx context.Context, body []byte) error {
	switch {
	case a.flags.silent:
		return nil
	case a.flags.slurp && !json.Valid(body):
		return errors.New("--slurp: a page is not JSON")
	case a.flags.slurp:
		a.slurped = append(a.slurped, bytes.TrimSpace(body))
		return nil
	case a.call.jq != nil:
		return printJQ(ctx, a.w, a.terminal, a.call.jq, body)
	case a.call.output != nil:
		return a.call.output.execute(a.w, body, a.terminal, a.color)
	}
	return a.raw(body)
}

// finish prints what waits for the last page: the --slurp array, or the
// table --template's tablerow started.
func (a *answerWriter) finish() error {
	switch {
	case a.flags.slurp:
		return a.raw([]byte("[" + string(bytes.Join(a.slurped, []byte{','})) + "]\n"))
	case a.call.output != nil:
		return a.call.output.render(a.w)
	}
	return nil
}

// raw prints a whole answer: as sent when piped; on a terminal JSON
// indented (coloured unless NO_COLOR) and escaped, other text sanitized.
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

// printJQ prints what code selects from body (api and get --jq), one
// result a line: a string as its text, the rest as compact JSON, as jq -r
// and gh api --jq do.
func printJQ(ctx context.Context, w io.Writer, terminal bool, code *gojq.Code, body []byte) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber() // gojq keeps a json.Number's digits
	var value any
	if err := dec.Decode(&value); err != nil {
		return fmt.Errorf("--jq: the answer is not JSON: %v", err)
	}
	results := code.RunWithContext(ctx, value)
	for result, ok := results.Next(); ok; result, ok = results.Next() {
		var halt *gojq.HaltError
		if err, isErr := result.(error); isErr && errors.As(err, &halt) && halt.Value() == nil {
			return nil // halt: the end, not an error
		} else if isErr {
			return jqError(err)
		}
		line, _ := gojq.Marshal(result) // it fails on no value gojq makes
		text, isText := result.(string)
		switch {
		case isText && terminal:
			line = []byte(sanitize.Multiline(text))
		case isText:
			line = []byte(text)
		case terminal:
			line = sanitize.JSON(line)
		}
		if _, err := w.Write(append(line, '\n')); err != nil {
			return err
		}
	}
	return nil
}

// pageFollower finds the page after a paged answer (_links.next, {href,
// method} or the href alone), only on the gateway: the credentials go
// nowhere else. It stops pages that never end.
type pageFollower struct {
	base *url.URL // the client's base URL, which parses: it has been sent to
	seen map[string]bool
}

const maxPages = 10000

func newPageFollower(baseURL string) *pageFollower {
	base, _ := url.Parse(baseURL)
	return &pageFollower{base: base, seen: map[string]bool{}}
}

// next returns the path, under the base URL, of the page after body; false
// on the last page or an answer that is not paged.
func (p *pageFollower) next(body []byte) (string, bool, error) {
	var page struct {
		Links struct{ Next json.RawMessage } `json:"_links"`
	}
	var link struct{ Href string }
	_ = json.Unmarshal(body, &page)
	if json.Unmarshal(page.Links.Next, &link.Href) != nil {
		_ = json.Unmarshal(page.Links.Next, &link)
	}
	if link.Href == "" {
		return "", false, nil
	}
	u, err := p.base.Parse(link.Href)
	if err != nil || u.Host != p.base.Host || u.Scheme != p.base.Scheme {
		return "", false, fmt.Errorf("the next page, %s, is not on the gateway: it is not followed with your credentials", sanitize.Text(link.Href))
	}
	path := u.RequestURI()
	if prefix := strings.TrimRight(p.base.Path, "/"); strings.HasPrefix(path, prefix+"/") {
		path = path[len(prefix):]
	}
	if p.seen[path] || len(p.seen) >= maxPages {
		return "", false, fmt.Errorf("the pages do not end (%s again, or %d pages)", sanitize.Text(link.Href), maxPages)
	}
	p.seen[path] = true
	return path, true, nil
}
