package account

import "cardterm/ui"

// InspectedRequest implements ui.RequestInspectable: the profile comes
// from GET /v1/user, which the inspector copies as curl.
func (a *Screen) InspectedRequest() (ui.SentRequest, bool) {
	return ui.SentRequest{Method: "GET", Path: "/v1/user"}, a.user != nil
}
