package cli

import (
	"cmp"
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
	"cardterm/apiclient/curlcmd"
	"cardterm/sandbox"
	"cardterm/ui/sanitize"
)

// `cardterm api [flags] PATH`: any endpoint, with gh api's flags and
// meanings. docs/api.md is the reference; this file reads the command
// line into a request and sends it, or prints it as curl (--dry-run).

// apiFlags are the api command's own flags.
type apiFlags struct {
	method                     string
	methodGiven                bool // -X or api METHOD PATH: fields no longer imply POST
	rawFields, fields, headers []string
	input, jq, template        string
	include, silent, paginate  bool
	slurp, dryRun, showSecrets bool
}

// apiCall is one command line made into a request, checked before
// anything is sent.
type apiCall struct {
	request apiclient.RawRequest
	jq      *gojq.Code      // nil without --jq
	output  *answerTemplate // nil without --template
}

func newAPICommand(std streams) *cobra.Command {
	var given givenFlags
	var a apiFlags
	cmd := &cobra.Command{
		Use:   "api [flags] PATH",
		Short: "Send a request to any gateway endpoint and print its answer",
		Long: `Send one request to any endpoint of the gateway, with the app's settings,
headers and sign-in, and print the answer. The flags are gh api's, with gh's
meanings; docs/api.md is the reference.

` + exitCodesHelp,
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
			var stdin io.Reader // stays nil, not a nil *os.File, without one
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

// refusal is why gh api would refuse these flags with this method, or "".
func (a apiFlags) refusal(args []string, method string) string {
	filtered := a.jq != "" || a.template != ""
	switch {
	case a.paginate && a.input != "":
		return "--paginate cannot be used with --input"
	case a.slurp && !a.paginate:
		return "--slurp needs --paginate"
	case a.slurp && filtered:
		return "--slurp cannot be used with --jq or --template"
	case a.jq != "" && a.template != "" || a.silent && filtered:
		return "only one of --template, --jq or --silent may be used"
	case len(args) == 2 && a.methodGiven:
		return fmt.Sprintf("the method is given twice (-X %s and %s): write api -X METHOD PATH", a.method, args[0])
	case method == "" || strings.Trim(method, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "":
		return fmt.Sprintf("%q is not an HTTP method such as GET, POST, PUT, PATCH or DELETE", method)
	case a.paginate && method != http.MethodGet:
		return "--paginate follows the pages of a GET"
	}
	return ""
}

// call makes the command line into a request as gh api does; nothing is
// read from the keyring and nothing is sent yet.
func (a apiFlags) call(args []string, o options, stdin io.Reader) (apiCall, error) {
	method, path := a.method, args[0]
	if len(args) == 2 { // the old form: api METHOD PATH
		method, path = args[0], args[1]
	}
	method = strings.ToUpper(method)
	if why := a.refusal(args, method); why != "" {
		return apiCall{}, usageError{why}
	}
	fields, err := parseFields(a.rawFields, a.fields, stdin)
	if err != nil {
		return apiCall{}, err
	}
	// As gh, a field or a body makes a POST; --paginate reads with GET.
	if !a.methodGiven && len(args) == 1 && !a.paginate && (len(fields) > 0 || a.input != "") {
		method = http.MethodPost
	}
	call := apiCall{request: apiclient.RawRequest{Method: method, Path: path}}
	if a.input != "" || method == http.MethodGet {
		call.request.Query = fieldsQuery(fields)
	} else if len(fields) > 0 {
		call.request.Body = mustJSON(fields)
	}
	if a.input != "" { // as -F @FILE reads; an empty file sends an empty body
		var body string
		if body, err = readFieldFile(a.input, &stdin); err != nil {
			return apiCall{}, usageError{fmt.Sprintf("--input %s: %v", a.input, err)}
		}
		call.request.Body = []byte(body)
	}
	if call.request.Header, err = parseHeaders(a.headers); err == nil {
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

// guardAPIRequest refuses, before a secret is read or anyone signs in, a
// path off the gateway and, read-only, all but the interface's reads.
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
	if why == "" {
		return nil
	}
	return usageError{fmt.Sprintf("%s (--read-only, $%s or the profile)", why, envReadOnly)}
}

// mustJSON encodes fields, which hold nothing JSON cannot encode.
func mustJSON(v any) []byte {
	data, _ := json.Marshal(v)
	return data
}

// parseHeaders reads -H 'Name: value'.
func parseHeaders(lines []string) (http.Header, error) {
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

// runAPI signs in when the path is a user's (not with -H Authorization),
// sends the call and prints the answers; the secret key is read only for
// the endpoints it goes to, and nothing prompts.
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

// printDryRun prints call as the app's copy as curl writes it, and on
// stderr the variables it needs. Nothing is sent and nobody signs in;
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
	cfg.SecretKey = ""
	if showSecrets {
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
