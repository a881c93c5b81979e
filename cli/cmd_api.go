package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/itchyny/gojq"
	"github.com/spf13/cobra"

	"cardterm/apiclient"
	"cardterm/ui/sanitize"
)

// `cardterm api [flags] PATH`: any endpoint of the gateway, with the
// app's settings, headers and sign-in, for what `get` does not name. Its
// flags are gh api's, with gh's meanings (docs/api.md): -X, -f/-F with
// nesting, a field implies POST, --input, -H, -i, --silent, --paginate
// with --slurp, --jq and --template. The fields are read in api_fields.go;
// what is printed is cmd_api_output.go's.

// apiFlags are the api command's own flags.
type apiFlags struct {
	method                     string
	methodGiven                bool // -X was given: fields no longer imply POST
	rawFields, fields, headers []string
	input                      string
	include, silent            bool
	paginate, slurp            bool
	jq, template               string
}

// apiCall is one command line made into a request, checked before
// anything is sent.
type apiCall struct {
	request apiclient.RawRequest
	jq      *gojq.Code     // nil without --jq
	output  answerTemplate // zero without --template
}

// httpMethods are the methods completion offers, and the old positional
// form (`api POST /v1/card/freeze`) accepts as its first word.
var httpMethods = []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}

func newAPICommand(std streams) *cobra.Command {
	var given givenFlags
	var a apiFlags
	var dryRun *dryRunFlags
	cmd := &cobra.Command{
		Use:   "api [flags] PATH",
		Short: "Send a request to any gateway endpoint and print its answer",
		Long: `Send one request to any endpoint of the gateway, with the settings, headers and
sign-in the app uses, and print the answer. The flags are gh api's, with gh's
meanings (docs/api.md has the whole reference).

PATH is under the base URL (/v1/user), with a query if you like. The headers the
interface names for that path are added (x-client-key, X-Client-ID on orders,
x-us-env, x-secret-key only where the gateway asks for it); a user's endpoints
sign in as $CARDTERM_USERNAME with $CARDTERM_PASSWORD (on the embedded sandbox,
the first demo user) and sign out after.

The method is GET, or POST once a field or --input is given (--paginate keeps
GET); -X sets it.

Fields: -f key=value is a string; -F key=value is typed: true, false, null and
integers as JSON, @FILE a file's contents (@- stdin), else a string.
key[sub]=value nests an object, key[]=value appends to an array, key[] alone
is an empty array. With GET they are query parameters; otherwise the members of
a JSON body. --input FILE (- for stdin) sends that file as the body, and the
fields then go to the query.

Output: on a terminal JSON is indented and coloured, every control, bidi and
zero-width character escaped; in a pipe the answer is printed byte for byte.
-i adds the status line and headers, --silent prints no body, --jq selects with
a jq expression, --template formats with a Go template (with gh's functions:
color, autocolor, join, pluck, tablerow, tablerender, timeago, timefmt,
truncate, hyperlink). With --paginate, a GET answer's _links.next is followed to
the last page, each page printed (or filtered); --slurp prints the pages as one
JSON array.

An error answer is printed on stdout as the gateway sent it, its message on
stderr, and the exit code says which kind. --read-only (or a read-only profile)
sends only the interface's reads (GET of a documented path, no method override
in a header or a _method parameter) and refuses anything else with exit 2. The old form
api METHOD PATH still works.

` + exitCodesHelp,
		Example: `  cardterm api /v1/user
  cardterm api /v1/card/status --jq .status
  cardterm api -X GET /v2/consent/user/USER_ID/audit -f limit=100 \
      --paginate --jq '.auditRecords[].action'
  cardterm api -X POST /v1/card/freeze
  cardterm api -X POST /v1/card/freeze --dry-run
  cardterm api -X PUT /v1/webhooks/HOOK_ID -F is_active=false \
      -F name=@name.txt
  cardterm api /v1/webhooks -f name=ops \
      -f url=https://hooks.example.com/x -f 'event_types[]=card.frozen'
  echo '{"walletIds":["WALLET_ID"]}' |
      cardterm api -X DELETE /v1/wallet/whitelist --input -
  cardterm api -i /v1/card/status
  cardterm api /v1/user --template \
      '{{.email}} ({{.verificationState}}){{"\n"}}'`,
		Args: cobra.RangeArgs(1, 2),
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return nil, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			a.methodGiven = cmd.Flags().Changed("method")
			o, err := resolveCommandOptions(given, std)
			if err != nil {
				return err
			}
			var stdin io.Reader // -F key=@- and --input - read it; none in tests
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
			return statusError(runAPI(o, call, a, std))
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&a.method, "method", "X", http.MethodGet, "the HTTP `method` (GET, or POST when a field or --input is given)")
	fs.StringArrayVarP(&a.rawFields, "raw-field", "f", nil, "add a string field `key=value` (key[sub]=v nests, key[]=v appends)")
	fs.StringArrayVarP(&a.fields, "field", "F", nil, "add a typed field `key=value`: true, false, null, an integer, @FILE (@- stdin), else a string")
	fs.StringArrayVarP(&a.headers, "header", "H", nil, "add a header `'Name: value'` (it replaces cardterm's own of that name)")
	fs.StringVar(&a.input, "input", "", "send the `file` as the request body (- for stdin); fields then go to the query")
	fs.BoolVarP(&a.include, "include", "i", false, "print the answer's status line and headers before its body")
	fs.BoolVar(&a.silent, "silent", false, "print no answer body")
	fs.BoolVar(&a.paginate, "paginate", false, "follow _links.next to the last page, printing each page (GET)")
	fs.BoolVar(&a.slurp, "slurp", false, "with --paginate, print all pages as one JSON array")
	fs.StringVarP(&a.jq, "jq", "q", "", "print what the jq `expression` selects from the answer (strings unquoted)")
	dryRun = addDryRunFlags(cmd)
	fs.StringVarP(&a.template, "template", "t", "", "format the JSON answer with a Go `template` (gh's functions: color, join, pluck, tablerow, timeago, ...)")
	given = addSettingFlags(cmd, gatewaySettings)
	fs.SortFlags = false
	_ = cmd.RegisterFlagCompletionFunc("method", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return httpMethods, cobra.ShellCompDirectiveNoFileComp
	})
	for _, name := range []string{"raw-field", "header", "jq", "template"} {
		_ = cmd.RegisterFlagCompletionFunc(name, cobra.NoFileCompletions)
	}
	return cmd
}

// checkFlags refuses the combinations gh api refuses.
func (a apiFlags) checkFlags() error {
	switch {
	case a.paginate && a.input != "":
		return usageError{"--paginate cannot be used with --input"}
	case a.slurp && !a.paginate:
		return usageError{"--slurp needs --paginate"}
	case a.slurp && (a.jq != "" || a.template != ""):
		return usageError{"--slurp cannot be used with --jq or --template"}
	}
	given := 0
	for _, on := range []bool{a.silent, a.jq != "", a.template != ""} {
		if on {
			given++
		}
	}
	if given > 1 {
		return usageError{"only one of --template, --jq or --silent may be used"}
	}
	return nil
}

// methodAndPath reads PATH, or the old METHOD PATH.
func (a apiFlags) methodAndPath(args []string) (method string, methodGiven bool, path string, err error) {
	method, methodGiven, path = strings.ToUpper(a.method), a.methodGiven, args[0]
	if len(args) == 2 {
		if methodGiven {
			return "", false, "", usageError{fmt.Sprintf("the method is given twice (-X %s and %s): write api -X METHOD PATH", a.method, args[0])}
		}
		method, methodGiven, path = strings.ToUpper(args[0]), true, args[1]
	}
	if method == "" || strings.IndexFunc(method, func(r rune) bool { return r < 'A' || r > 'Z' }) >= 0 {
		return "", false, "", usageError{fmt.Sprintf("%q is not an HTTP method such as GET, POST, PUT, PATCH or DELETE", method)}
	}
	return method, methodGiven, path, nil
}

// call checks the command line and makes the request: the method, the
// path, the fields or the body, the headers and the output's filter.
func (a apiFlags) call(args []string, o options, stdin io.Reader) (apiCall, error) {
	if err := a.checkFlags(); err != nil {
		return apiCall{}, err
	}
	method, methodGiven, path, err := a.methodAndPath(args)
	if err != nil {
		return apiCall{}, err
	}
	fields, err := parseFields(a.rawFields, a.fields, stdin)
	if err != nil {
		return apiCall{}, err
	}
	// As gh: a field or a body makes the request a POST unless -X says
	// otherwise; --paginate keeps GET (its pages are read with GET).
	if !methodGiven && !a.paginate && (len(fields) > 0 || a.input != "") {
		method = http.MethodPost
	}
	if a.paginate && method != http.MethodGet {
		return apiCall{}, usageError{"--paginate follows the pages of a GET"}
	}
	call := apiCall{request: apiclient.RawRequest{Method: method, Path: path}}
	switch {
	case a.input != "":
		if call.request.Body, err = readInput(a.input, stdin); err != nil {
			return apiCall{}, err
		}
		if len(fields) > 0 {
			call.request.Query = fieldsQuery(fields)
		}
	case len(fields) > 0 && method == http.MethodGet:
		call.request.Query = fieldsQuery(fields)
	case len(fields) > 0:
		call.request.Body = mustJSON(fields)
	}
	if call.request.Header, err = parseHeaders(a.headers); err != nil {
		return apiCall{}, err
	}
	if err := guardAPIRequest(o, call.request); err != nil { // api_guard.go
		return apiCall{}, err
	}
	if a.jq != "" {
		if call.jq, err = compileJQ(a.jq); err != nil {
			return apiCall{}, err
		}
	}
	if a.template != "" {
		if call.output, err = parseAnswerTemplate(a.template); err != nil {
			return apiCall{}, usageError{fmt.Sprintf("--template: %v", err)}
		}
	}
	return call, nil
}

// readInput reads --input: a file, or stdin for "-". The bytes are sent
// as they are (an empty file sends an empty body).
func readInput(name string, stdin io.Reader) ([]byte, error) {
	var data []byte
	var err error
	if name == "-" {
		if stdin == nil {
			return nil, usageError{"--input -: reads stdin, and there is none"}
		}
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return nil, usageError{fmt.Sprintf("--input: %v", err)}
	}
	if data == nil {
		data = []byte{}
	}
	return data, nil
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

// mustJSON encodes fields, which hold only strings, numbers, booleans,
// null, arrays and objects of them: it cannot fail.
func mustJSON(v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return data
}

// runAPI sends the call (and, with --paginate, the pages after it),
// prints the answers and returns the exit code.
func runAPI(o options, call apiCall, a apiFlags, std streams) int {
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
	return sendPages(ctx, client, gw.cfg.BaseURL, call, a, std)
}

// sendPages sends the request, then each next page with --paginate, and
// prints every answer.
func sendPages(ctx context.Context, client *apiclient.Client, baseURL string, call apiCall, a apiFlags, std streams) int {
	out := newAnswerWriter(std.stdout, call, a)
	pages := newPageFollower(baseURL)
	for first := true; ; first = false {
		answer, err := client.Raw(ctx, call.request)
		if !first && a.include {
			out.pageBreak()
		}
		out.head(answer)
		if err != nil {
			// As gh api: the gateway's error answer on stdout, unfiltered.
			out.errorAnswer(answer.Body)
			fmt.Fprintf(std.stderr, "cardterm api: %s %s: %s\n", call.request.Method, sanitize.Text(call.request.Path), sanitize.Text(apiclient.ErrorMessage(err)))
			return exitCodeFor(err)
		}
		if err := out.write(ctx, answer.Body); err != nil {
			fmt.Fprintf(std.stderr, "cardterm api: %v\n", err)
			if ctx.Err() != nil {
				return exitInterrupted // SIGINT or SIGTERM while --jq ran
			}
			return exitRefused
		}
		next, ok, err := pages.next(answer.Body)
		if err != nil && a.paginate {
			fmt.Fprintf(std.stderr, "cardterm api: %s\n", sanitize.Text(err.Error()))
			return exitRefused
		}
		if !a.paginate || !ok {
			if err := out.finish(); err != nil {
				fmt.Fprintf(std.stderr, "cardterm api: %v\n", err)
				return exitRefused
			}
			return exitOK
		}
		call.request = apiclient.RawRequest{Method: call.request.Method, Path: next, Header: call.request.Header}
	}
}
