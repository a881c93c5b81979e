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
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/itchyny/gojq"

	"cardterm/apiclient"
	"cardterm/apiclient/curlcmd"
	"cardterm/sandbox"
	"cardterm/ui/sanitize"
)

// runAPI signs in for a user's path (not with -H Authorization) and sends
// the call; the secret key is read only where it is sent, nothing prompts.
func runAPI(o options, call apiCall, a apiFlags, std streams) int {
	method, path := call.request.Method, call.request.Path
	if !apiclient.RawNeedsSecretKey(method, path) {
		o.secrets = nil
	}
	o.noPrompt = true
	gw, err := chooseGateway(o, std.stdin, std.stderr)
	if err != nil {
		fmt.Fprintln(std.stderr, "cardterm api:", err)
		return exitCodeFor(err)
	}
	defer gw.close()
	client := apiclient.New(gw.cfg)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if apiclient.RawNeedsSignIn(method, path) && call.request.Header.Get("Authorization") == "" {
		signOut, err := signIn(ctx, client, gw, method+" "+path)
		if err != nil {
			fmt.Fprintln(std.stderr, "cardterm api:", sanitize.Text(lookupMessage(err)))
			return exitCodeFor(err)
		}
		defer signOut()
	}
	return sendPages(ctx, client, gw.cfg.BaseURL, call, a, std)
}

// printDryRun prints call as the app's copy as curl does, sending nothing;
// without a base URL it names the sandbox `cardterm sandbox` serves.
func printDryRun(o options, call apiCall, showSecrets bool, std streams) int {
	cfg, closeLog, err := clientConfig(o)
	if err != nil {
		fmt.Fprintln(std.stderr, "cardterm api:", err)
		return exitCodeFor(err)
	}
	defer closeLog()
	if cfg.BaseURL == "" {
		cfg.BaseURL, cfg.ClientKey = defaultSandboxURL, cmp.Or(cfg.ClientKey, sandbox.DemoClientKey)
	}
	if showSecrets { // clientConfig reads no secret: the command holds variables
		cfg.SecretKey = strings.TrimSpace(os.Getenv(secretKeyEnv))
	}
	prepared, err := apiclient.New(cfg).PrepareRaw(context.Background(), call.request)
	if err != nil {
		fmt.Fprintln(std.stderr, "cardterm api:", apiclient.ErrorMessage(err))
		return exitCodeFor(err)
	}
	command, variables := curlcmd.Command(prepared.Request, prepared.Body, curlcmd.Options{Reveal: showSecrets,
		NeedsToken: prepared.NeedsToken && call.request.Header.Get("Authorization") == "", NeedsSecretKey: prepared.NeedsSecretKey})
	fmt.Fprintln(std.stdout, command)
	hints := map[string]string{
		curlcmd.AccessTokenVariable: "an access token from POST /v1/auth/login",
		curlcmd.SecretKeyVariable:   "your secret key",
		curlcmd.BodyFileVariable:    "a file holding the body: it has a NUL byte, which no shell word carries",
	}
	for _, variable := range variables {
		fmt.Fprintf(std.stderr, "Set $%s first (%s).\n", variable, hints[variable])
	}
	return exitOK
}

// sendPages sends the call, then with --paginate each next page, prints
// every answer and returns the exit code.
func sendPages(ctx context.Context, client *apiclient.Client, baseURL string, call apiCall, a apiFlags, std streams) int {
	terminal := isTerminal(std.stdout)
	out := &answerWriter{w: std.stdout, terminal: terminal, color: terminal && os.Getenv("NO_COLOR") == "", flags: a, call: call}
	base, _ := url.Parse(baseURL) // the client's: it parses
	seen := map[string]bool{}     // the pages followed
	var err error
	for request := call.request; request.Path != ""; {
		answer, sendErr := client.Raw(ctx, request)
		out.head(answer, len(seen) > 0)
		if sendErr != nil { // as gh api: the gateway's error answer on stdout, unfiltered
			if !a.silent {
				_ = out.raw(answer.Body)
			}
			fmt.Fprintf(std.stderr, "cardterm api: %s %s: %s\n", request.Method, sanitize.Text(request.Path), sanitize.Text(apiclient.ErrorMessage(sendErr)))
			return exitCodeFor(sendErr)
		}
		err = out.body(ctx, answer.Body)
		request = apiclient.RawRequest{Method: request.Method, Header: request.Header} // no path: the last page
		if a.paginate && err == nil {
			request.Path, err = nextPage(base, answer.Body, seen)
		}
	}
	if err == nil && a.slurp { // what waited for the last page
		err = out.raw([]byte("[" + string(bytes.Join(out.slurped, []byte{','})) + "]\n"))
	} else if err == nil && call.output != nil {
		err = call.output.render(out.w)
	}
	if err == nil {
		return exitOK
	}
	fmt.Fprintln(std.stderr, "cardterm api:", err)
	if ctx.Err() != nil { // SIGINT or SIGTERM while --jq ran
		return exitInterrupted
	}
	return exitRefused
}

// answerWriter prints the answers: byte for byte to a pipe or a file (a
// script gets what the gateway sent), on a terminal indented and escaped.
type answerWriter struct {
	w               io.Writer
	terminal, color bool // color: a terminal without NO_COLOR
	flags           apiFlags
	call            apiCall
	slurped         [][]byte // --slurp's pages, printed after the last
}

// head is -i's status line and sorted headers, the page after the first
// set apart. Go refuses control bytes in headers, not in a status line.
func (a *answerWriter) head(answer apiclient.RawAnswer, later bool) {
	if later && a.flags.include {
		_, _ = io.WriteString(a.w, "\n")
	}
	if !a.flags.include || answer.Status == 0 {
		return
	}
	fmt.Fprintf(a.w, "%s\r\n", sanitize.Text(answer.Proto+" "+answer.StatusText))
	header := "%s: %s\r\n"
	if a.color {
		header = "\x1b[" + colorKey + "m%s\x1b[m: %s\r\n"
	}
	for _, name := range slices.Sorted(maps.Keys(answer.Header)) {
		fmt.Fprintf(a.w, header, name, strings.Join(answer.Header[name], ", "))
	}
	_, _ = io.WriteString(a.w, "\r\n")
}

// body prints one answer as --jq, --template or --silent say; --slurp
// keeps the page for the end.
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

// printJQ is --jq (api and get) as jq -r and gh have it: one result a
// line, a string as its text, the rest as compact JSON.
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

// maxPages stops a gateway whose pages never end.
const maxPages = 10000

// nextPage is the path of the page after body, "" on the last. A page
// off the gateway is refused: the credentials go nowhere else.
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
	u, err := base.Parse(href)
	if err != nil || u.Host != base.Host || u.Scheme != base.Scheme {
		return "", fmt.Errorf("the next page, %s, is not on the gateway: it is not followed with your credentials", sanitize.Text(href))
	}
	path := u.RequestURI()
	if prefix := strings.TrimRight(base.Path, "/"); strings.HasPrefix(path, prefix+"/") {
		path = path[len(prefix):]
	}
	if seen[path] || len(seen) >= maxPages {
		return "", fmt.Errorf("the pages do not end (%s again, or %d pages)", sanitize.Text(href), maxPages)
	}
	seen[path] = true
	return path, nil
}
