package reproduce

import (
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"cardterm/domain/casefile"
	"cardterm/sandbox"
)

// factCase is a case holding only what a runbook's run kept: the card
// and verification facts (their summaries) and the card's timeline event.
func factCase(cardSummary string) *casefile.Case {
	at := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	return &casefile.Case{Ticket: "TCK-9",
		Evidence: []casefile.Item{
			{Time: at, Title: "fact: Identity verification", Text: "verification PENDING"},
			{Time: at, Title: "fact: Card", Text: cardSummary},
		},
		Events: []casefile.Event{{Time: "2026-01-05T10:00:00Z", Source: "card", Text: "card ending 4242 ordered (VIRTUAL)", Key: "card:c-123"}},
	}
}

func TestRunbookFactsCountAsKept(t *testing.T) {
	for _, tc := range []struct {
		summary, held string
		noCard        bool
	}{
		{"card ending 4242 (VIRTUAL) is FROZEN", "the card (FROZEN VIRTUAL, a runbook's fact: no expiry date)", false},
		{"no card ordered (404)", "no card (a runbook's fact)", true},
	} {
		repro, report := Build(factCase(tc.summary), false)
		if !slices.Contains(report.Held, tc.held) || !slices.Contains(report.Held, "the verification state (PENDING, a runbook's fact)") {
			t.Errorf("%q: held %q", tc.summary, report.Held)
		}
		for _, missing := range report.Missing {
			if strings.HasPrefix(missing, "the card (") {
				t.Errorf("%q: the card is still not in the case: %q", tc.summary, missing)
			}
		}
		if _, err := sandbox.WriteRepro(io.Discard, repro); err != nil {
			t.Errorf("%q: the fixture does not load: %v", tc.summary, err)
		}
		if repro.Verification != "PENDING" || repro.NoCard != tc.noCard {
			t.Errorf("%q: verification %q, no card %v", tc.summary, repro.Verification, repro.NoCard)
		}
		if tc.noCard {
			continue
		}
		if c := repro.Card; c == nil || c.Status != "FROZEN" || c.Type != "VIRTUAL" || c.Last4 != "4242" ||
			c.ID != StandIn("card", "c-123") || c.OrderedAt != "2026-01-05T10:00:00Z" {
			t.Errorf("the card from the fact: %+v", repro.Card)
		}
	}
}

// A card record kept after the run's fact is the newer state: it wins.
func TestANewerCardRecordWinsOverARunbookFact(t *testing.T) {
	c := factCase("card ending 4242 (VIRTUAL) is FROZEN")
	c.Evidence = append(c.Evidence, casefile.Item{Time: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC), Title: "Card screen",
		Text: `{"id":"c-123","panLast4":"4242","status":"ACTIVE","type":"VIRTUAL","expiryDate":"2030/01"}`})
	repro, _ := Build(c, false)
	if repro.Card == nil || repro.Card.Status != "ACTIVE" || repro.Card.Expiry != "2030/01" {
		t.Fatalf("the newer record did not win: %+v", repro.Card)
	}
}
