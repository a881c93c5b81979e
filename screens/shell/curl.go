package shell

import (
	"context"
	"encoding/json"

	"cardterm/apiclient"
	"cardterm/apiclient/curlcmd"
	"cardterm/ui"
)

// curlOf writes a request as the client would send it as a curl command
// (the app's copy as curl; `cardterm api --dry-run` writes the same): the
// headers of the path's family, the session's token and the secret key as
// variables unless reveal.
func curlOf(client *apiclient.Client) ui.CurlOf {
	return func(req ui.SentRequest, reveal bool) (string, []string, error) {
		raw := apiclient.RawRequest{Method: req.Method, Path: req.Path}
		if len(req.Body) > 0 {
			raw.Body = json.RawMessage(req.Body)
		}
		prepared, err := client.PrepareRaw(context.Background(), raw)
		if err != nil {
			return "", nil, err
		}
		command, variables := curlcmd.Command(prepared.Request, prepared.Body,
			curlcmd.Options{Reveal: reveal, NeedsToken: prepared.NeedsToken, NeedsSecretKey: prepared.NeedsSecretKey})
		return command, variables, nil
	}
}
