package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/itchyny/gojq"
	"github.com/spf13/cobra"

	"cardterm/apiclient"
	"cardterm/ui/sanitize"
)

// `cardterm api [METHOD] PATH`: any endpoint of the gateway, with the
// app's settings, headers and sign-in, for what `get` does not name (as
// `gh api` is for GitHub). The answer is printed as the gateway sent it.

// apiFlags are the api command's own flags.
type apiFlags struct {
	rawFields, fields, headers []string
	paginate                   bool
	jq                         string
}

// apiCall is one command line made into a request, checked before
// anything is sent.
type apiCall struct {
	request apiclient.RawRequest
	jq      *gojq.Code // nil without --jq
}

func newAPICommand(std streams) *cobra.Command {
	var given givenFlags
	var a apiFlags
	var dryRun *dryRunFlags
	cmd := &cobra.Command{
		Use:   "api [METHOD] PATH",
		Short: "Send a request to any gateway endpoint and print its answer",
		Long: `Send one request to any endpoint of the gateway, with the settings, headers and
sign-in the app uses, and print the answer as the gateway sent it: byte for byte
when stdout is not a terminal; on a terminal, JSON indented, with every control,
bidi and zero-width character escaped.

METHOD is GET unless given. PATH is under the base URL (/v1/user), with a query if
you like. The headers the interface names for that path are added (x-client-key,
X-Client-ID on orders, x-us-env, x-secret-key only where the gateway asks for it);
a user's endpoints sign in as $CARDTERM_USERNAME with $CARDTERM_PASSWORD (on the
embedded sandbox, the first demo user) and sign out after.

Fields: with GET they are query parameters; otherwise the members of a JSON body.
-f key=value is a string; -F key=value is true, false, null or a number as JSON,
the contents of a file with key=@FILE (@- for stdin), else a string.

With --paginate, a GET answer's _links.next is followed to the last page (the
consent audit trail pages so); each page is printed, or filtered by --jq.

An error answer is printed on stdout as the gateway sent it, its message on
stderr, and the exit code says which kind. --read-only (or a read-only profile)
sends only the interface's reads (GET of a documented path, no method override
in a header or a _method parameter) and refuses anything else with exit 2.

` + exitCodesHelp,
		Example: `  cardterm api /v1/user
  cardterm api /v1/card/status --jq .status
  cardterm api GET /v2/consent/user/6f1c2d.../audit -f limit=100 --paginate --jq '.auditRecords[].action'
  cardterm api POST /v1/card/freeze
  cardterm api POST /v1/card/freeze --dry-run     # the curl command, sent nowhere
  cardterm api PUT /v1/webhooks/0b7e... -F is_active=false -F name=@name.txt
  cardterm api /v1/wallet/whitelist -f currency=usdc -H 'x-us-env: true' --profile acme`,
		Args: cobra.RangeArgs(1, 2),
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if len(args) == 0 {
				return []cobra.Completion{"GET", "POST", "PUT", "PATCH", "DELETE"}, cobra.ShellCompDirectiveNoFileComp
			}
			return nil, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o, err := resolveCommandOptions(given, std)
			if err != nil {
				return err
			}
			var stdin io.Reader // -F key=@- reads it; none in tests
			if std.stdin != nil {
				stdin = std.stdin
			}
			call, err := a.call(args, o, stdin)
			if err != nil {
				return err
			}
			if dryRun.on {
				return statusError(printDryRun(o, call, dryRun, std))
			}
			return statusError(runAPI(o, call, a.paginate, std))
		},
	}
	fs := cmd.Flags()
	fs.StringArrayVarP(&a.rawFields, "raw-field", "f", nil, "add a string field `key=value` (GET: a query parameter; else a member of the JSON body)")
	fs.StringArrayVarP(&a.fields, "field", "F", nil, "add a typed field `key=value`: true, false, null, a number, @FILE for a file's contents (@- for stdin), else a string")
	fs.StringArrayVarP(&a.headers, "header", "H", nil, "add a header `'Name: value'` (it replaces cardterm's own of that name)")
	fs.BoolVar(&a.paginate, "paginate", false, "follow _links.next to the last page, printing each page (GET)")
	fs.StringVarP(&a.jq, "jq", "q", "", "print what the jq `expression` selects from the answer (strings unquoted)")
	dryRun = addDryRunFlags(cmd)
	given = addSettingFlags(cmd, gatewaySettings)
	fs.SortFlags = false
	for _, name := range []string{"raw-field", "header", "jq"} {
		_ = cmd.RegisterFlagCompletionFunc(name, cobra.NoFileCompletions)
	}
	return cmd
}

// call checks the command line and makes the request: the method, the
// path, the fields, the headers and the jq expression.
func (a apiFlags) call(args []string, o options, stdin io.Reader) (apiCall, error) {
	method, path := http.MethodGet, args[0]
	if len(args) == 2 {
		method, path = strings.ToUpper(args[0]), args[1]
	}
	if method == "" || strings.IndexFunc(method, func(r rune) bool { return r < 'A' || r > 'Z' }) >= 0 {
		return apiCall{}, usageError{fmt.Sprintf("%q is not an HTTP method such as GET, POST, PUT, PATCH or DELETE", args[0])}
	}
	if a.paginate && method != http.MethodGet {
		return apiCall{}, usageError{"--paginate follows the pages of a GET"}
	}
	call := apiCall{request: apiclient.RawRequest{Method: method, Path: path}}
	fields, err := a.fieldValues(stdin)
	if err != nil {
		return apiCall{}, err
	}
	if len(fields) > 0 {
		if method == http.MethodGet {
			call.request.Query = url.Values{}
			for key, value := range fields {
				text, ok := value.(string)
				if !ok {
					text = string(mustJSON(value))
				}
				call.request.Query.Add(key, text)
			}
		} else {
			call.request.Body = mustJSON(fields)
		}
	}
	if call.request.Header, err = parseHeaders(a.headers); err != nil {
		return apiCall{}, err
	}
	if err := guardAPIRequest(o, call.request); err != nil { // api_guard.go
		return apiCall{}, err
	}
	if a.jq != "" {
		query, err := gojq.Parse(a.jq)
		if err != nil {
			return apiCall{}, usageError{fmt.Sprintf("--jq %q: %v", a.jq, err)}
		}
		if call.jq, err = gojq.Compile(query); err != nil {
			return apiCall{}, usageError{fmt.Sprintf("--jq %q: %v", a.jq, err)}
		}
	}
	return call, nil
}

// fieldValues reads -f and -F into the members of a JSON object.
func (a apiFlags) fieldValues(stdin io.Reader) (map[string]any, error) {
	fields := map[string]any{}
	for _, field := range a.rawFields {
		key, value, ok := strings.Cut(field, "=")
		if !ok || key == "" {
			return nil, usageError{fmt.Sprintf("-f %q: write key=value", field)}
		}
		fields[key] = value
	}
	for _, field := range a.fields {
		key, value, ok := strings.Cut(field, "=")
		if !ok || key == "" {
			return nil, usageError{fmt.Sprintf("-F %q: write key=value", field)}
		}
		typed, err := typedField(value, stdin)
		if err != nil {
			return nil, usageError{fmt.Sprintf("-F %s: %v", key, err)}
		}
		fields[key] = typed
	}
	return fields, nil
}

// typedField is -F's value: a file's contents (@FILE, @- for stdin),
// true, false, null or a number as JSON, else the string.
func typedField(value string, stdin io.Reader) (any, error) {
	switch {
	case value == "@-":
		if stdin == nil {
			return nil, errors.New("@- reads stdin, and there is none")
		}
		data, err := io.ReadAll(stdin)
		return string(data), err
	case strings.HasPrefix(value, "@"):
		data, err := os.ReadFile(value[1:])
		if err != nil {
			return nil, err
		}
		return string(data), nil
	case value == "true", value == "false":
		return value == "true", nil
	case value == "null":
		return nil, nil
	}
	if _, err := strconv.ParseFloat(value, 64); err == nil && json.Valid([]byte(value)) {
		return json.Number(value), nil
	}
	return value, nil
}

// parseHeaders reads -H 'Name: value'.
func parseHeaders(lines []string) (http.Header, error) {
	if len(lines) == 0 {
		return nil, nil
	}
	header := http.Header{}
	for _, line := range lines {
		name, value, ok := strings.Cut(line, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t\r\n") || strings.ContainsAny(value, "\r\n") {
			return nil, usageError{fmt.Sprintf("-H %q: write 'Name: value'", line)}
		}
		header.Add(name, strings.TrimSpace(value))
	}
	return header, nil
}

// mustJSON encodes fields, which hold only strings, numbers, booleans and
// null: it cannot fail.
func mustJSON(v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return data
}

// runAPI sends the call (and, with paginate, the pages after it), prints
// the answers and returns the exit code.
func runAPI(o options, call apiCall, paginate bool, std streams) int {
	method, path := call.request.Method, call.request.Path
	// The secret key is read (from the environment or the keyring) only
	// for the endpoints it is sent to; nothing ever prompts for it.
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
		user, pass, err := signInUser(gw)
		if err == nil && user == "" {
			err = usageError{fmt.Sprintf("%s %s is a user's endpoint: set CARDTERM_USERNAME and CARDTERM_PASSWORD (or give -H 'Authorization: Bearer …')", method, path)}
		}
		if err != nil {
			fmt.Fprintln(std.stderr, "cardterm api:", sanitize.Text(lookupMessage(err)))
			return exitCodeFor(err)
		}
		if _, err := client.Login(ctx, user, pass); err != nil {
			fmt.Fprintf(std.stderr, "cardterm api: sign-in: %s\n", sanitize.Text(apiclient.ErrorMessage(err)))
			return exitCodeFor(err)
		}
		defer func() { _ = client.Logout(context.Background()) }()
	}

	out := answerWriter{w: std.stdout, terminal: isTerminal(std.stdout), jq: call.jq}
	pages := newPageFollower(gw.cfg.BaseURL)
	for {
		answer, err := client.Raw(ctx, call.request)
		if err != nil {
			if len(answer.Body) > 0 {
				// As gh api: the gateway's error answer on stdout, unfiltered.
				_ = out.raw(answer.Body)
			}
			fmt.Fprintf(std.stderr, "cardterm api: %s %s: %s\n", method, sanitize.Text(call.request.Path), sanitize.Text(apiclient.ErrorMessage(err)))
			return exitCodeFor(err)
		}
		if err := out.write(ctx, answer.Body); err != nil {
			fmt.Fprintf(std.stderr, "cardterm api: %v\n", err)
			if ctx.Err() != nil {
				return exitInterrupted // SIGINT or SIGTERM while --jq ran
			}
			return exitRefused
		}
		if !paginate {
			return exitOK
		}
		next, ok, err := pages.next(answer.Body)
		if err != nil {
			fmt.Fprintf(std.stderr, "cardterm api: %s\n", sanitize.Text(err.Error()))
			return exitRefused
		}
		if !ok {
			return exitOK
		}
		call.request = apiclient.RawRequest{Method: method, Path: next, Header: call.request.Header}
	}
}
