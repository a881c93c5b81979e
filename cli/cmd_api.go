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
// app's settings, headers and sign-in, for what `get` does not name; gh
// api's flags with gh's meanings (docs/api.md). The fields are read in
// api_fields.go, the answers printed by cmd_api_output.go, --template is
// api_template.go's and --dry-run api_curl.go's.

// apiFlags are the api command's own flags.
type apiFlags struct {
	method                     string
	methodGiven                bool // -X was given: fields no longer imply POST
	rawFields, fields, headers []string
	input                      string
	include, silent            bool
	paginate, slurp            bool
	jq, template               string
	dryRun, showSecrets        bool
}

// apiCall is one command line made into a request, checked before
// anything is sent.
type apiCall struct {
	request apiclient.RawRequest
	jq      *gojq.Code      // nil without --jq
	output  *answerTemplate // nil without --template
}

const apiHelp = `Send one request to any endpoint of the gateway, with the settings, headers
and sign-in the app uses, and print the answer: byte for byte in a pipe;
indented, coloured and escaped on a terminal. The flags are gh api's, with
gh's meanings; docs/api.md is the reference. --read-only sends only the
interface's reads (exit 2 for the rest).

`

func newAPICommand(std streams) *cobra.Command {
	var given givenFlags
	var a apiFlags
	cmd := &cobra.Command{
		Use:   "api [flags] PATH",
		Short: "Send a request to any gateway endpoint and print its answer",
		Long:  apiHelp + exitCodesHelp,
		Example: `  cardterm api /v1/card/status --jq .status
  cardterm api -X POST /v1/card/freeze --dry-run
  cardterm api /v2/consent/user/USER_ID/audit -f limit=100 --paginate \
      --jq '.auditRecords[].action'
  echo '{"walletIds":["WALLET_ID"]}' |
      cardterm api -X DELETE /v1/wallet/whitelist --input -`,
		Args:              cobra.RangeArgs(1, 2),
		ValidArgsFunction: cobra.NoFileCompletions,
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
			switch {
			case err != nil:
				return err
			case a.dryRun:
				return statusError(printDryRun(o, call, a.showSecrets, std))
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
	fs.StringVarP(&a.template, "template", "t", "", "format the JSON answer with a Go `template` (gh's functions: tablerow, pluck, timeago, ...)")
	fs.BoolVar(&a.dryRun, "dry-run", false, "print the request as a curl command instead of sending it (secrets as $CARDTERM_… variables)")
	fs.BoolVar(&a.showSecrets, "show-secrets", false, "with --dry-run, write the secret key from $"+secretKeyEnv+" instead of its variable")
	given = addSettingFlags(cmd, gatewaySettings)
	fs.SortFlags = false
	_ = cmd.RegisterFlagCompletionFunc("method", cobra.FixedCompletions(
		[]cobra.Completion{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}, cobra.ShellCompDirectiveNoFileComp))
	for _, name := range []string{"raw-field", "header", "jq", "template"} {
		_ = cmd.RegisterFlagCompletionFunc(name, cobra.NoFileCompletions)
	}
	return cmd
}

// refusal is why gh api would refuse these flags together, or "".
func (a apiFlags) refusal(args []string) string {
	outputs := 0
	for _, on := range []bool{a.silent, a.jq != "", a.template != ""} {
		if on {
			outputs++
		}
	}
	switch {
	case a.paginate && a.input != "":
		return "--paginate cannot be used with --input"
	case a.slurp && !a.paginate:
		return "--slurp needs --paginate"
	case a.slurp && (a.jq != "" || a.template != ""):
		return "--slurp cannot be used with --jq or --template"
	case outputs > 1:
		return "only one of --template, --jq or --silent may be used"
	case len(args) == 2 && a.methodGiven:
		return fmt.Sprintf("the method is given twice (-X %s and %s): write api -X METHOD PATH", a.method, args[0])
	}
	return ""
}

// call checks the command line as gh api does and makes the request: the
// method, the path, the fields or the body, the headers and the output's
// filter. Nothing is read from the keyring and nothing is sent yet.
func (a apiFlags) call(args []string, o options, stdin io.Reader) (apiCall, error) {
	if why := a.refusal(args); why != "" {
		return apiCall{}, usageError{why}
	}
	method, path := strings.ToUpper(a.method), args[0]
	if len(args) == 2 { // the old form: api METHOD PATH
		method, path, a.methodGiven = strings.ToUpper(args[0]), args[1], true
	}
	if method == "" || strings.Trim(method, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		return apiCall{}, usageError{fmt.Sprintf("%q is not an HTTP method such as GET, POST, PUT, PATCH or DELETE", method)}
	}
	fields, err := parseFields(a.rawFields, a.fields, stdin)
	if err != nil {
		return apiCall{}, err
	}
	// As gh: a field or a body makes the request a POST unless -X says
	// otherwise; --paginate keeps GET (its pages are read with GET).
	if !a.methodGiven && !a.paginate && (len(fields) > 0 || a.input != "") {
		method = http.MethodPost
	}
	if a.paginate && method != http.MethodGet {
		return apiCall{}, usageError{"--paginate follows the pages of a GET"}
	}
	call := apiCall{request: apiclient.RawRequest{Method: method, Path: path}}
	switch {
	case a.input != "":
		call.request.Body, err = readInput(a.input, stdin)
		call.request.Query = fieldsQuery(fields)
	case method == http.MethodGet:
		call.request.Query = fieldsQuery(fields)
	case len(fields) > 0:
		call.request.Body = mustJSON(fields)
	}
	if err == nil {
		call.request.Header, err = parseHeaders(a.headers)
	}
	if err == nil {
		err = guardAPIRequest(o, call.request)
	}
	if err == nil && a.jq != "" {
		call.jq, err = compileJQ(a.jq)
	}
	if err == nil && a.template != "" {
		call.output, err = parseAnswerTemplate(a.template)
	}
	return call, err
}

// guardAPIRequest refuses, before a secret is read or anyone signs in,
// a path that is not under the gateway and, in read-only mode, anything
// but one of the interface's reads (the client refuses the same again).
func guardAPIRequest(o options, request apiclient.RawRequest) error {
	if err := apiclient.CheckRawPath(request.Path); err != nil {
		return usageError{err.Error()}
	}
	if !o.readOnly {
		return nil
	}
	why := "read-only mode: " + request.Method + " " + request.Path + " carries a body; nothing was sent"
	if request.Body == nil {
		_, why = apiclient.ReadOnlyAllows(request.Method, request.Path+"?"+request.Query.Encode(), request.Header)
	}
	if why != "" {
		return usageError{fmt.Sprintf("%s (--read-only, $%s or the profile)", why, envReadOnly)}
	}
	return nil
}

// readInput reads --input as -F reads @FILE (@- for stdin). The bytes
// are sent as they are: an empty file sends an empty body, not none.
func readInput(name string, stdin io.Reader) ([]byte, error) {
	text, err := typedValue("@"+name, &stdin)
	if err != nil {
		return nil, usageError{fmt.Sprintf("--input %s: %v", name, err)}
	}
	return []byte(text.(string)), nil
}

// parseHeaders reads -H 'Name: value'.
func parseHeaders(lines []string) (http.Header, error) {
	var header http.Header
	for _, line := range lines {
		name, value, ok := strings.Cut(line, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t\r\n") || strings.ContainsAny(value, "\r\n") {
			return nil, usageError{fmt.Sprintf("-H %q: write 'Name: value'", line)}
		}
		if header == nil {
			header = http.Header{}
		}
		header.Add(name, strings.TrimSpace(value))
	}
	return header, nil
}

// mustJSON encodes fields, which hold only strings, numbers, booleans,
// null, arrays and objects of them: it cannot fail.
func mustJSON(v any) []byte {
	data, _ := json.Marshal(v)
	return data
}

// runAPI signs in when the path is a user's (not with -H Authorization),
// sends the call and the pages after it, prints the answers and returns
// the exit code. The secret key is read only for the endpoints it is sent
// to; nothing ever prompts.
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
