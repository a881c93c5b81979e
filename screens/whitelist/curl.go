package whitelist

import (
	"net/url"

	"cardterm/ui"
)

// InspectedRequest implements ui.RequestInspectable: an entry comes from
// the list of its currency, which the inspector copies as curl.
func (w *Screen) InspectedRequest() (ui.SentRequest, bool) {
	_, _, ok := w.Inspect()
	return ui.SentRequest{Method: "GET", Path: "/v1/wallet/whitelist?currency=" + url.QueryEscape(w.currency)}, ok
}
