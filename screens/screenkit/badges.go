package screenkit

import (
	"cardterm/apiclient"
	"cardterm/theme"
	"cardterm/ui/sanitize"
)

// StateTones colours the states of one gateway field (a card status, a
// verification state) by the names the interface gives them. A list, not
// a map: a package-level list is laid out by the compiler, a map is
// built before main on every start.
type StateTones []StateTone

// StateTone is the tone of one state.
type StateTone struct {
	State string
	Tone  theme.Tone
}

// Of is the tone of state. Values the interface does not name are shown as
// they are, in a neutral tone.
func (t StateTones) Of(state string) theme.Tone {
	for _, s := range t {
		if s.State == state {
			return s.Tone
		}
	}
	return theme.ToneNeutral
}

var verificationTones = StateTones{
	{apiclient.VerificationVerified, theme.ToneOK},
	{apiclient.VerificationPending, theme.ToneWarn},
	{apiclient.VerificationRejected, theme.ToneDanger},
	{apiclient.VerificationUnverified, theme.ToneInfo},
}

var cardTones = StateTones{
	{apiclient.CardActive, theme.ToneOK},
	{apiclient.CardFrozen, theme.ToneInfo},
	{apiclient.CardBlocked, theme.ToneDanger},
}

// VerificationTone colours a user's verification state.
func VerificationTone(state string) theme.Tone { return verificationTones.Of(state) }

// CardTone colours a card status.
func CardTone(status string) theme.Tone { return cardTones.Of(status) }

// Badge draws a gateway state as a tag; the label is sanitized because it
// came from the gateway.
func Badge(s *theme.Styles, label string, tone theme.Tone) string {
	label = sanitize.Text(label)
	if label == "" {
		label = "UNKNOWN"
	}
	return s.Badge(label, tone)
}
