package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/itchyny/gojq"
	"github.com/spf13/cobra"

	"cardterm/apiclient"
)

// apiFlags are the api command's own flags.
type apiFlags struct {
	method                     string
	methodGiven                bool // -X was given: fields no longer imply POST
	rawFields, fields, headers []string
	input, jq, template        string
	include, silent, paginate  bool
	slurp, dryRun, showSecrets bool
}

// apiCall is the command line made into a request, checked, not yet sent.
type apiCall struct {
	request apiclient.RawRequest
	jq      *gojq.Code      // nil without --jq
	output  *answerTemplate // nil without --template
}

// newAPICommand is `cardterm api`: any endpoint, with gh api's flags and
// meanings (docs/api.md).
func newAPICommand(std streams) *cobra.Command {
	var given givenFlags
	var a apiFlags
	cmd := &cobra.Command{
		Use:   "api [flags] PATH",
		Short: "Send a request to any gateway endpoint and print its answer",
		Long: `Send one request to any endpoint of the gateway, as the app would, and
print the answer. The flags are gh api's, with gh's meanings: docs/api.md.

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
			if err != nil {
				return err
			} else if a.dryRun {
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

// call makes the command line into a request as gh api does.
func (a apiFlags) call(args []string, o options, stdin io.Reader) (apiCall, error) {
	method, path := strings.ToUpper(a.method), args[0]
	if len(args) == 2 { // the old form: api METHOD PATH
		method, path = strings.ToUpper(args[0]), args[1]
	}
	if why := a.refusal(args, method); why != "" {
		return apiCall{}, usageError{why}
	}
	fields, err := parseFields(a.rawFields, a.fields, stdin)
	if err != nil {
		return apiCall{}, err
	}
	if !a.methodGiven && len(args) == 1 && !a.paginate && (len(fields) > 0 || a.input != "") {
		method = http.MethodPost // as gh; --paginate reads its pages with GET
	}
	call := apiCall{request: apiclient.RawRequest{Method: method, Path: path}}
	if a.input != "" || method == http.MethodGet {
		call.request.Query = fieldsQuery(fields)
	} else if len(fields) > 0 {
		call.request.Body = mustJSON(fields)
	}
	if a.input != "" { // read as -F @FILE; an empty file sends an empty body
		body, err := readFieldFile(a.input, &stdin)
		if err != nil {
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

// fieldKey is -f and -F's key, nested as gh api nests it (docs/api.md):
// a name, then bracketed keys ([sub] or []).
var fieldKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[^\[\]]+(\[[^\[\]]*\])*$`) })

// parseFields builds the JSON object of the raw (-f) and typed (-F)
// fields, all -f before the -F as gh; stdin is read by the first @-.
func parseFields(raw, typed []string, stdin io.Reader) (map[string]any, error) {
	params := map[string]any{}
	for i, field := range append(slices.Clone(raw), typed...) {
		flag, isTyped := "-f", i >= len(raw)
		if isTyped {
			flag = "-F"
		}
		name, text, hasValue := strings.Cut(field, "=")
		var value any = text
		var err error
		switch {
		case !fieldKey().MatchString(name):
			err = errors.New("write key=value (key[sub]=value nests, key[]=value appends)")
		case !hasValue && !strings.HasSuffix(name, "[]"):
			err = errors.New("a field needs a value after '=' (only key[] stands alone, for an empty array)")
		case isTyped && hasValue:
			value, err = typedValue(text, &stdin)
		}
		if err == nil { // "a[b][]" is the keys a, b and "" (an array): "a[b[" split at "["
			err = putField(params, strings.Split(strings.ReplaceAll(strings.TrimSuffix(name, "]"), "][", "["), "["), value, hasValue)
		}
		if err != nil {
			return nil, usageError{fmt.Sprintf("%s %q: %v", flag, field, err)}
		}
	}
	return params, nil
}

// putField puts value at keys[0], under the keys after it: an object for
// each [sub], an array for each [].
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

// typedValue is -F's value: @FILE's contents, an integer, true, false or
// null as JSON, else the text itself.
func typedValue(text string, stdin *io.Reader) (any, error) {
	switch n, err := strconv.Atoi(text); {
	case err == nil:
		return n, nil
	case text == "true" || text == "false":
		return text == "true", nil
	case text == "null":
		return nil, nil
	case strings.HasPrefix(text, "@"):
		return readFieldFile(text[1:], stdin)
	}
	return text, nil
}

// readFieldFile reads @FILE's or --input's file; "-" is stdin, once.
func readFieldFile(name string, stdin *io.Reader) (string, error) {
	if name != "-" {
		data, err := os.ReadFile(name)
		return string(data), err
	}
	if *stdin == nil {
		return "", errors.New("@- reads stdin, and it is not there or was read before")
	}
	data, err := io.ReadAll(*stdin)
	*stdin = nil
	return string(data), err
}

// fieldsQuery makes fields into query parameters: scalars as text (null
// as empty), arrays as key[]=v, objects as key[sub]=v (Encode sorts them).
func fieldsQuery(fields map[string]any) url.Values {
	query := url.Values{}
	var add func(key string, value any)
	add = func(key string, value any) {
		switch v := value.(type) {
		case map[string]any:
			for name, member := range v {
				add(key+"["+name+"]", member)
			}
		case []any:
			for _, item := range v {
				add(key+"[]", item)
			}
		case nil:
			query.Add(key, "")
		default:
			query.Add(key, fmt.Sprint(v))
		}
	}
	for key, value := range fields {
		add(key, value)
	}
	return query
}
