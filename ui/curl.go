package ui

import (
	"encoding/json"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/domain/lazy"
	"cardterm/theme"
	"cardterm/ui/sanitize"
)

// Copy as curl: a confirmation (c) and the inspector (c) copy the request
// as a curl command (OSC 52, like y), shown too; secrets are shell
// variables ($CARDTERM_SECRET_KEY, $CARDTERM_ACCESS_TOKEN) unless C asks
// for their values. ui knows no gateway: RootOptions.CurlOf writes the
// command (the client's headers, package curlcmd).

// SentRequest is a request as the gateway gets it: method, path (with its
// query) and JSON body.
type SentRequest struct {
	Method, Path string
	Body         []byte
}

// CurlOf writes req as a curl command; variables are the ones it needs
// set (none when reveal).
type CurlOf func(req SentRequest, reveal bool) (command string, variables []string, err error)

// RequestInspectable is implemented by screens that know the request
// their inspected record came from, so the inspector copies it as curl.
type RequestInspectable interface {
	InspectedRequest() (SentRequest, bool)
}

// requestLine is a confirmation's first request line: "METHOD /path".
var requestLine = lazy.Regexp{Pattern: `^([A-Z]+) (/\S*)$`}

// sentRequestOf is what a confirmation sends: its Send, else its request
// lines when they are exactly a method and path and, at most, a JSON
// body; ok is false when the lines only describe the request.
func sentRequestOf(spec ConfirmSpec) (SentRequest, bool) {
	if spec.Send != nil {
		return *spec.Send, true
	}
	if len(spec.Request) == 0 || len(spec.Request) > 2 {
		return SentRequest{}, false
	}
	m := requestLine.Get().FindStringSubmatch(strings.TrimSpace(spec.Request[0]))
	if m == nil {
		return SentRequest{}, false
	}
	req := SentRequest{Method: m[1], Path: m[2]}
	if len(spec.Request) == 2 {
		body := strings.TrimSpace(spec.Request[1])
		// A body shown shortened or with a secret masked is not the body
		// sent: without Send there is nothing exact to copy.
		if !json.Valid([]byte(body)) || strings.ContainsAny(body, "…•") {
			return SentRequest{}, false
		}
		req.Body = []byte(body)
	}
	return req, true
}

// curlKeys are the bindings of copy as curl.
type curlKeys struct {
	Copy, CopyRevealed key.Binding
}

func newCurlKeys() curlKeys {
	return curlKeys{
		Copy:         key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy as curl")),
		CopyRevealed: key.NewBinding(key.WithKeys("C"), key.WithHelp("C", "curl with secrets")),
	}
}

// copyAsCurl writes req with curlOf, copies it and says what to set; the
// command comes back to be shown.
func copyAsCurl(curlOf CurlOf, req SentRequest, reveal bool) (string, tea.Cmd) {
	if curlOf == nil {
		return "", Notify(theme.ToneInfo, "copy as curl is not available here")
	}
	command, variables, err := curlOf(req, reveal)
	if err != nil {
		return "", ReportError("copy as curl", err)
	}
	note := "copied as curl"
	if len(variables) > 0 {
		note += ": set $" + strings.Join(variables, " and $") + " before running it"
	} else if reveal {
		note += ", secrets included: do not paste it where others read"
	}
	return command, tea.Batch(tea.SetClipboard(command), Notify(theme.ToneOK, note))
}

// wrapCommand lays a multi-line shell command out in width cells: a line
// too long wraps at spaces, and its continuation backslash stays at the
// end of its last piece instead of wrapping onto a line of its own.
func wrapCommand(command string, width int) []string {
	var out []string
	for _, line := range strings.Split(command, "\n") {
		line = sanitize.Text(line)
		rest, continued := strings.CutSuffix(line, " \\")
		room := width
		if continued {
			room -= 2
		}
		pieces := strings.Split(ansi.Wrap(rest, max(room, 10), " "), "\n")
		if continued {
			pieces[len(pieces)-1] += " \\"
		}
		out = append(out, pieces...)
	}
	return out
}
