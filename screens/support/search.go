package support

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/domain/lazy"
	"cardterm/theme"
	"cardterm/ui/sanitize"
)

// Search within what the interface allows. The gateway finds a customer
// by user id (or an onboarding's sets by onboarding id) and nothing else:
// an e-mail, a card number or a phone number typed where an id belongs
// is refused with what to ask the customer for, instead of being sent; a
// wallet address is looked up in the customer's whitelist across every
// currency, under the customer's approval; a user id not found in one
// region is looked up in the other at once.

var (
	emailLike = lazy.Regexp{Pattern: `^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$`}
	cardLike  = lazy.Regexp{Pattern: `^\d{4}([ -]?\d{4}){2}[ -]?\d{1,7}$`}
	phoneLike = lazy.Regexp{Pattern: `^\+?[\d ()./-]{7,20}$`}
)

// whereAnIDBelongs refuses what is not an id, saying what to ask the
// customer for; "" lets the value through.
func whereAnIDBelongs(kind caseKind) func(string) string {
	ask := "ask the customer for the user id the app shows on its Account screen (or their onboarding id)"
	if kind == caseOnboarding {
		ask = "ask the customer or the partner for the onboarding id their sign-up returned"
	}
	return func(v string) string {
		v = strings.TrimSpace(v)
		switch {
		case v == "":
			return "paste an id"
		case emailLike.Get().MatchString(v):
			return "that is an e-mail address: the gateway finds customers by id only; " + ask
		case cardLike.Get().MatchString(v):
			return "that looks like a card number: never ask for one; " + ask
		case phoneLike.Get().MatchString(v):
			return "that is a phone number: the gateway finds customers by id only; " + ask
		}
		return ""
	}
}

// maxIDLength is as long as the look-up form lets an id be.
const maxIDLength = 128

// idProblem is the look-up form's check of an id (its length, then
// whereAnIDBelongs), for an id that did not come through the form (a
// case file's); "" lets it through.
func idProblem(kind caseKind, id string) string {
	if kind != caseUser && kind != caseOnboarding {
		return "it is neither a user nor an onboarding look-up"
	}
	if len(id) > maxIDLength {
		return "the id is longer than an id can be"
	}
	return whereAnIDBelongs(kind)(id)
}

// isAddress reports a wallet address of a currency the whitelist takes.
func isAddress(v string) bool {
	v = strings.TrimSpace(v)
	return apiclient.ValidEVMAddress(v) || apiclient.ValidSolanaAddress(v) || apiclient.ValidXRPAddress(v) ||
		apiclient.ValidBitcoinAddress(v) || apiclient.ValidStellarAddress(v)
}

// otherRegion is the answer of the same look-up in the other region,
// made at once when the first region has no consent set.
type otherRegion struct {
	us       bool
	notFound bool
	status   string
	err      error
}

// regionsLine says both regions' answers, for the case's header.
func (c *caseData) regionsLine() string {
	o := c.other
	if o == nil {
		return ""
	}
	first := regionName(c.firstUS) + ": no consent set (404)"
	second := regionName(o.us) + ": "
	switch {
	case o.err != nil:
		second += "the look-up failed (" + apiclient.ErrorMessage(o.err) + ")"
	case o.notFound:
		second += "no consent set (404) either"
	default:
		second += "found, consent status " + o.status + " (shown)"
	}
	return "Looked up in both regions. " + first + " · " + second
}

// searchedLines are the last address search's answer, wrapped.
func (s *Screen) searchedLines() []string {
	if s.searched == "" {
		return nil
	}
	var out []string
	for _, line := range strings.Split(ansi.Wrap("Address search: "+sanitize.Text(s.searched), max(s.Width, 20), " "), "\n") {
		out = append(out, s.Deps.Styles.Text(theme.ToneInfo).Render(line))
	}
	return out
}
