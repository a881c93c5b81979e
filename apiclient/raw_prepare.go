package apiclient

import (
	"context"
	"io"
	"net/http"
	"strings"
)

// PreparedRequest is a request as Raw would send it, built but not sent:
// for a curl command of it (copy as curl, cardterm api --dry-run).
type PreparedRequest struct {
	Request *http.Request
	Body    []byte // the body sent, nil for none
	// NeedsToken: the path takes the bearer token (present in Request's
	// Authorization when the client holds a session).
	NeedsToken bool
	// NeedsSecretKey: the path takes x-secret-key (present when the
	// client has one).
	NeedsSecretKey bool
}

// PrepareRaw builds the request Raw would send for r, with the headers of
// its path's family, the session's token and the secret key as the client
// holds them, and sends nothing.
func (c *Client) PrepareRaw(ctx context.Context, r RawRequest) (PreparedRequest, error) {
	method := strings.ToUpper(strings.TrimSpace(r.Method))
	if method == "" {
		method = http.MethodGet
	}
	path, query, err := splitRawPath(r.Path)
	if err != nil {
		return PreparedRequest{}, settingError("api", err.Error())
	}
	for k, vs := range r.Query {
		query[k] = append(query[k], vs...)
	}
	fam := rawFamily(method, path)
	req := request{op: method + " " + path, method: method, path: path, query: query, family: fam,
		us: rawUSMode(path), header: r.Header}
	if r.Body != nil {
		req.body = r.Body
	}
	token := ""
	if fam.bearer() {
		token = c.Session().AccessToken
	}
	built, err := c.build(ctx, req, token)
	if err != nil {
		return PreparedRequest{}, err
	}
	out := PreparedRequest{Request: built, NeedsToken: fam.bearer(), NeedsSecretKey: fam == familySecret}
	if built.Body != nil {
		out.Body, _ = io.ReadAll(built.Body)
	}
	return out, nil
}
