package reproduce

import (
	"encoding/json"
	"slices"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

// The customer's consents as the case recorded them: the consent sets
// kept as records (the Consent screen of an approved session, or a
// consent status answer), and the audit records kept from the console's
// audit trail. A set the case has only audit records of is rebuilt from
// them: each consent type at the state its latest record left it.

// consentRecords are the consent sets and audit records among recs, each
// once (its newest kept answer).
func consentRecords(recs []record) (sets []apiclient.ConsentSet, audit []apiclient.AuditRecord) {
	for _, r := range recs {
		switch {
		case r.has("consentSets"):
			var status apiclient.UserConsentStatus
			if json.Unmarshal([]byte(r.raw), &status) == nil {
				for _, set := range status.ConsentSets {
					sets = keepSet(sets, set)
				}
			}
		case r.has("consentSetId") && r.has("auditId"):
			var a apiclient.AuditRecord
			if json.Unmarshal([]byte(r.raw), &a) == nil {
				audit = slices.DeleteFunc(audit, func(b apiclient.AuditRecord) bool { return b.AuditID == a.AuditID })
				audit = append(audit, a)
			}
		case r.has("consentSetId") && r.has("policyType"):
			var set apiclient.ConsentSet
			if json.Unmarshal([]byte(r.raw), &set) == nil {
				sets = keepSet(sets, set)
			}
		}
	}
	slices.SortStableFunc(audit, func(a, b apiclient.AuditRecord) int { return parseTime(a.Timestamp).Compare(parseTime(b.Timestamp)) })
	return sets, audit
}

func keepSet(sets []apiclient.ConsentSet, set apiclient.ConsentSet) []apiclient.ConsentSet {
	if i := slices.IndexFunc(sets, func(s apiclient.ConsentSet) bool { return s.ConsentSetID == set.ConsentSetID }); i >= 0 {
		sets[i] = set
		return sets
	}
	return append(sets, set)
}

func standInSet(set apiclient.ConsentSet) sandbox.ReproSet {
	out := sandbox.ReproSet{ID: StandIn("set", set.ConsentSetID), OnboardingID: StandIn("onboarding", set.OnboardingID),
		Policy: set.PolicyType, Linked: set.Linked(), CreatedAt: parseTime(set.CreatedAt), UpdatedAt: parseTime(set.UpdatedAt)}
	if set.CompletedAt != nil {
		t := parseTime(*set.CompletedAt)
		out.CompletedAt = &t
	}
	for _, c := range set.Consents {
		client := ""
		if c.Metadata != nil {
			client = c.Metadata.ClientID
		}
		out.Consents = append(out.Consents, sandbox.ReproConsent{ID: StandIn("consent", c.ConsentID), Type: c.ConsentType,
			Status: c.ConsentStatus, ClientID: StandIn("client", client), CreatedAt: parseTime(c.CreatedAt), UpdatedAt: parseTime(c.UpdatedAt),
			Superseded: !apiclient.IsCurrentConsent(set, c.ConsentID)})
	}
	return out
}

func standInAudit(a apiclient.AuditRecord) sandbox.ReproAudit {
	r := sandbox.ReproAudit{ID: StandIn("audit", a.AuditID), Action: a.Action, SetID: StandIn("set", a.ConsentSetID),
		ClientID: StandIn("client", a.Metadata.ClientID), At: parseTime(a.Timestamp),
		AfterType: a.Changes.After.ConsentType, AfterStatus: a.Changes.After.ConsentStatus}
	if b := a.Changes.Before; b != nil {
		r.BeforeType, r.BeforeStatus = b.ConsentType, b.ConsentStatus
	}
	return r
}

// setsFromAudit rebuilds the sets the audit records name that no kept
// set record holds: linked to the customer, each consent type at its
// latest state.
func setsFromAudit(audit []apiclient.AuditRecord, have []sandbox.ReproSet, policy string) []sandbox.ReproSet {
	var out []sandbox.ReproSet
	index := map[string]int{}
	for _, a := range audit {
		id := StandIn("set", a.ConsentSetID)
		if id == "" || slices.ContainsFunc(have, func(s sandbox.ReproSet) bool { return s.ID == id }) {
			continue
		}
		at := parseTime(a.Timestamp)
		i, ok := index[id]
		if !ok {
			i, index[id] = len(out), len(out)
			out = append(out, sandbox.ReproSet{ID: id, OnboardingID: StandIn("onboarding", a.ConsentSetID), Policy: policy, Linked: true, CreatedAt: at})
		}
		set := &out[i]
		set.UpdatedAt = at
		after := a.Changes.After
		if after.ConsentType == "" {
			continue
		}
		c := sandbox.ReproConsent{ID: StandIn("consent", a.ConsentSetID+"/"+after.ConsentType), Type: after.ConsentType,
			Status: after.ConsentStatus, ClientID: StandIn("client", a.Metadata.ClientID), CreatedAt: at, UpdatedAt: at}
		if j := slices.IndexFunc(set.Consents, func(k sandbox.ReproConsent) bool { return k.Type == c.Type }); j >= 0 {
			c.CreatedAt = set.Consents[j].CreatedAt
			set.Consents[j] = c
		} else {
			set.Consents = append(set.Consents, c)
		}
	}
	return out
}

func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339, s)
	return t.UTC()
}
