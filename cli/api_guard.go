package cli

import (
	"fmt"

	"cardterm/apiclient"
)

// The api command's guards, checked on the command line before anything
// is read or sent (no sign-in, no secret key): the path must be a path
// under the gateway, and in read-only mode the request must be one of the
// interface's reads, with no method override in a header or a parameter.
// The client refuses the same again (apiclient/read_only.go); this says
// it with the usage exit code before a password is ever sent.

// guardAPIRequest refuses what `cardterm api` must not send.
func guardAPIRequest(o options, request apiclient.RawRequest) error {
	if err := apiclient.CheckRawPath(request.Path); err != nil {
		return usageError{err.Error()}
	}
	if !o.readOnly {
		return nil
	}
	path := request.Path
	if len(request.Query) > 0 {
		path += "?" + request.Query.Encode()
	}
	if request.Body != nil {
		return usageError{fmt.Sprintf("%s %s: read-only (--read-only, $%s or the profile) sends no body", request.Method, request.Path, envReadOnly)}
	}
	if ok, why := apiclient.ReadOnlyAllows(request.Method, path, request.Header); !ok {
		return usageError{fmt.Sprintf("%s (--read-only, $%s or the profile)", why, envReadOnly)}
	}
	return nil
}
