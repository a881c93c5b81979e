package apiclient

import (
	"fmt"
	"net/http"
)

// maxRedirects bounds the redirects a GET may follow on the gateway's own
// address.
const maxRedirects = 5

// checkRedirect is the client's redirect policy: a redirect to another
// scheme, host or port is never followed (the password in a login body, or
// the secret key, would go with it), and on the gateway's own address only
// a GET without a body is followed, without the secret key.
func checkRedirect(req *http.Request, via []*http.Request) error {
	first := via[0]
	if req.URL.Scheme != first.URL.Scheme || req.URL.Host != first.URL.Host {
		return fmt.Errorf("the gateway redirected to %s://%s%s; not followed: only the gateway's own address is trusted with your credentials",
			req.URL.Scheme, req.URL.Host, req.URL.Path)
	}
	if first.Method != http.MethodGet || first.ContentLength > 0 || first.GetBody != nil {
		return fmt.Errorf("the gateway redirected a %s to %s; not followed: a request body is never sent again", first.Method, req.URL.Path)
	}
	if len(via) >= maxRedirects {
		return fmt.Errorf("the gateway redirected %d times; stopped", len(via))
	}
	req.Header.Del("x-secret-key")
	return nil
}

// maxTokenLength is far beyond any real token; longer is a broken answer.
const maxTokenLength = 8 << 10

// checkToken refuses tokens that cannot go into a header as they are: a CR
// or LF (which would end the header), other control characters, or an
// absurd length. The user sees a clear sign-in failure instead of a
// session that fails every request.
func checkToken(op string, tokens ...string) error {
	for _, t := range tokens {
		if len(t) > maxTokenLength {
			return &Error{Op: op, Status: http.StatusOK, Message: "the gateway's token is malformed (too long)"}
		}
		for _, r := range t {
			if r < 0x20 || r == 0x7f {
				return &Error{Op: op, Status: http.StatusOK, Message: "the gateway's token is malformed (it holds a control character)"}
			}
		}
	}
	return nil
}
