package casefile

import (
	"regexp"

	"cardterm/domain/lazy"
)

// What a case never keeps. Evidence is copied from screens that may show
// a customer's e-mail (the account screen, the approved session's banner)
// and notes are typed freely; Scrub runs on everything before it enters
// a case and again on every export, so neither a case file nor a ticket
// comment carries an e-mail, a key, a token or a card number.
// The rules are compiled at their first use, not when the program starts.
var scrubRules = lazy.Value[[]scrubRule]{New: func() []scrubRule {
	return []scrubRule{
		// A JWT or other bearer token (three base64url parts).
		{regexp.MustCompile(`eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*`), "[token left out]"},
		// A tenant's secret key (sk_live_…, sk_sandbox_…).
		{regexp.MustCompile(`\bsk_[A-Za-z0-9_]+`), "[secret key left out]"},
		// Named secrets in JSON or key=value text.
		{regexp.MustCompile(`(?i)("?(?:access_?token|refresh_?token|secret_?key|password|api_?key|token)"?\s*[:=]\s*)"[^"]*"`), `$1"[left out]"`},
		{regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}`), "[e-mail left out]"},
		// A card number: 13 to 19 digits in a row, or in groups of four.
		{regexp.MustCompile(`\b(?:\d{13,19}|\d{4}([ -])\d{4}[ -]\d{4}[ -]\d{1,7})\b`), "[card number left out]"},
	}
}}

// scrubRule replaces what re matches with with.
type scrubRule struct {
	re   *regexp.Regexp
	with string
}

// Scrub takes e-mails, secret keys, tokens and card numbers out of text.
func Scrub(text string) string {
	for _, r := range scrubRules.Get() {
		text = r.re.ReplaceAllString(text, r.with)
	}
	return text
}
