// Package reproduce turns what a support case saw of a customer (the
// consent sets and audit records, the card, the wallets, the card
// transactions, the verification state, as kept in the case) into a
// sandbox fixture on a user of the sandbox's own demo tenant, every
// personal value replaced by a stable stand-in: ids by a hash (the same
// id always gets the same stand-in, so the records still point at each
// other), wallet addresses by addresses of the same format, IP addresses,
// user agents and the card holder's name left out, the customer's name,
// e-mail, phone and address never copied. It reads the case alone and
// sends nothing to any gateway, so a case of any tenant, gateway or
// region is reproduced the same way. Engineering loads the fixture with
// cardterm sandbox --fixture and reproduces the ticket without the
// customer's data.
package reproduce

import (
	"strconv"
	"strings"

	"cardterm/domain/casefile"
	"cardterm/domain/ledger"
	"cardterm/sandbox"
)

// Report says what a reproduction holds and which parts the case did not
// have, each with how to gather it.
type Report struct {
	Held    []string
	Missing []string
}

// Build is the reproduction of c's customer; us puts it on a US user.
func Build(c *casefile.Case, us bool) (sandbox.Repro, Report) {
	recs, drawn := records(c)
	repro := sandbox.Repro{US: us}
	var report Report
	gather := func(part, screen string) {
		how := "open the " + screen + " screen in an approved session, select the record and press ctrl+k"
		if drawn[screen] {
			how = "the case kept the " + screen + " screen as drawn text only: " + how
		}
		report.Missing = append(report.Missing, part+" ("+how+")")
	}

	sets, audit := consentRecords(recs)
	for _, set := range sets {
		repro.Sets = append(repro.Sets, standInSet(set))
	}
	policy := ""
	if len(sets) > 0 {
		policy = sets[0].PolicyType
	}
	repro.Sets = append(repro.Sets, setsFromAudit(audit, repro.Sets, policy)...)
	for _, a := range audit {
		repro.Audit = append(repro.Audit, standInAudit(a))
	}
	if len(repro.Sets) > 0 {
		report.Held = append(report.Held, plural(len(repro.Sets), "consent set")+" and "+plural(len(repro.Audit), "audit record"))
	} else {
		report.Missing = append(report.Missing, "consents (keep the consent sets from the Consent screen in an approved session, or audit records from the console's audit trail, with ctrl+k)")
	}

	cardRecord, found := latest(recs, func(r record) bool { return r.has("panLast4") })
	if card, none, ok := cardFact(c, cardRecord, found); ok {
		repro.Card, repro.NoCard = card, none
		if none {
			report.Held = append(report.Held, "no card (a runbook's fact)")
		} else {
			report.Held = append(report.Held, "the card ("+card.Status+" "+card.Type+", a runbook's fact: no expiry date)")
		}
	} else if found {
		f := cardRecord.raw.Fields()
		repro.Card = &sandbox.ReproCard{ID: StandIn("card", ledger.FieldAt(f, "id")), Status: ledger.FieldAt(f, "status"),
			Type: ledger.FieldAt(f, "type"), Last4: ledger.FieldAt(f, "panLast4"), Expiry: ledger.FieldAt(f, "expiryDate"),
			OrderedAt: ledger.FieldAt(f, "orderedAt")}
		report.Held = append(report.Held, "the card ("+repro.Card.Status+" "+repro.Card.Type+")")
	} else {
		gather("the card", "Card")
	}
	user, found := latest(recs, func(r record) bool { return r.has("verificationState") })
	if state, ok := verificationFact(c, user, found); ok {
		repro.Verification = state
		report.Held = append(report.Held, "the verification state ("+state+", a runbook's fact)")
	} else if found {
		repro.Verification = ledger.FieldAt(user.raw.Fields(), "verificationState")
		report.Held = append(report.Held, "the verification state ("+repro.Verification+")")
	}

	if repro.Wallets = wallets(recs); repro.Wallets != nil {
		w := repro.Wallets
		report.Held = append(report.Held, plural(len(w.Internal), "internal wallet")+" ("+strconv.Itoa(len(w.Linked))+" linked), "+
			plural(len(w.External), "external wallet"))
	} else {
		gather("the wallets", "Wallets")
	}
	if repro.Transactions = transactions(recs, personalNames(recs)); len(repro.Transactions) > 0 {
		report.Held = append(report.Held, plural(len(repro.Transactions), "card transaction"))
	} else {
		gather("the card transactions", "Transactions")
	}
	return repro, report
}

// latest is the newest record that matches.
func latest(recs []record, match func(record) bool) (record, bool) {
	for i := len(recs) - 1; i >= 0; i-- {
		if match(recs[i]) {
			return recs[i], true
		}
	}
	return record{}, false
}

// personalNames are the customer's names as the case kept them (a
// profile kept unmasked, the card's holder name), to be taken out of
// any text copied into the fixture.
func personalNames(recs []record) []string {
	var names []string
	for _, r := range recs {
		f := r.raw.Fields()
		for _, v := range []string{ledger.FieldAt(f, "firstName"), ledger.FieldAt(f, "lastName"), ledger.FieldAt(f, "holderName")} {
			if v != "" && v != casefile.Masked {
				names = append(names, strings.Fields(v)...)
			}
		}
	}
	return names
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
