package apiclient

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// Any endpoint, for `cardterm api`: the caller names the method and path,
// the client adds the identification headers the interface asks of that
// path's family (the same rules as the typed operations), the session's
// bearer token, its refresh on a 401 and the GET retries on a 429, and
// hands back the answer as the gateway sent it.

// RawRequest is one request to any endpoint.
type RawRequest struct {
	Method string
	// Path is the path under the base URL, escaped as it is to be sent,
	// with a query if any ("/v2/consent/user/u1/audit?limit=10").
	Path string
	// Query adds parameters to the path's own.
	Query url.Values
	// Body is sent as it is (Content-Type application/json) when not nil:
	// the bytes of --input reach the gateway unchanged.
	Body json.RawMessage
	// Header holds more headers; each replaces the client's own of that
	// name.
	Header http.Header
}

// RawAnswer is the gateway's answer: its status and its body as sent. Of
// an error answer, the head the client reads (maxErrorBody, 64 KiB: a
// message needs no more), with the session's tokens and the secret key
// replaced by [redacted] wherever the gateway echoed them.
type RawAnswer struct {
	Status int
	// Proto and StatusText are the status line's ("HTTP/1.1", "200 OK"),
	// Header the answer's headers: what `cardterm api -i` prints.
	Proto, StatusText string
	Header            http.Header
	Body              []byte
}

// RawNeedsSecretKey reports whether the interface asks for x-secret-key
// on method and path (OAuth token, consent link, revoke and creation), so
// a caller reads the secret key only when it is sent.
func RawNeedsSecretKey(method, path string) bool {
	return rawFamily(strings.ToUpper(method), rawPath(path)) == familySecret
}

// RawNeedsSignIn reports whether method and path are a signed-in user's
// (they carry the bearer token).
func RawNeedsSignIn(method, path string) bool {
	return rawFamily(strings.ToUpper(method), rawPath(path)).bearer()
}

// Raw sends r and returns the gateway's answer. An error answer comes
// with its *Error (the status classified as everywhere else) and the
// answer itself.
func (c *Client) Raw(ctx context.Context, r RawRequest) (RawAnswer, error) {
	method := strings.ToUpper(strings.TrimSpace(r.Method))
	if method == "" {
		method = http.MethodGet
	}
	path, query, err := splitRawPath(r.Path)
	if err != nil {
		return RawAnswer{}, settingError("api", err.Error())
	}
	for k, vs := range r.Query {
		query[k] = append(query[k], vs...)
	}
	var answer RawAnswer
	req := request{
		op:     method + " " + path,
		method: method,
		path:   path,
		query:  query,
		family: rawFamily(method, path),
		us:     rawUSMode(path),
		header: r.Header,
		raw:    true,
		status: &answer.Status,
		head: func(resp *http.Response) {
			answer.Proto, answer.StatusText, answer.Header = resp.Proto, resp.Status, resp.Header.Clone()
		},
		read: func(body io.Reader) error {
			data, err := io.ReadAll(body)
			answer.Body = data
			return err
		},
	}
	if r.Body != nil {
		req.body = r.Body
	}
	var errorBody []byte
	err = c.do(CaptureBody(ctx, &errorBody), req)
	if err != nil && answer.Status >= 300 {
		answer.Body = errorBody
	}
	return answer, err
}

// CheckRawPath refuses a path that is not a path under the base URL (an
// address, //host), so a caller can check it before signing in.
func CheckRawPath(raw string) error {
	_, _, err := splitRawPath(raw)
	return err
}

// splitRawPath checks a path given on the command line and splits off its
// query. Only a path: the credentials never go to another host.
func splitRawPath(raw string) (string, url.Values, error) {
	raw = strings.TrimSpace(raw)
	if strings.Contains(raw, "://") || strings.HasPrefix(raw, "//") {
		return "", nil, fmt.Errorf("%q: give a path under the gateway's base URL, such as /v1/user, not an address", raw)
	}
	path, rawQuery, _ := strings.Cut(rawPath(raw), "?")
	query, err := url.ParseQuery(rawQuery)
	if err != nil {
		return "", nil, fmt.Errorf("the query of %q: %v", raw, err)
	}
	return path, query, nil
}

// rawPath puts the leading slash on a path given without it ("v1/user").
func rawPath(path string) string {
	if !strings.HasPrefix(path, "/") {
		return "/" + path
	}
	return path
}

// rawFamily is the family of headers the interface documents for method
// on path; the user's endpoints (x-client-key and the bearer token) for
// any path it does not name.
func rawFamily(method, path string) family {
	path, _, _ = strings.Cut(path, "?")
	switch {
	case path == "/v1/order" || strings.HasPrefix(path, "/v1/order/"):
		return familyOrder
	case path == "/v1/webhooks" || strings.HasPrefix(path, "/v1/webhooks/"):
		return familyWebhook
	case path == "/v1/auth/oauth/token", strings.HasPrefix(path, "/sandbox/"):
		// The sandbox's own tools take the client and the secret key.
		return familySecret
	case path == "/v1/auth/login", path == "/v1/auth/oauth/authorize/initiate":
		return familyClient
	case strings.HasPrefix(path, "/v2/consent/"):
		if method == http.MethodGet {
			return familyClient
		}
		return familySecret
	}
	return familyUser
}

// rawUSMode is where x-us-env goes for path: the whitelist and the credit
// wallet take it in the query, as the typed calls send it; the webhooks
// never.
func rawUSMode(path string) usMode {
	switch {
	case strings.HasPrefix(path, "/v1/webhooks"):
		return usNone
	case strings.HasPrefix(path, "/v1/wallet/whitelist"), strings.HasPrefix(path, "/v1/wallet/credit"):
		return usQuery
	}
	return usHeader
}
