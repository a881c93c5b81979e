// Package curlcmd writes a request as a curl command a shell runs as it
// is: the one rendering behind the app's copy as curl (a confirmation, the
// inspector) and `cardterm api --dry-run`. Secrets appear as shell
// variables ($CARDTERM_SECRET_KEY, $CARDTERM_ACCESS_TOKEN, ...) unless
// the caller asks for their values. It imports nothing of cardterm.
package curlcmd

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
)

// The variables secrets are written as.
const (
	SecretKeyVariable   = "CARDTERM_SECRET_KEY"
	AccessTokenVariable = "CARDTERM_ACCESS_TOKEN"
	PasswordVariable    = "CARDTERM_PASSWORD"
	RefreshVariable     = "CARDTERM_REFRESH_TOKEN"
)

// Options says how to write the command.
type Options struct {
	// Reveal writes the secrets' values instead of variables.
	Reveal bool
	// NeedsToken adds `Authorization: Bearer $CARDTERM_ACCESS_TOKEN` when
	// the request carries no token (nobody signed in yet); NeedsSecretKey
	// adds x-secret-key likewise.
	NeedsToken, NeedsSecretKey bool
}

// Command is req (its body given apart, as it was read) as a curl command,
// one option a line, and the variables it needs set, in order.
func Command(req *http.Request, body []byte, o Options) (command string, variables []string) {
	var lines []string
	add := func(s string) { lines = append(lines, s) }
	add("curl --silent --show-error --compressed")
	if req.Method != http.MethodGet || len(body) > 0 {
		add("--request " + req.Method)
	}
	add(quote(req.URL.String()))
	need := func(v string) {
		if !slices.Contains(variables, v) {
			variables = append(variables, v)
		}
	}
	names := make([]string, 0, len(req.Header))
	for name := range req.Header {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		lower := strings.ToLower(name)
		switch lower {
		case "accept-encoding", "user-agent", "content-length":
			continue // --compressed asks for gzip; curl names itself
		}
		for _, value := range req.Header[name] {
			switch {
			case lower == "authorization" && !o.Reveal && strings.HasPrefix(value, "Bearer "):
				need(AccessTokenVariable)
				add(`--header "Authorization: Bearer $` + AccessTokenVariable + `"`)
			case lower == "x-secret-key" && !o.Reveal:
				need(SecretKeyVariable)
				add(`--header "x-secret-key: $` + SecretKeyVariable + `"`)
			default:
				add("--header " + quote(name+": "+value))
			}
		}
	}
	if o.NeedsToken && req.Header.Get("Authorization") == "" {
		need(AccessTokenVariable)
		add(`--header "Authorization: Bearer $` + AccessTokenVariable + `"`)
	}
	if o.NeedsSecretKey && req.Header.Get("x-secret-key") == "" {
		need(SecretKeyVariable)
		add(`--header "x-secret-key: $` + SecretKeyVariable + `"`)
	}
	if len(body) > 0 {
		data, bodyVariables := bodyWithVariables(body, o.Reveal)
		for _, v := range bodyVariables {
			need(v)
		}
		add("--data-raw " + data)
	}
	return strings.Join(lines, " \\\n  "), variables
}

// secretMembers are the body members written as variables.
var secretMembers = map[string]string{"password": PasswordVariable, "refresh_token": RefreshVariable}

// bodyWithVariables quotes the body for the shell; the values of secret
// members become "'"$VARIABLE"'" splices, so the shell puts them in.
func bodyWithVariables(body []byte, reveal bool) (string, []string) {
	var members map[string]json.RawMessage
	if reveal || json.Unmarshal(body, &members) != nil {
		return quote(string(body)), nil
	}
	var used []string
	text := string(body)
	for name, variable := range secretMembers {
		raw, ok := members[name]
		if !ok || len(raw) < 2 || raw[0] != '"' {
			continue
		}
		key, _ := json.Marshal(name)
		i := strings.Index(text, string(key))
		if i < 0 {
			continue
		}
		j := strings.Index(text[i:], string(raw))
		if j < 0 {
			continue
		}
		at := i + j
		text = text[:at] + "\"\x00" + variable + "\x00\"" + text[at+len(raw):]
		used = append(used, variable)
	}
	quoted := quote(text)
	for _, v := range used {
		quoted = strings.Replace(quoted, "\x00"+v+"\x00", `'"$`+v+`"'`, 1)
	}
	slices.Sort(used)
	return quoted, used
}

// quote is s in single quotes, each ' written '\”.
func quote(s string) string {
	var b bytes.Buffer
	b.WriteByte('\'')
	b.WriteString(strings.ReplaceAll(s, "'", `'\''`))
	b.WriteByte('\'')
	return b.String()
}
