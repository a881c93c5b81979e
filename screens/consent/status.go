package consent

import (
	"slices"
	"strings"
	"time"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
)

// How statuses and times read on the screen, and the policy rules the
// summary and the revoke confirmation explain.

// requiredOf lists the consent types the sets' policies require.
func requiredOf(sets []apiclient.ConsentSet) []string {
	var out []string
	for _, s := range sets {
		for _, t := range apiclient.RequiredConsentTypes(s.PolicyType) {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// latestStatus is the status in force of a consent type across sets (the
// newest record), "" when none of them has it.
func latestStatus(sets []apiclient.ConsentSet, consentType string) string {
	var best *apiclient.Consent
	for _, s := range sets {
		for _, k := range apiclient.CurrentConsents(s) {
			if k.ConsentType == consentType && (best == nil || !parseTime(best.UpdatedAt).After(parseTime(k.UpdatedAt))) {
				best = &k
			}
		}
	}
	if best == nil {
		return ""
	}
	return best.ConsentStatus
}

// parseTime reads a gateway timestamp; the zero time when unreadable.
func parseTime(ts string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return time.Time{}
	}
	return t
}

// formatWhen shows a timestamp in a table cell, the zone in the column's
// title, or as it came.
func formatWhen(ts string) string {
	return screenkit.FormatTableTime(ts)
}

// statusText is a consent status with the mark that makes it read
// without colour; an unknown one as it came.
func statusText(s string) string {
	switch s {
	case apiclient.ConsentGranted:
		return "✓ " + s
	case apiclient.ConsentDenied:
		return "✗ " + s
	case apiclient.ConsentRevoked:
		return "⊘ " + s
	}
	return s
}

// aggregateTones colour an aggregate or set status; others are neutral.
var aggregateTones = screenkit.StateTones{
	{State: apiclient.ConsentComplete, Tone: theme.ToneOK},
	{State: apiclient.ConsentIncomplete, Tone: theme.ToneWarn},
}

// consentTones colour one consent's status; others are neutral.
var consentTones = screenkit.StateTones{
	{State: apiclient.ConsentGranted, Tone: theme.ToneOK},
	{State: apiclient.ConsentDenied, Tone: theme.ToneWarn},
	{State: apiclient.ConsentRevoked, Tone: theme.ToneDanger},
}

// requiredText is "required" or "optional" under the set's policy.
func requiredText(policy, consentType string) string {
	if apiclient.IsRequiredConsent(policy, consentType) {
		return "required"
	}
	return "optional"
}

// shortID is the first block of a UUID, for notices.
func shortID(id string) string {
	if i := strings.IndexByte(id, '-'); i > 0 {
		return id[:i]
	}
	return id
}

// capitalize upper-cases the first letter (ASCII: the phrases are ours).
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
