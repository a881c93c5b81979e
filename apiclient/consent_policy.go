package apiclient

import (
	"strings"
	"time"
)

// The consent policy rules (docs/internals/sandbox.md): termsAndPrivacy is required by
// every policy, eSignAct too by the US policy (`us`, `US` accepted); the
// notification consents are optional. A set's consents hold every record
// ever made, revocations included; per consent type the newest record is
// the one in force.

// RequiredConsentTypes lists the consent types a policy requires.
func RequiredConsentTypes(policy string) []string {
	if strings.EqualFold(strings.TrimSpace(policy), ConsentPolicyUS) {
		return []string{ConsentTermsPrivacy, ConsentESignAct}
	}
	return []string{ConsentTermsPrivacy}
}

// IsRequiredConsent reports whether policy requires consentType, so a
// screen can warn that revoking it makes the status incomplete.
func IsRequiredConsent(policy, consentType string) bool {
	for _, t := range RequiredConsentTypes(policy) {
		if t == consentType {
			return true
		}
	}
	return false
}

// newer reports whether timestamp a is later than b; unreadable times
// compare equal, so the later record in the list wins.
func newer(a, b string) bool {
	ta, errA := time.Parse(time.RFC3339Nano, a)
	tb, errB := time.Parse(time.RFC3339Nano, b)
	if errA != nil || errB != nil {
		return false
	}
	return ta.After(tb)
}

// CurrentConsents is the record in force for each consent type of a set
// (the newest; on equal times the later in the list), in the order the
// types first appear.
func CurrentConsents(set ConsentSet) []Consent {
	idx := map[string]int{}
	var out []Consent
	for _, c := range set.Consents {
		i, seen := idx[c.ConsentType]
		switch {
		case !seen:
			idx[c.ConsentType] = len(out)
			out = append(out, c)
		case !newer(out[i].UpdatedAt, c.UpdatedAt):
			out[i] = c
		}
	}
	return out
}

// IsCurrentConsent reports whether the record with consentID is the one in
// force for its type in set (false for a superseded original).
func IsCurrentConsent(set ConsentSet, consentID string) bool {
	for _, c := range CurrentConsents(set) {
		if c.ConsentID == consentID {
			return true
		}
	}
	return false
}

// AggregateConsentStatus computes a user's status over the user's sets the
// way the sandbox gateway does: none without sets; complete when, per
// required type (of every set's policy), the newest record across the sets
// is granted; incomplete otherwise.
func AggregateConsentStatus(sets []ConsentSet) string {
	if len(sets) == 0 {
		return ConsentNone
	}
	required := map[string]bool{}
	latest := map[string]Consent{}
	for _, s := range sets {
		for _, t := range RequiredConsentTypes(s.PolicyType) {
			required[t] = true
		}
		for _, c := range CurrentConsents(s) {
			if old, ok := latest[c.ConsentType]; !ok || !newer(old.UpdatedAt, c.UpdatedAt) {
				latest[c.ConsentType] = c
			}
		}
	}
	for t := range required {
		if c, ok := latest[t]; !ok || c.ConsentStatus != ConsentGranted {
			return ConsentIncomplete
		}
	}
	return ConsentComplete
}

// SetConsentStatus is one set's own status: complete when every consent
// its policy requires is granted there.
func SetConsentStatus(set ConsentSet) string {
	return AggregateConsentStatus([]ConsentSet{set})
}

// WithRevoked returns sets as they would be after revoking consentID in
// setID (a revoked record added after the original), so a screen can say
// what a revocation will do before sending it.
func WithRevoked(sets []ConsentSet, setID, consentID, at string) []ConsentSet {
	out := make([]ConsentSet, len(sets))
	for i, s := range sets {
		out[i] = s
		if s.ConsentSetID != setID {
			continue
		}
		out[i].Consents = append([]Consent(nil), s.Consents...)
		for _, c := range s.Consents {
			if c.ConsentID == consentID {
				out[i].Consents = append(out[i].Consents, Consent{ConsentID: consentID + "+revoked",
					ConsentType: c.ConsentType, ConsentStatus: ConsentRevoked, CreatedAt: at, UpdatedAt: at})
			}
		}
	}
	return out
}

// ConsentGap is a consent a set's policy requires that is not granted:
// its type and its status ("missing" when the set has no record of it).
type ConsentGap struct{ Type, Status string }

// RequiredNotGranted lists the set's gaps in the order its policy names
// the required types; the support console's runbooks and bulk look-ups
// both say what is missing from it.
func RequiredNotGranted(set ConsentSet) []ConsentGap {
	current := CurrentConsents(set)
	var out []ConsentGap
	for _, t := range RequiredConsentTypes(set.PolicyType) {
		status := "missing"
		for _, c := range current {
			if c.ConsentType == t {
				status = c.ConsentStatus
			}
		}
		if status != ConsentGranted {
			out = append(out, ConsentGap{Type: t, Status: status})
		}
	}
	return out
}
