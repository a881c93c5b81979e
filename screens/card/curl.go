package card

import "cardterm/ui"

// InspectedRequest implements ui.RequestInspectable: the card comes from
// GET /v1/card/status, which the inspector copies as curl.
func (c *Screen) InspectedRequest() (ui.SentRequest, bool) {
	return ui.SentRequest{Method: "GET", Path: "/v1/card/status"}, c.card != nil
}
