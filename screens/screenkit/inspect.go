package screenkit

import (
	"cardterm/apiclient"
	"cardterm/ui"
)

// Inspected is what a screen's Inspect returns for one record: its title and
// the gateway's text, ok false when there is no record (nothing selected,
// not loaded yet).
func Inspected(title string, raw apiclient.RawJSON) (string, []byte, bool) {
	if raw == "" {
		return "", nil, false
	}
	return title, raw.Bytes(), true
}

// SentOf is a declared request as copy as curl sends it: the exact body,
// where the confirmation's lines shorten a long one.
func SentOf(call apiclient.Call) *ui.SentRequest {
	return &ui.SentRequest{Method: call.Method(), Path: call.Target(), Body: call.Body()}
}
