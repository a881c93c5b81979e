package apiclient

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// Call is one request as its operation declares it: the method, the path
// with its values escaped in, the query and the body. Each operation a
// screen confirms has a declaration (FreezeCardCall, DeleteWebhookCall,
// ...) that its client method sends, so a confirmation that shows a Call
// shows exactly what is sent.
type Call struct{ r request }

// Method is the HTTP method ("POST").
func (c Call) Method() string { return c.r.method }

// Target is the escaped path and its query, as sent. The x-us-env query
// that US routing adds to a few endpoints (Config.US) is the client's, not
// the call's, and is not part of it.
func (c Call) Target() string {
	if len(c.r.query) == 0 {
		return c.r.path
	}
	return c.r.path + "?" + c.r.query.Encode()
}

// Path is the escaped path, without the query.
func (c Call) Path() string { return c.r.path }

// Query is the query the call sends (a copy).
func (c Call) Query() url.Values {
	out := url.Values{}
	for k, vs := range c.r.query {
		out[k] = append([]string(nil), vs...)
	}
	return out
}

// Body is the JSON body exactly as sent; nil when the call sends none.
func (c Call) Body() []byte {
	if c.r.body == nil {
		return nil
	}
	b, err := json.Marshal(c.r.body)
	if err != nil {
		return nil // the send fails the same way, with the reason
	}
	return b
}

// Line is the request line: "METHOD /path?query".
func (c Call) Line() string { return c.Method() + " " + c.Target() }

// Lines are what a confirmation shows: "METHOD /path?query", then the
// body on a line of its own, with any secret the call carries (a
// delegation token) masked as MaskSecret does. A body longer than
// MaxShownBody (hundreds of whitelist ids) is shown as its beginning, up
// to a comma, and "… (N bytes in all)", so a dialog still fits a screen.
func (c Call) Lines() []string {
	lines := []string{c.Line()}
	if body := c.Body(); body != nil {
		lines = append(lines, ShownBody(MaskSecrets(string(body), c.r.secrets...)))
	}
	return lines
}

// MaxShownBody is the longest body a confirmation shows whole.
const MaxShownBody = 600

// ShownBody is body as a confirmation shows it: whole up to MaxShownBody
// bytes, else its beginning up to a comma and how long it is in all.
func ShownBody(body string) string {
	if len(body) <= MaxShownBody {
		return body
	}
	cut := strings.LastIndexByte(body[:MaxShownBody], ',')
	if cut < 0 {
		cut = MaxShownBody
	}
	return body[:cut] + fmt.Sprintf(", … (%d bytes in all)", len(body))
}

// MaskSecret is how a secret a request carries is shown: its first six
// characters and an ellipsis, or dots alone when it is short.
func MaskSecret(secret string) string {
	r := []rune(secret)
	if len(r) <= 8 {
		return "••••••"
	}
	return string(r[:6]) + "…"
}

// MaskSecrets masks every secret in text (a request body as shown).
func MaskSecrets(text string, secrets ...string) string {
	for _, s := range secrets {
		if s != "" {
			text = strings.ReplaceAll(text, s, MaskSecret(s))
		}
	}
	return text
}
