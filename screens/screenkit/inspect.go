package screenkit

import "cardterm/apiclient"

// Inspected is what a screen's Inspect returns for one record: its title and
// the gateway's text, ok false when there is no record (nothing selected,
// not loaded yet).
func Inspected(title string, raw apiclient.RawJSON) (string, []byte, bool) {
	if raw == "" {
		return "", nil, false
	}
	return title, raw.Bytes(), true
}
