package screenkit

import (
	"cardterm/apiclient"
	"cardterm/theme"
	"cardterm/ui"
)

// VerificationTone colours a user's verification state. Values the
// interface does not name are shown as they are, in a neutral tone.
func VerificationTone(state string) theme.Tone {
	switch state {
	case apiclient.VerificationVerified:
		return theme.ToneOK
	case apiclient.VerificationPending:
		return theme.ToneWarn
	case apiclient.VerificationRejected:
		return theme.ToneDanger
	case apiclient.VerificationUnverified:
		return theme.ToneInfo
	}
	return theme.ToneNeutral
}

// CardTone colours a card status.
func CardTone(status string) theme.Tone {
	switch status {
	case apiclient.CardActive:
		return theme.ToneOK
	case apiclient.CardFrozen:
		return theme.ToneInfo
	case apiclient.CardBlocked:
		return theme.ToneDanger
	}
	return theme.ToneNeutral
}

// Badge draws a gateway state as a tag; the label is sanitized because it
// came from the gateway.
func Badge(s *theme.Styles, label string, tone theme.Tone) string {
	label = ui.Sanitize(label)
	if label == "" {
		label = "UNKNOWN"
	}
	return s.Badge(label, tone)
}
