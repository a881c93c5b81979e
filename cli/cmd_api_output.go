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
	"text/tabwriter"

	"github.com/itchyny/gojq"

	"cardterm/apiclient"
	"cardterm/apiclient/curlcmd"
	"cardterm/sandbox"
	"cardterm/ui/sanitize"
)

// runAPI never prompts; it reads the secret key and signs in only if needed.
func runAPI(o options, call *apiCall, std streams) int {
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
	return sendPages(ctx, client, gw.cfg.BaseURL, call, std)
}

// printDryRun names the sandbox `cardterm sandbox` serves when no gateway is set.
func printDryRun(o options, call *apiCall, std streams) int {
	cfg, closeLog, err := clientConfig(o)
	if err != nil {
		fmt.Fprintln(std.stderr, "cardterm api:", err)
		return exitCodeFor(err)
	}
	defer closeLog()
	if cfg.BaseURL == "" {
		cfg.BaseURL, cfg.ClientKey = defaultSandboxURL, cmp.Or(cfg.ClientKey, sandbox.DemoClientKey)
	}
	if call.showSecrets { // clientConfig reads no secret: the command holds variables
		cfg.SecretKey = strings.TrimSpace(os.Getenv(secretKeyEnv))
	}
	prepared, err := apiclient.New(cfg).PrepareRaw(context.Background(), call.request)
	if err != nil {
		fmt.Fprintln(std.stderr, "cardterm api:", apiclient.ErrorMessage(err))
		return exitCodeFor(err)
	}
	command, variables := curlcmd.Command(prepared.Request, prepared.Body,
		curlcmd.Options{Reveal: call.showSecrets, NeedsToken: prepared.NeedsToken, NeedsSecretKey: prepared.NeedsSecretKey})
	fmt.Fprintln(std.stdout, command)
	hints := map[string]string{
		curlcmd.AccessTokenVariable: " (an access token from POST /v1/auth/login)",
		curlcmd.BodyFileVariable:    " (a file holding the body: it has a NUL byte, which no shell word carries)",
	}
	for _, variable := range variables {
		fmt.Fprintf(std.stderr, "Set $%s first%s.\n", variable, hints[variable])
	}
	return exitOK
}

// sendPages prints a gateway's error answer too, unfiltered, as gh does.
func sendPages(ctx context.Context, client *apiclient.Client, baseURL string, call *apiCall, std streams) int {
	call.w, call.terminal = std.stdout, isTerminal(std.stdout)
	call.color = call.terminal && os.Getenv("NO_COLOR") == ""
	call.table = tabwriter.NewWriter(call.w, 0, 0, 2, ' ', 0)
	base, _ := url.Parse(baseURL) // the client's: it parses
	seen := map[string]bool{}     // the pages followed
	var err error
	for request := call.request; request.Path != "" && err == nil; {
		answer, sendErr := client.Raw(ctx, request)
		call.head(answer, len(seen) > 0)
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
	return exitRefused
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
