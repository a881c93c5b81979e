package screentest

import (
	"net/http"

	"cardterm/sandbox"
)

// WithGateway puts wrap between the client and the sandbox.
func WithGateway(wrap func(http.Handler) http.Handler) Option {
	return func(s *Setup) { s.Wrap = wrap }
}

// demoClientID is the X-Client-ID of the sandbox's demo tenant.
func demoClientID() string {
	cred, _ := sandbox.CredentialFor(sandbox.DemoClientKey)
	return cred.ClientID
}
