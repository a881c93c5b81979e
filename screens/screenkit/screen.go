package screenkit

import "cardterm/ui"

// ResetKeepingSize resets a screen when the session ends (or another user
// signs in): reset builds it afresh, `*s = *New(s.deps)`, so the next user
// never sees the last one's data. The fresh screen gets back the size the
// old one had, which the root sends again only when the terminal changes.
func ResetKeepingSize(screen ui.Screen, width, height int, reset func()) {
	reset()
	screen.SetSize(width, height)
}
