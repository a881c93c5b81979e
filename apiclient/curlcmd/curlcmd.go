// Package curlcmd writes a request as a curl command a shell runs as it
// is: the one rendering behind the app's copy as curl (a confirmation, the
// inspector) and `cardterm api --dry-run`. Secrets appear as shell
// variables ($CARDTERM_SECRET_KEY, $CARDTERM_ACCESS_TOKEN, ...) unless
// the caller asks for their values. Every word is quoted so that bash,
// zsh, dash and fish read it alike (Quote). It imports nothing of cardterm.
package curlcmd

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The variables secrets are written as.
const (
	SecretKeyVariable   = "CARDTERM_SECRET_KEY"
	AccessTokenVariable = "CARDTERM_ACCESS_TOKEN"
	PasswordVariable    = "CARDTERM_PASSWORD"
	RefreshVariable     = "CARDTERM_REFRESH_TOKEN"
	// BodyFileVariable names a file holding the body, for a body with a
	// NUL byte: no shell word can carry one.
	BodyFileVariable = "CARDTERM_BODY_FILE"
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
	lines := []string{"curl --silent --show-error --compressed"}
	add := func(s string) { lines = append(lines, s) }
	need := func(v string) {
		if !slices.Contains(variables, v) {
			variables = append(variables, v)
		}
	}
	// A secret's header is written in double quotes around its variable:
	// constant text every one of the four shells reads alike.
	header := func(prefix, variable string) {
		need(variable)
		add(`--header "` + prefix + `$` + variable + `"`)
	}
	if req.Method != http.MethodGet || len(body) > 0 {
		add("--request " + Quote(req.Method))
	}
	add(Quote(req.URL.String()))
	for _, name := range slices.Sorted(maps.Keys(req.Header)) {
		lower := strings.ToLower(name)
		switch lower {
		case "accept-encoding", "user-agent", "content-length":
			continue // --compressed asks for gzip; curl names itself
		}
		for _, value := range req.Header[name] {
			switch {
			case lower == "authorization" && !o.Reveal && strings.HasPrefix(value, "Bearer "):
				header("Authorization: Bearer ", AccessTokenVariable)
			case lower == "x-secret-key" && !o.Reveal:
				header("x-secret-key: ", SecretKeyVariable)
			default:
				add("--header " + Quote(name+": "+value))
			}
		}
	}
	if o.NeedsToken && req.Header.Get("Authorization") == "" {
		header("Authorization: Bearer ", AccessTokenVariable)
	}
	if o.NeedsSecretKey && req.Header.Get("x-secret-key") == "" {
		header("x-secret-key: ", SecretKeyVariable)
	}
	switch {
	case strings.IndexByte(string(body), 0) >= 0:
		need(BodyFileVariable)
		add(`--data-binary "@$` + BodyFileVariable + `"`)
	case len(body) > 0:
		data, bodyVariables := bodyWithVariables(body, o.Reveal)
		for _, v := range bodyVariables {
			need(v)
		}
		add("--data-raw " + data)
	}
	return strings.Join(lines, " \\\n  "), variables
}

// secretMembers are the body members written as variables: a list the
// compiler lays out, where a map would be built before main.
var secretMembers = []struct{ name, variable string }{
	{"password", PasswordVariable},
	{"refresh_token", RefreshVariable},
}

// bodyWithVariables quotes the body for the shell; the values of secret
// members become "$VARIABLE" between the quoted pieces, so the shell puts
// them in.
func bodyWithVariables(body []byte, reveal bool) (string, []string) {
	var members map[string]json.RawMessage
	if reveal || json.Unmarshal(body, &members) != nil {
		return Quote(string(body)), nil
	}
	type splice struct {
		at, end  int
		variable string
	}
	var splices []splice
	text := string(body)
	for _, secret := range secretMembers {
		name, variable := secret.name, secret.variable
		raw, ok := members[name]
		if !ok || len(raw) < 2 || raw[0] != '"' {
			continue
		}
		key, _ := json.Marshal(name)
		i := strings.Index(text, string(key))
		if i < 0 {
			continue
		}
		if j := strings.Index(text[i:], string(raw)); j >= 0 {
			// Inside the JSON string's own quotes.
			splices = append(splices, splice{i + j + 1, i + j + len(raw) - 1, variable})
		}
	}
	slices.SortFunc(splices, func(a, b splice) int { return a.at - b.at })
	var b strings.Builder
	var used []string
	last := 0
	for _, s := range splices {
		if s.at < last {
			continue // overlapping members: the first one wins
		}
		b.WriteString(Quote(text[last:s.at]) + `"$` + s.variable + `"`)
		used = append(used, s.variable)
		last = s.end
	}
	b.WriteString(Quote(text[last:]))
	slices.Sort(used)
	return b.String(), used
}

// Quote is s as one shell word that bash, zsh, dash and fish all read as
// s. Plain text goes in single quotes; fish reads \' and \\ inside single
// quotes as escapes, so a quote is written "'" and a backslash "\\"
// instead (double quotes, where all four read them alike). A control or
// format character (ESC, CR, bidi overrides, zero-width spaces) or a byte
// that is not UTF-8 would act on a terminal the command is shown or
// pasted in, so it is written as "$(printf '\ooo')", its bytes in octal;
// a newline and a tab stay as they are. A NUL cannot be in a shell word
// at all: it is left out.
func Quote(s string) string {
	if s == "" {
		return "''"
	}
	var b strings.Builder
	inSingle, inPrintf := false, false
	enter := func(single, printf bool) {
		if inSingle && !single {
			b.WriteByte('\'')
		}
		if inPrintf && !printf {
			b.WriteString(`')"`)
		}
		if single && !inSingle {
			b.WriteByte('\'')
		}
		if printf && !inPrintf {
			b.WriteString(`"$(printf '`)
		}
		inSingle, inPrintf = single, printf
	}
	for i, r := range s {
		size := utf8.RuneLen(r)
		if r == utf8.RuneError {
			_, size = utf8.DecodeRuneInString(s[i:])
		}
		switch {
		case r == 0:
		case r == '\'':
			enter(false, false)
			b.WriteString(`"'"`)
		case r == '\\':
			enter(false, false)
			b.WriteString(`"\\"`)
		case r == '\n' || r == '\t' || (unicode.IsGraphic(r) && (r != utf8.RuneError || size == 3)):
			enter(true, false)
			b.WriteRune(r)
		default:
			enter(false, true)
			for _, c := range []byte(s[i : i+size]) {
				fmt.Fprintf(&b, `\%03o`, c)
			}
		}
	}
	enter(false, false)
	if b.Len() == 0 {
		return "''" // s was only NULs
	}
	return b.String()
}
