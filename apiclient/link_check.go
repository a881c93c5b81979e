package apiclient

import (
	"net/http"
	"net/url"
	"unicode"
)

// checkGatewayLink refuses a link the gateway handed out (a sign-in page,
// a hosted set-PIN page) that is not an absolute http(s) URL, or that holds
// characters not drawn as themselves: controls, spaces, bidi controls,
// zero-width and other format characters. The screen shows links
// sanitized; such a link would be opened or copied as something other
// than what was shown, so it is refused, as a wallet address would be.
// The message never quotes the link: it may carry a secret.
func checkGatewayLink(op, link, what string) error {
	for _, r := range link {
		if unicode.IsControl(r) || unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) {
			return &Error{Op: op, Status: http.StatusOK,
				Message: "gateway answered with " + what + " holding invisible or bidi characters; it is not opened or copied"}
		}
	}
	u, err := url.Parse(link)
	if link == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return &Error{Op: op, Status: http.StatusOK, Message: "gateway answered without " + what}
	}
	return nil
}
