package runbook

import (
	"strings"

	"cardterm/domain/lazy"
)

// A run keeps each fact it learnt in the case as evidence titled
// FactTitle, its summary as the text (screens/support). These read the
// card and verification facts back from that text, beside the summaries
// they read, so that a change of wording changes both.

// FactTitle is the title the fact named name is kept under in a case:
// "fact: Card".
func FactTitle(name string) string {
	g, _ := gathererOf(name)
	return LabelledFactTitle(g.label)
}

// LabelledFactTitle is the title a fact with that label is kept under, the
// one place the title's form is written: the support console keeps facts
// under it and FactTitle finds them again by it.
func LabelledFactTitle(label string) string { return "fact: " + label }

// KeptCard is a card fact as a case keeps it. None says the customer had
// no card.
type KeptCard struct {
	Status, Type, Last4 string
	None                bool
}

// noCardSummary is the card fact's summary when there is no card.
const noCardSummary = "no card ordered (404)"

// cardSummary is the card fact's summary.
func cardSummary(last4, cardType, status string) string {
	return "card ending " + last4 + " (" + cardType + ") is " + status
}

// cardSummaryShape reads cardSummary back; made at first use.
var cardSummaryShape = lazy.Regexp{Pattern: `^card ending (\S+) \((.+)\) is (\S+)$`}

// ReadKeptCard reads a card fact's kept summary; ok is false for any
// other text.
func ReadKeptCard(summary string) (card KeptCard, ok bool) {
	summary = strings.TrimSpace(summary)
	if summary == noCardSummary {
		return KeptCard{None: true}, true
	}
	m := cardSummaryShape.Get().FindStringSubmatch(summary)
	if m == nil {
		return KeptCard{}, false
	}
	return KeptCard{Last4: m[1], Type: m[2], Status: m[3]}, true
}

// verificationSummary is the verification fact's summary.
func verificationSummary(state string) string { return "verification " + state }

// ReadKeptVerification reads a verification fact's kept summary: the
// state; ok is false for any other text.
func ReadKeptVerification(summary string) (state string, ok bool) {
	state, ok = strings.CutPrefix(strings.TrimSpace(summary), "verification ")
	if !ok || state == "" || strings.ContainsAny(state, " \n") {
		return "", false
	}
	return state, true
}
