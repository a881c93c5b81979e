package sandbox

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Consent state of one backend: consent sets (created at onboarding,
// linked to a user once, revocable) and the immutable audit trail.
//
// Time rules: the seed is laid out on the injected clock, anchored on the
// hour the backend's consent data is first touched (so a ManualClock gives
// the same data on every run, and the demo's history ends "just now" on the
// wall clock). Every later change is stamped with the clock's Now.

// consentStore is the consent data of one backend. The caller holds s.mu.
type consentStore struct {
	sets  []*consentSetRecord // creation order
	byID  map[string]*consentSetRecord
	audit []*auditRecord // oldest first
	seq   int            // ids made so far, for deterministic new ids
}

// consentSetRecord is a stored consent set.
type consentSetRecord struct {
	ID, OnboardingID, TenantID, Policy string
	UserID                             *string
	CompletedAt                        *time.Time
	CreatedAt, UpdatedAt               time.Time
	Consents                           []*consentRecord // every record ever made, revocations appended
	Metadata                           map[string]any
}

// consentRecord is one consent record; superseded marks an original that a
// revocation replaced (it is kept, never changed otherwise).
type consentRecord struct {
	ID, Type, Status     string
	Meta                 *consentMetadataRecord
	CreatedAt, UpdatedAt time.Time
	superseded           bool
}

// consentMetadataRecord is the metadata of a consent or an audit record.
type consentMetadataRecord struct {
	Timestamp string `json:"timestamp,omitempty"`
	IPAddress string `json:"ipAddress,omitempty"`
	UserAgent string `json:"userAgent,omitempty"`
	ClientID  string `json:"clientId,omitempty"`
}

// consentStateRecord is the before/after of an audit record.
type consentStateRecord struct {
	ConsentType   string  `json:"consentType"`
	ConsentStatus string  `json:"consentStatus"`
	UserID        *string `json:"userId,omitempty"`
}

// auditRecord is one audit record.
type auditRecord struct {
	ID, Action, SetID string
	At                time.Time
	Before            *consentStateRecord
	After             consentStateRecord
	Meta              consentMetadataRecord
}

// Consent types and policy literals the sandbox accepts.
var (
	consentTypes    = []string{"termsAndPrivacy", "eSignAct", "marketingNotifications", "emailNotifications", "smsNotifications"}
	optionalConsent = []string{"marketingNotifications", "emailNotifications", "smsNotifications"}
)

// consentRequired lists what a policy requires (docs/internals/sandbox.md).
func consentRequired(policy string) []string {
	if policy == "us" {
		return []string{"termsAndPrivacy", "eSignAct"}
	}
	return []string{"termsAndPrivacy"}
}

// Demo values of the seed.
const (
	consentOnboardingDemo = "onb-demo-001"
	consentUAiOS          = "AcmeWallet/4.2.0 (iPhone; iOS 18.1)"
	consentUAWeb          = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Safari/605.1.15"
	consentUAAndroid      = "AcmeWallet/4.1.3 (Pixel 8; Android 15)"
	// consentMalloryUA clears the screen, paints red, hides a link and writes
	// the clipboard when drawn raw.
	consentMalloryUA = "Mozilla/5.0 \x1b[2J\x1b[31mPWNED\x1b[0m \x1b]8;;https://evil.example/\x07support\x1b]8;;\x07\x1b]52;c;ZWNobyBoaQ==\x07\u202e"
)

// DemoUserID is the user id the sandbox gives a seeded username, so tests
// and demos can type a user id (e.g. to link a consent set to frank).
func DemoUserID(username string) string { return uuidFrom("user", strings.ToLower(username)) }

// consentOf returns be's consent data, seeding it on first use. The seed
// is laid out around now, so a data directory keeps it from then on. The
// caller holds s.mu.
func (s *Server) consentOf(be *backend, now time.Time) *consentStore {
	if be.consent == nil {
		be.consent = seedConsent(be, now.UTC().Truncate(time.Hour))
		s.keepConsentLocked(be)
	}
	return be.consent
}

// consentSeedConsent is one consent of a seeded set.
type consentSeedConsent struct{ typ, status string }

// seedConsent builds the demo consent data of be, anchored at anchor.
func seedConsent(be *backend, anchor time.Time) *consentStore {
	st := &consentStore{byID: map[string]*consentSetRecord{}}
	user := func(name string) *string {
		if u := be.byName[name]; u != nil {
			return strp(u.ID)
		}
		return nil
	}
	ios := consentMetadataRecord{IPAddress: "198.51.100.23", UserAgent: consentUAiOS, ClientID: "acme-mobile"}
	web := consentMetadataRecord{IPAddress: "203.0.113.7", UserAgent: consentUAWeb, ClientID: "acme-web"}
	switch be.key {
	case backendKey{"acme", "sandbox", "eu"}:
		if uid := user("alice@demo.test"); uid != nil {
			set := st.seedSet(be, "alice", "onb-alice-2025", "global", anchor.Add(-200*24*time.Hour), ios,
				[]consentSeedConsent{{"termsAndPrivacy", "granted"}, {"marketingNotifications", "granted"},
					{"emailNotifications", "granted"}, {"smsNotifications", "granted"}})
			st.link(set, *uid, set.CreatedAt.Add(4*time.Minute), ios)
			st.seedPreferenceHistory(set, anchor)
		}
		if uid := user("frank@demo.test"); uid != nil {
			set := st.seedSet(be, "frank", "onb-frank-2024", "global", anchor.Add(-90*24*time.Hour), web,
				[]consentSeedConsent{{"termsAndPrivacy", "denied"}, {"marketingNotifications", "granted"}})
			st.link(set, *uid, set.CreatedAt.Add(2*time.Minute), web)
		}
		if uid := user("mallory@demo.test"); uid != nil {
			evil := consentMetadataRecord{IPAddress: "192.0.2.66", UserAgent: consentMalloryUA, ClientID: "acme-web"}
			set := st.seedSet(be, "mallory", "onb-mallory\x1b[7m-2024", "global", anchor.Add(-30*24*time.Hour), evil,
				[]consentSeedConsent{{"termsAndPrivacy", "granted"}, {"smsNotifications", "denied"}})
			st.link(set, *uid, set.CreatedAt.Add(time.Minute), evil)
		}
		st.seedSet(be, "demo", consentOnboardingDemo, "global", anchor.Add(-time.Hour), web,
			[]consentSeedConsent{{"termsAndPrivacy", "granted"}, {"marketingNotifications", "denied"}, {"emailNotifications", "granted"}})
	case backendKey{"acme", "sandbox", "us"}:
		if uid := user("sam@demo.test"); uid != nil {
			set := st.seedSet(be, "sam", "onb-sam-2024", "us", anchor.Add(-120*24*time.Hour), ios,
				[]consentSeedConsent{{"termsAndPrivacy", "granted"}, {"eSignAct", "granted"}, {"smsNotifications", "granted"}})
			st.link(set, *uid, set.CreatedAt.Add(3*time.Minute), ios)
		}
	}
	return st
}

// nextID makes a deterministic id for kind in be.
func (st *consentStore) nextID(be *backend, kind string) string {
	st.seq++
	return uuidFrom("consent-"+kind, be.key.String(), fmt.Sprint(st.seq))
}

// seedSet creates a set with its creation audit records.
func (st *consentStore) seedSet(be *backend, who, onboarding, policy string, at time.Time, meta consentMetadataRecord, consents []consentSeedConsent) *consentSetRecord {
	set := &consentSetRecord{ID: uuidFrom("consent-set", be.key.String(), who), OnboardingID: onboarding,
		TenantID: be.key.Tenant, Policy: policy, CreatedAt: at, UpdatedAt: at}
	for _, c := range consents {
		m := meta
		m.Timestamp = at.Format(time.RFC3339)
		set.Consents = append(set.Consents, &consentRecord{ID: st.nextID(be, "record"), Type: c.typ, Status: c.status,
			Meta: &m, CreatedAt: at, UpdatedAt: at})
	}
	st.add(set)
	st.recordCreation(be, set, meta)
	return set
}

// add stores a new set.
func (st *consentStore) add(set *consentSetRecord) {
	st.sets = append(st.sets, set)
	st.byID[set.ID] = set
}

// recordCreation writes one `created` audit record per consent of set.
func (st *consentStore) recordCreation(be *backend, set *consentSetRecord, meta consentMetadataRecord) {
	for _, c := range set.Consents {
		m := meta
		if c.Meta != nil {
			for _, f := range [][2]*string{{&m.IPAddress, &c.Meta.IPAddress}, {&m.UserAgent, &c.Meta.UserAgent}, {&m.ClientID, &c.Meta.ClientID}} {
				if *f[1] != "" {
					*f[0] = *f[1]
				}
			}
		}
		m.Timestamp = set.CreatedAt.Format(time.RFC3339)
		st.audit = append(st.audit, &auditRecord{ID: st.nextID(be, "audit"), Action: "created", SetID: set.ID, At: set.CreatedAt,
			After: consentStateRecord{ConsentType: c.Type, ConsentStatus: c.Status}, Meta: m})
	}
}

// link links set to userID at `at`: one `updated` audit record per
// consent in force, before without and after with the user.
func (st *consentStore) link(set *consentSetRecord, userID string, at time.Time, meta consentMetadataRecord) {
	set.UserID = strp(userID)
	set.CompletedAt = &at
	set.UpdatedAt = at
	meta.Timestamp = at.Format(time.RFC3339)
	for _, c := range set.current() {
		st.audit = append(st.audit, &auditRecord{ID: uuidFrom("consent-audit", set.ID, "link", c.ID), Action: "updated", SetID: set.ID, At: at,
			Before: &consentStateRecord{ConsentType: c.Type, ConsentStatus: c.Status},
			After:  consentStateRecord{ConsentType: c.Type, ConsentStatus: c.Status, UserID: strp(userID)}, Meta: meta})
	}
}

// seedPreferenceHistory gives a set a long history of preference changes
// (the optional consents switched off and on again, 38 times each, from
// several devices), ending granted, so its audit trail spans three pages.
func (st *consentStore) seedPreferenceHistory(set *consentSetRecord, anchor time.Time) {
	const perType = 38
	metas := []consentMetadataRecord{
		{IPAddress: "198.51.100.23", UserAgent: consentUAiOS, ClientID: "acme-mobile"},
		{IPAddress: "203.0.113.7", UserAgent: consentUAWeb, ClientID: "acme-web"},
		{IPAddress: "192.0.2.140", UserAgent: consentUAAndroid},
	}
	start := set.UpdatedAt.Add(time.Hour)
	total := perType * len(optionalConsent)
	step := anchor.Add(-2*24*time.Hour).Sub(start) / time.Duration(total)
	for i := 0; i < total; i++ {
		at := start.Add(time.Duration(i) * step).Truncate(time.Minute)
		typ := optionalConsent[i%len(optionalConsent)]
		var c *consentRecord
		for _, r := range set.Consents {
			if r.Type == typ {
				c = r
			}
		}
		before := c.Status
		after := "denied"
		if before == "denied" {
			after = "granted"
		}
		m := metas[i%len(metas)]
		m.Timestamp = at.Format(time.RFC3339)
		c.Status, c.UpdatedAt, c.Meta = after, at, &m
		set.UpdatedAt = at
		st.audit = append(st.audit, &auditRecord{ID: uuidFrom("consent-audit", set.ID, "pref", fmt.Sprint(i)), Action: "updated", SetID: set.ID, At: at,
			Before: &consentStateRecord{ConsentType: typ, ConsentStatus: before},
			After:  consentStateRecord{ConsentType: typ, ConsentStatus: after}, Meta: m})
	}
}

// current is the record in force per consent type (revocations supersede
// their original), in first-seen order.
func (set *consentSetRecord) current() []*consentRecord {
	var out []*consentRecord
	for _, c := range set.Consents {
		if !c.superseded {
			out = append(out, c)
		}
	}
	return out
}

// userSets lists the sets linked to userID, in creation order.
func (st *consentStore) userSets(userID string) []*consentSetRecord {
	var out []*consentSetRecord
	for _, s := range st.sets {
		if s.UserID != nil && *s.UserID == userID {
			out = append(out, s)
		}
	}
	return out
}

// aggregate is a user's consent status over the user's sets: none without
// sets; complete when, for every type a set's policy requires, the newest
// record in force across the sets is granted; incomplete otherwise.
func aggregate(sets []*consentSetRecord) string {
	if len(sets) == 0 {
		return "none"
	}
	required := map[string]bool{}
	latest := map[string]*consentRecord{}
	for _, s := range sets {
		for _, t := range consentRequired(s.Policy) {
			required[t] = true
		}
		for _, c := range s.current() {
			if old := latest[c.Type]; old == nil || !old.UpdatedAt.After(c.UpdatedAt) {
				latest[c.Type] = c
			}
		}
	}
	for t := range required {
		if c := latest[t]; c == nil || c.Status != "granted" {
			return "incomplete"
		}
	}
	return "complete"
}

// userAudit lists the audit records of the sets linked to userID, newest
// first.
func (st *consentStore) userAudit(userID string) []*auditRecord {
	mine := map[string]bool{}
	for _, s := range st.userSets(userID) {
		mine[s.ID] = true
	}
	var out []*auditRecord
	for i := len(st.audit) - 1; i >= 0; i-- {
		if mine[st.audit[i].SetID] {
			out = append(out, st.audit[i])
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.After(out[j].At) })
	return out
}
