package transactions

import "cardterm/ui"

// InspectedRequest implements ui.RequestInspectable: a transaction comes
// from the page of the filter on screen, which the inspector copies as
// curl.
func (t *Screen) InspectedRequest() (ui.SentRequest, bool) {
	_, _, ok := t.Inspect()
	return ui.SentRequest{Method: "GET", Path: t.filter.Path()}, ok
}
