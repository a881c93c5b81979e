package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"text/template"

	"github.com/itchyny/gojq"
	"github.com/spf13/cobra"

	"cardterm/apiclient"
	"cardterm/apiclient/curlcmd"
	"cardterm/domain/lazy"
	"cardterm/sandbox"
	"cardterm/ui/sanitize"
)

// apiCall is one run: the flags, the request made of them, the printing.
type apiCall struct {
	method                     string
	methodGiven                bool // -X was given: fields no longer imply POST
	rawFields, fields, headers []string
	input, jq, template        string
	include, silent, paginate  bool
	slurp, dryRun, showSecrets bool

	request         apiclient.RawRequest
	jqProgram       *gojq.Code         // nil without --jq
	format          *template.Template // nil without --template
	w               io.Writer
	terminal, color bool              // color: a terminal without NO_COLOR
	slurped         [][]byte          // --slurp's pages, printed after the last
	table           *tabwriter.Writer // tablerow's rows, aligned by tablerender or at the end
}

func newAPICommand(std streams) *cobra.Command {
	var given givenFlags
	var c apiCall
	cmd := &cobra.Command{
		Use:   "api [flags] PATH",
		Short: "Send a request to any gateway endpoint and print its answer",
		Long: "Send one request to any endpoint of the gateway, as the app would, and\n" +
			"print the answer. The flags are gh api's, with gh's meanings: docs/api.md.\n\n" + exitCodesHelp,
		Example: `  cardterm api /v1/card/status --jq .status
  cardterm api -X POST /v1/card/freeze --dry-run
  cardterm api /v2/consent/user/USER_ID/audit -f limit=100 --paginate \
      --jq '.auditRecords[].action'
  echo '{"walletIds":["WALLET_ID"]}' |
      cardterm api -X DELETE /v1/wallet/whitelist --input -`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			c.methodGiven = cmd.Flags().Changed("method")
			o, err := resolveCommandOptions(given, std)
			if err != nil {
				return err
			}
			if err := c.prepare(args, o, std.stdin); err != nil {
				return err
			} else if c.dryRun {
				return statusError(printDryRun(o, &c, std))
			}
			return statusError(runAPI(o, &c, std))
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&c.method, "method", "X", http.MethodGet, "the HTTP `method` (GET, or POST when a field or --input is given)")
	fs.StringArrayVarP(&c.rawFields, "raw-field", "f", nil, "add a string field `key=value` (key[sub]=v nests, key[]=v appends)")
	fs.StringArrayVarP(&c.fields, "field", "F", nil, "add a typed field `key=value`: true, false, null, an integer, @FILE (@- stdin), else a string")
	fs.StringArrayVarP(&c.headers, "header", "H", nil, "add a header `'Name: value'` (it replaces cardterm's own of that name)")
	fs.StringVar(&c.input, "input", "", "send the `file` as the request body (- for stdin); fields then go to the query")
	fs.BoolVarP(&c.include, "include", "i", false, "print the answer's status line and headers before its body")
	fs.BoolVar(&c.silent, "silent", false, "print no answer body")
	fs.BoolVar(&c.paginate, "paginate", false, "follow _links.next to the last page, printing each page (GET)")
	fs.BoolVar(&c.slurp, "slurp", false, "with --paginate, print all pages as one JSON array")
	fs.StringVarP(&c.jq, "jq", "q", "", "print what the jq `expression` selects from the answer (strings unquoted)")
	fs.StringVarP(&c.template, "template", "t", "", "format the JSON answer with a Go `template` (gh's functions: tablerow, pluck, timeago, ...)")
	fs.BoolVar(&c.dryRun, "dry-run", false, "print the request as a curl command instead of sending it (secrets as $CARDTERM_… variables)")
	fs.BoolVar(&c.showSecrets, "show-secrets", false, "with --dry-run, write the secret key from $"+secretKeyEnv+" instead of its variable")
	given = addSettingFlags(cmd, gatewaySettings)
	fs.SortFlags = false
	_ = cmd.RegisterFlagCompletionFunc("method", cobra.FixedCompletions( // the other flags: completeFlagValues
		[]cobra.Completion{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

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
		_, signOut, err := signIn(ctx, client, gw, method+" "+path)
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

// refusal is why gh api would refuse these flags with this method, or "".
func (c *apiCall) refusal(args []string, method string) string {
	filtered := c.jq != "" || c.template != ""
	switch {
	case c.paginate && c.input != "":
		return "--paginate cannot be used with --input"
	case c.slurp && !c.paginate:
		return "--slurp needs --paginate"
	case c.slurp && filtered:
		return "--slurp cannot be used with --jq or --template"
	case c.jq != "" && c.template != "" || c.silent && filtered:
		return "only one of --template, --jq or --silent may be used"
	case len(args) == 2 && c.methodGiven:
		return fmt.Sprintf("the method is given twice (-X %s and %s): write api -X METHOD PATH", c.method, args[0])
	case method == "" || strings.Trim(method, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "":
		return fmt.Sprintf("%q is not an HTTP method such as GET, POST, PUT, PATCH or DELETE", method)
	case c.paginate && method != http.MethodGet:
		return "--paginate follows the pages of a GET"
	}
	return ""
}

// prepare refuses what it can before a secret is read or anyone signs in.
func (c *apiCall) prepare(args []string, o options, stdin io.Reader) error {
	method, path := strings.ToUpper(c.method), args[0]
	if len(args) == 2 { // the old form: api METHOD PATH
		method, path = strings.ToUpper(args[0]), args[1]
	}
	if why := c.refusal(args, method); why != "" {
		return usageError{why}
	}
	body, query, err := parseFields(c.rawFields, c.fields, stdin)
	if err != nil {
		return err
	}
	if !c.methodGiven && len(args) == 1 && !c.paginate && (len(body) > 0 || c.input != "") {
		method = http.MethodPost // as gh; --paginate reads its pages with GET
	}
	c.request = apiclient.RawRequest{Method: method, Path: path}
	if c.input != "" || method == http.MethodGet {
		c.request.Query = query
	} else if len(body) > 0 {
		c.request.Body, _ = json.Marshal(body) // it holds only what JSON encodes
	}
	if c.input != "" { // read as -F @FILE; an empty file sends an empty body
		if c.request.Body, err = readFieldFile(c.input, &stdin); err != nil {
			return usageError{fmt.Sprintf("--input %s: %v", c.input, err)}
		}
	}
	if c.request.Header, err = parseHeaders(c.headers); err == nil {
		err = guardAPIRequest(o, c.request)
	}
	if err == nil && c.jq != "" {
		c.jqProgram, err = compileJQ(c.jq)
	}
	if err == nil && c.template != "" {
		err = c.parseTemplate()
	}
	return err
}

func guardAPIRequest(o options, request apiclient.RawRequest) error {
	if err := apiclient.CheckRawPath(request.Path); err != nil {
		return usageError{err.Error()}
	}
	why := ""
	if o.readOnly && request.Body != nil {
		why = "read-only mode: " + request.Method + " " + request.Path + " carries a body; nothing was sent"
	} else if o.readOnly {
		_, why = apiclient.ReadOnlyAllows(request.Method, request.Path+"?"+request.Query.Encode(), request.Header)
	}
	if why == "" {
		return nil
	}
	return usageError{fmt.Sprintf("%s (--read-only, $%s or the profile)", why, envReadOnly)}
}

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

// fieldKey is gh's: a name, then bracketed keys ([sub] or []).
var fieldKey = lazy.Regexp{Pattern: `^[^\[\]]+(\[[^\[\]]*\])*$`}

// parseFields reads all -f before the -F, as gh; the first @- reads stdin.
func parseFields(raw, typed []string, stdin io.Reader) (map[string]any, url.Values, error) {
	body, query := map[string]any{}, url.Values{}
	for i, field := range slices.Concat(raw, typed) {
		flag := "-f"
		if i >= len(raw) {
			flag = "-F"
		}
		name, text, hasValue := strings.Cut(field, "=")
		var value any = text
		var err error
		switch {
		case !fieldKey.Get().MatchString(name):
			err = errors.New("write key=value (key[sub]=value nests, key[]=value appends)")
		case !hasValue && !strings.HasSuffix(name, "[]"):
			err = errors.New("a field needs a value after '=' (only key[] stands alone, for an empty array)")
		case flag == "-F" && hasValue:
			value, err = typedValue(text, &stdin)
		}
		if err == nil { // "a[b][]" is the keys a, b and "" (an array): "a[b[" split at "["
			err = putField(body, strings.Split(strings.ReplaceAll(strings.TrimSuffix(name, "]"), "][", "["), "["), value, hasValue)
		}
		if err != nil {
			return nil, nil, usageError{fmt.Sprintf("%s %q: %v", flag, field, err)}
		}
		if hasValue { // the query keeps the key as written: a[]=1, a[b]=2
			query.Add(name, valueText(value))
		}
	}
	return body, query, nil
}

// putField nests as gh: an object for each [sub], an array for each [].
func putField(object map[string]any, keys []string, value any, hasValue bool) error {
	key, rest := keys[0], keys[1:]
	existing, exists := object[key]
	inner, isObject := existing.(map[string]any)
	list, isList := existing.([]any)
	switch {
	case len(rest) == 0 && exists:
		return fmt.Errorf("%q is given twice", key)
	case len(rest) == 0:
		object[key] = value
	case rest[0] != "" && exists && !isObject:
		return fmt.Errorf("%q is not an object here", key)
	case rest[0] != "": // key[sub]
		if !exists {
			inner = map[string]any{}
			object[key] = inner
		}
		return putField(inner, rest, value, hasValue)
	case exists && !isList:
		return fmt.Errorf("%q is not an array here", key)
	case len(rest) > 1: // key[][sub]: as gh, the last object while it lacks sub (or sub is an array)
		var last map[string]any
		if len(list) > 0 {
			last, _ = list[len(list)-1].(map[string]any)
		}
		held, taken := last[rest[1]]
		if _, heldList := held.([]any); last == nil || taken && !heldList {
			last = map[string]any{}
			object[key] = append(list, last)
		}
		return putField(last, rest[1:], value, hasValue)
	case hasValue:
		object[key] = append(list, value)
	case !exists: // key[] alone: an empty array
		object[key] = []any{}
	}
	return nil
}

func typedValue(text string, stdin *io.Reader) (any, error) {
	switch n, err := strconv.Atoi(text); {
	case err == nil:
		return n, nil
	case text == "true" || text == "false":
		return text == "true", nil
	case text == "null":
		return nil, nil
	case strings.HasPrefix(text, "@"):
		data, err := readFieldFile(text[1:], stdin)
		return string(data), err
	}
	return text, nil
}

// readFieldFile reads @FILE's or --input's file; "-" is stdin, once.
func readFieldFile(name string, stdin *io.Reader) ([]byte, error) {
	if name != "-" {
		return os.ReadFile(name)
	}
	if *stdin == nil || *stdin == (*os.File)(nil) { // Run was given no stdin
		return nil, errors.New("@- reads stdin, and it is not there or was read before")
	}
	data, err := io.ReadAll(*stdin)
	*stdin = nil
	return data, err
}
