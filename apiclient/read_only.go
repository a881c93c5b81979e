package apiclient

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Read-only mode lives here, in the client, not in the screens: a client
// made with Config.ReadOnly sends only the operations of readOnlyAllowed
// and refuses every other one before a byte is sent, whatever its method
// (GET /v1/delegation/token issues a token and may spend the faucet; the
// PIN tokens are POSTs that change nothing on the card but hand out a
// secret). The screens still hide their keys; the client is the guard.

// errReadOnly tags a request refused by read-only mode.
var errReadOnly = errors.New("refused in read-only mode")

// IsReadOnlyRefusal reports whether err is a request read-only mode
// refused before sending it.
func IsReadOnlyRefusal(err error) bool { return errors.Is(err, errReadOnly) }

// operationKind says why an operation may be sent in read-only mode.
type operationKind uint8

const (
	// kindRead changes nothing: a read of the interface.
	kindRead operationKind = iota + 1
	// kindSession starts, renews or ends the caller's own session (login,
	// the token grants, logout, revoke): no account data changes.
	kindSession
	// kindApproval starts a customer-approved session's sign-in (the
	// OAuth initiate); allowed only to a client made for one.
	kindApproval
	// kindSandboxRead is a read only the sandbox gateway has (delivery
	// logs, the request stream); it goes only to an announced sandbox.
	kindSandboxRead
)

// allowedOperation is one entry of the allow-list: a method and a path
// whose {…} segments stand for one identifier.
type allowedOperation struct {
	method, path string
	kind         operationKind
}

// readOnlyAllowed is the one allow-list of read-only mode: the
// interface's operations that change nothing, and the session operations
// a read-only user still needs to sign in and out.
var readOnlyAllowed = []allowedOperation{
	{http.MethodGet, "/v1/user", kindRead},
	{http.MethodGet, "/v1/card/status", kindRead},
	{http.MethodGet, "/v1/card/transactions", kindRead},
	{http.MethodGet, "/v1/wallet/internal", kindRead},
	{http.MethodGet, "/v1/wallet/internal/card_linked", kindRead},
	{http.MethodGet, "/v1/wallet/external", kindRead},
	{http.MethodGet, "/v1/wallet/credit", kindRead},
	{http.MethodGet, "/v1/wallet/credit/withdraw-estimation", kindRead},
	{http.MethodGet, "/v1/wallet/history", kindRead},
	{http.MethodGet, "/v1/wallet/whitelist", kindRead},
	{http.MethodGet, "/v1/delegation/chain/config", kindRead},
	{http.MethodGet, "/v1/order/products/available", kindRead},
	{http.MethodGet, "/v1/order/{orderId}", kindRead},
	{http.MethodGet, "/v2/consent/onboarding/{onboardingId}", kindRead},
	{http.MethodGet, "/v2/consent/user/{userId}", kindRead},
	{http.MethodGet, "/v2/consent/user/{userId}/audit", kindRead},
	{http.MethodGet, "/v2/consent/consentSet/{consentSetId}", kindRead},
	{http.MethodGet, "/v1/webhooks", kindRead},
	{http.MethodGet, "/v1/webhooks/{id}", kindRead},

	{http.MethodPost, "/v1/auth/login", kindSession},
	{http.MethodPost, "/v1/auth/logout", kindSession},
	{http.MethodPost, "/v1/auth/oauth/token", kindSession},
	{http.MethodDelete, "/v1/auth/oauth/revoke", kindSession},

	{http.MethodGet, "/v1/auth/oauth/authorize/initiate", kindApproval},

	{http.MethodGet, "/v1/webhooks/{id}/deliveries", kindSandboxRead},
	{http.MethodGet, "/sandbox/logs", kindSandboxRead},
}

// Method overrides and rewrites are recognised by meaning, not by one
// spelling: servers and the proxies before them read X-HTTP-Method-
// Override as readily as X_HTTP_Method_Override or x-method, and
// _method as readily as .method, +_method or _method[]. A name is
// reduced to its letters and digits, lowercased, before it is judged.

// squeeze is name lowercased with everything but letters and digits
// left out: "X_HTTP_Method_Override" and "x-http-method-override" are
// both "xhttpmethodoverride".
func squeeze(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// overridingHeader says what a header would make of the request: a
// method override (any name with "method" or "override" in it: X-HTTP-
// Method-Override, X-Forwarded-Method, Access-Control-Request-Method), or
// a rewrite of its path (X-Original-URL, X-Rewrite-URL, X-Forwarded-Uri,
// X-Envoy-Original-Path, X-Forwarded-Prefix); "" for any other header.
func overridingHeader(name string) string {
	s := squeeze(name)
	switch {
	case strings.Contains(s, "method") || strings.Contains(s, "override"):
		return "treat %s %s as another method"
	case strings.Contains(s, "rewrite") || strings.Contains(s, "original"),
		strings.HasSuffix(s, "url") || strings.HasSuffix(s, "uri") || strings.HasSuffix(s, "path") || strings.HasSuffix(s, "prefix"):
		return "serve another path than %s %s"
	}
	return ""
}

// overridingParameter reports whether a query parameter asks for another
// method (_method, .method, +_method, _method[], X-HTTP-Method-Override):
// any name with "method" or "override" in it but PKCE's own
// code_challenge_method, which the OAuth initiate sends as spelled here.
func overridingParameter(name string) bool {
	s := squeeze(name)
	return name != "code_challenge_method" && (strings.Contains(s, "method") || strings.Contains(s, "override"))
}

// ReadOnlyPaths lists the interface's operations read-only mode sends for
// anyone (`cardterm api --read-only`), as "GET /v1/user", for help texts
// and refusals.
func ReadOnlyPaths() []string {
	var paths []string
	for _, op := range readOnlyAllowed {
		if op.kind == kindRead {
			paths = append(paths, op.method+" "+op.path)
		}
	}
	return paths
}

// ReadOnlyAllows reports whether read-only mode lets `cardterm api` send
// method on path (with its query, if any) and header: an interface read,
// no method override in a header or a parameter. why says what is refused.
func ReadOnlyAllows(method, path string, header http.Header) (ok bool, why string) {
	path, rawQuery, _ := strings.Cut(rawPath(strings.TrimSpace(path)), "?")
	query, err := url.ParseQuery(rawQuery)
	if err != nil {
		return false, fmt.Sprintf("the query of %s cannot be read", path)
	}
	r := request{method: strings.ToUpper(method), path: path, query: query, header: header, raw: true}
	if err := readOnlyCheck(r, false); err != nil {
		return false, err.Message
	}
	return true, ""
}

// checkReadOnly refuses r when the client is read-only and r is not on the
// allow-list for it.
func (c *Client) checkReadOnly(r request) error {
	if !c.cfg.ReadOnly {
		return nil
	}
	if err := readOnlyCheck(r, c.cfg.ApprovedSession); err != nil {
		return err
	}
	return nil
}

// readOnlyCheck is the allow-list's verdict on r; approval allows the
// OAuth initiate (a customer-approved session's client).
func readOnlyCheck(r request, approval bool) *Error {
	refuse := func(why string) *Error {
		return &Error{Op: r.op, Message: "read-only mode: " + why + "; nothing was sent", Err: tag(errReadOnly, errSetting)}
	}
	for name := range r.header {
		if asks := overridingHeader(name); asks != "" {
			return refuse(fmt.Sprintf("the header %q asks the gateway to "+asks, name, r.method, r.path))
		}
	}
	for name := range r.query {
		if overridingParameter(name) {
			return refuse(fmt.Sprintf("the parameter %q asks the gateway to treat %s %s as another method", name, r.method, r.path))
		}
	}
	op, found := findOperation(r.method, r.path)
	switch {
	case !found:
		return refuse(fmt.Sprintf("%s %s is not one of the interface's reads", r.method, r.path))
	case r.raw && op.kind != kindRead:
		return refuse(fmt.Sprintf("%s %s is not one of the interface's reads", r.method, r.path))
	case op.kind == kindApproval && !approval:
		return refuse(fmt.Sprintf("%s %s starts a sign-in outside a customer-approved session", r.method, r.path))
	case op.kind == kindRead && r.body != nil:
		return refuse(fmt.Sprintf("%s %s carries a body", r.method, r.path))
	}
	return nil
}

// findOperation finds method and path on the allow-list.
func findOperation(method, path string) (allowedOperation, bool) {
	for _, op := range readOnlyAllowed {
		if op.method == method && pathMatches(op.path, path) {
			return op, true
		}
	}
	return allowedOperation{}, false
}

// pathMatches reports whether path is pattern with each {…} segment one
// plain identifier: no empty, "." or ".." segment, no escaped character
// (an escaped slash or dot could name another path on the server), so a
// path matches only the operation it names.
func pathMatches(pattern, path string) bool {
	want := strings.Split(pattern, "/")
	got := strings.Split(path, "/")
	if len(want) != len(got) {
		return false
	}
	for i, segment := range want {
		if strings.HasPrefix(segment, "{") {
			if !plainIdentifier(got[i]) {
				return false
			}
			continue
		}
		if got[i] != segment {
			return false
		}
	}
	return true
}

// plainIdentifier reports whether s is letters, digits, '-', '_' and
// '.', not only dots: what the interface's ids (UUIDs and the like) are.
func plainIdentifier(s string) bool {
	if s == "" || strings.Trim(s, ".") == "" {
		return false
	}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
		default:
			return false
		}
	}
	return true
}
