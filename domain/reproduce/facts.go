package reproduce

import (
	"strings"

	"cardterm/domain/casefile"
	"cardterm/domain/runbook"
	"cardterm/sandbox"
)

// A runbook's run keeps the card and the verification state it learnt as
// evidence of their own ("fact: Card": "card ending 4242 (VIRTUAL) is
// FROZEN"), not as the gateway's JSON: they count as kept, the newer of a
// fact and a record winning.

// keptFact is the newest evidence a run kept for the fact name.
func keptFact(c *casefile.Case, name string) (*casefile.Item, bool) {
	title := runbook.FactTitle(name)
	for i := len(c.Evidence) - 1; i >= 0; i-- {
		if c.Evidence[i].Title == title {
			return &c.Evidence[i], true
		}
	}
	return nil, false
}

// factWins reports whether a kept fact is to be used over the newest
// record (found says there is one): it was kept after it.
func factWins(fact *casefile.Item, rec record, found bool) bool {
	return !found || fact.Time.After(rec.item.Time)
}

// cardFact is the card a run kept, if it is to be used over rec: the
// card's id and order date come from the run's timeline event ("card:ID").
func cardFact(c *casefile.Case, rec record, found bool) (card *sandbox.ReproCard, none, ok bool) {
	fact, kept := keptFact(c, "card")
	if !kept || !factWins(fact, rec, found) {
		return nil, false, false
	}
	read, readable := runbook.ReadKeptCard(fact.Text)
	switch {
	case !readable:
		return nil, false, false
	case read.None:
		return nil, true, true
	}
	card = &sandbox.ReproCard{Status: read.Status, Type: read.Type, Last4: read.Last4}
	for i := len(c.Events) - 1; i >= 0; i-- {
		ev := c.Events[i]
		if id, isCard := strings.CutPrefix(ev.Key, "card:"); isCard && strings.HasPrefix(ev.Text, "card ending "+read.Last4+" ") {
			card.ID, card.OrderedAt = StandIn("card", id), ev.Time
			break
		}
	}
	return card, false, true
}

// verificationFact is the verification state a run kept, if it is to be
// used over rec.
func verificationFact(c *casefile.Case, rec record, found bool) (string, bool) {
	fact, kept := keptFact(c, "verification")
	if !kept || !factWins(fact, rec, found) {
		return "", false
	}
	return runbook.ReadKeptVerification(fact.Text)
}
