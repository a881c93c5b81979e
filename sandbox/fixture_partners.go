package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// partnerFixture is p's stored form. withHistory puts its events and
// deliveries in it (a fixture file); a data directory keeps them apart.
// Call with s.mu held and encode the result before unlocking (it shares
// p's slices).
func partnerFixture(p *webhookPartner, withHistory bool) fixturePartner {
	out := fixturePartner{Tenant: p.home.Tenant, Environment: p.home.Env, Created: p.seq, Configurations: []fixtureWebhook{}}
	for _, h := range p.hooks {
		out.Configurations = append(out.Configurations, fixtureWebhook{ID: h.ID, Name: h.Name, URL: h.URL, APIKey: h.APIKey,
			EventTypes: h.EventTypes, Active: h.Active, Metadata: h.Metadata, CreatedAt: h.CreatedAt, UpdatedAt: h.UpdatedAt,
			LastDelivery: h.last})
		if withHistory {
			out.Configurations[len(out.Configurations)-1].Deliveries = h.deliveries
		}
	}
	if withHistory {
		out.Events = p.events
	}
	return out
}

// numberHistory numbers p's events and each configuration's deliveries
// from 1 where they came without numbers (a fixture file), as
// fixtureRecords numbers their records; from a data directory they come
// numbered by their keys.
func numberHistory(p *webhookPartner) {
	if slices.ContainsFunc(p.events, func(e keptEvent) bool { return e.seq == 0 }) {
		for i := range p.events {
			p.events[i].seq = i + 1
		}
	}
	p.eventSeq = lastSeq(p.events, func(e keptEvent) int { return e.seq })
	for _, h := range p.hooks {
		if slices.ContainsFunc(h.deliveries, func(d *webhookDeliveryRecord) bool { return d.seq == 0 }) {
			for i, d := range h.deliveries {
				d.seq = i + 1
			}
		}
		h.deliverySeq = lastSeq(h.deliveries, func(d *webhookDeliveryRecord) int { return d.seq })
	}
}

// lastSeq is the number of the last of list, 0 when it is empty.
func lastSeq[T any](list []T, seq func(T) int) int {
	if len(list) == 0 {
		return 0
	}
	return seq(list[len(list)-1])
}

// deliveryStates are the states a delivery may be stored in.
var deliveryStates = []string{webhookPending, webhookRetrying, webhookDelivered, webhookFailed}

// applyPartner checks in and puts it in place of the partner's webhooks.
func (s *Server) applyPartner(path string, in fixturePartner) error {
	home := s.backends[backendKey{in.Tenant, in.Environment, "eu"}]
	switch {
	case home == nil:
		return fixtureProblem(path, "no tenant %q with environment %q in the sandbox", in.Tenant, in.Environment)
	case len(in.Configurations) > webhookMaxPerPartner:
		return fixtureProblem(path+".configurations", "at most %d configurations per partner", webhookMaxPerPartner)
	case in.Created < len(in.Configurations):
		return fixtureProblem(path+".created", "must be at least the number of configurations (%d)", len(in.Configurations))
	}
	p := &webhookPartner{home: home.key, seq: in.Created, stored: true}
	if err := checkKeptEvents(path+".events", in.Events); err != nil {
		return err
	}
	p.events = slices.Clone(in.Events)
	for i, h := range in.Configurations {
		at := fmt.Sprintf("%s.configurations[%d]", path, i)
		if err := checkFixtureWebhook(at, h); err != nil {
			return err
		}
		if p.find(h.ID) != nil {
			return fixtureProblem(at+".id", "%q appears twice", h.ID)
		}
		h.Deliveries = cloneDeliveries(h.Deliveries) // in is applied twice at a start: once to check it
		p.hooks = append(p.hooks, &webhookConfig{ID: h.ID, Name: h.Name, URL: h.URL, APIKey: h.APIKey,
			EventTypes: h.EventTypes, Active: h.Active, Metadata: h.Metadata, CreatedAt: h.CreatedAt, UpdatedAt: h.UpdatedAt,
			last: h.LastDelivery, deliveries: h.Deliveries})
	}
	numberHistory(p)
	for _, h := range p.hooks {
		for _, d := range interruptDeliveries(h.deliveries, s.now()) {
			s.keepDeliveriesLocked(p, h, d, nil) // stored as failed with the next commit
		}
	}
	home.webhooks = p
	return nil
}

// cloneDeliveries copies deliveries, each with its attempts.
func cloneDeliveries(deliveries []*webhookDeliveryRecord) (out []*webhookDeliveryRecord) {
	for _, d := range deliveries {
		copied := *d
		copied.Attempts = slices.Clone(d.Attempts)
		out = append(out, &copied)
	}
	return out
}

// checkFixtureWebhook applies the create rules to a stored configuration.
func checkFixtureWebhook(path string, h fixtureWebhook) error {
	switch {
	case h.ID == "":
		return fixtureProblem(path+".id", "is required")
	case strings.TrimSpace(h.Name) == "" || utf8.RuneCountInString(h.Name) > webhookMaxName:
		return fixtureProblem(path+".name", "must be 1 to %d characters", webhookMaxName)
	case webhookCheckURL(h.URL) != "":
		return fixtureProblem(path+".url", "%s", webhookCheckURL(h.URL))
	case len(h.APIKey) < 16:
		return fixtureProblem(path+".apiKey", "must be the signing key in full (at least 16 characters)")
	case len(h.EventTypes) == 0:
		return fixtureProblem(path+".eventTypes", "at least one event type is required")
	case len(h.Metadata) == 0 || bytes.TrimSpace(h.Metadata)[0] != '{':
		return fixtureProblem(path+".metadata", "must be an object")
	case len(h.Deliveries) > webhookHistorySize:
		return fixtureProblem(path+".deliveries", "at most %d deliveries are kept", webhookHistorySize)
	}
	for i, e := range h.EventTypes {
		if !webhookEventRE.get().MatchString(e) {
			return fixtureProblem(fmt.Sprintf("%s.eventTypes[%d]", path, i), "%q is not a dotted lower-case event type", e)
		}
	}
	for i, d := range h.Deliveries {
		at := fmt.Sprintf("%s.deliveries[%d]", path, i)
		switch {
		case d == nil || d.EventID == "":
			return fixtureProblem(at+".eventId", "is required")
		case !slices.Contains(deliveryStates, d.State):
			return fixtureProblem(at+".state", "must be one of %s", strings.Join(deliveryStates, ", "))
		case len(d.Event) > 0 && !json.Valid(d.Event):
			return fixtureProblem(at+".event", "is not a JSON object")
		}
	}
	return nil
}

// interruptDeliveries ends the deliveries a stopped sandbox left under
// way: nothing sends them any more, so they failed (a resend sends them
// again). It returns them.
func interruptDeliveries(deliveries []*webhookDeliveryRecord, now time.Time) (interrupted []*webhookDeliveryRecord) {
	for _, d := range deliveries {
		if d.State == webhookPending || d.State == webhookRetrying {
			d.State = webhookFailed
			d.Attempts = append(d.Attempts, webhookAttempt{Attempt: len(d.Attempts) + 1, At: now,
				Error: "not sent: the sandbox stopped first; resend the event (cardterm sandbox resend " + d.EventID + ")"})
			interrupted = append(interrupted, d)
		}
	}
	return interrupted
}

// consentFixture is be's consent data in its stored form. Call with s.mu held.
func consentFixture(be *backend, st *consentStore) fixtureConsent {
	out := fixtureConsent{Tenant: be.key.Tenant, Environment: be.key.Env, Region: be.key.Region, Created: st.seq,
		Sets: []fixtureConsentSet{}, Audit: []fixtureAudit{}}
	for _, set := range st.sets {
		fs := fixtureConsentSet{ID: set.ID, OnboardingID: set.OnboardingID, TenantID: set.TenantID, PolicyType: set.Policy,
			UserID: set.UserID, CompletedAt: set.CompletedAt, CreatedAt: set.CreatedAt, UpdatedAt: set.UpdatedAt,
			Consents: []fixtureConsentRecord{}, Metadata: set.Metadata}
		for _, r := range set.Consents {
			fs.Consents = append(fs.Consents, fixtureConsentRecord{ID: r.ID, Type: r.Type, Status: r.Status, Metadata: r.Meta,
				CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, Superseded: r.superseded})
		}
		out.Sets = append(out.Sets, fs)
	}
	for _, a := range st.audit {
		out.Audit = append(out.Audit, fixtureAudit{ID: a.ID, Action: a.Action, SetID: a.SetID, At: a.At, Before: a.Before,
			After: a.After, Metadata: a.Meta})
	}
	return out
}

// consentStatuses are the statuses a consent record may have.
var consentStatuses = []string{"granted", "denied", "revoked"}

// applyConsent checks in and puts it in place of the backend's consent data.
func (s *Server) applyConsent(path string, in fixtureConsent) error {
	be := s.backends[backendKey{in.Tenant, in.Environment, in.Region}]
	if be == nil {
		return fixtureProblem(path, "no backend %s/%s/%s in the sandbox", in.Tenant, in.Environment, in.Region)
	}
	st := &consentStore{byID: map[string]*consentSetRecord{}, seq: in.Created}
	for i, fs := range in.Sets {
		at := fmt.Sprintf("%s.sets[%d]", path, i)
		switch {
		case fs.ID == "" || st.byID[fs.ID] != nil:
			return fixtureProblem(at+".consentSetId", "is required and must be unique")
		case fs.PolicyType != "global" && fs.PolicyType != "us":
			return fixtureProblem(at+".policyType", "must be global or us, not %q", fs.PolicyType)
		}
		set := &consentSetRecord{ID: fs.ID, OnboardingID: fs.OnboardingID, TenantID: fs.TenantID, Policy: fs.PolicyType,
			UserID: fs.UserID, CompletedAt: fs.CompletedAt, CreatedAt: fs.CreatedAt, UpdatedAt: fs.UpdatedAt, Metadata: fs.Metadata}
		for j, r := range fs.Consents {
			rat := fmt.Sprintf("%s.consents[%d]", at, j)
			switch {
			case r.ID == "":
				return fixtureProblem(rat+".consentId", "is required")
			case !slices.Contains(consentTypes, r.Type):
				return fixtureProblem(rat+".consentType", "must be one of %s", strings.Join(consentTypes, ", "))
			case !slices.Contains(consentStatuses, r.Status):
				return fixtureProblem(rat+".consentStatus", "must be one of %s", strings.Join(consentStatuses, ", "))
			}
			set.Consents = append(set.Consents, &consentRecord{ID: r.ID, Type: r.Type, Status: r.Status, Meta: r.Metadata,
				CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, superseded: r.Superseded})
		}
		st.sets = append(st.sets, set)
		st.byID[set.ID] = set
	}
	for i, a := range in.Audit {
		if st.byID[a.SetID] == nil {
			return fixtureProblem(fmt.Sprintf("%s.audit[%d].consentSetId", path, i), "%q is not a set of this backend", a.SetID)
		}
		st.audit = append(st.audit, &auditRecord{ID: a.ID, Action: a.Action, SetID: a.SetID, At: a.At, Before: a.Before,
			After: a.After, Meta: a.Metadata})
	}
	be.consent = st
	return nil
}

// applyPIN checks in and records the PIN of its card.
func (s *Server) applyPIN(path string, in fixturePIN) error {
	if in.CardID == "" {
		return fixtureProblem(path+".cardId", "is required")
	}
	if problem := checkPIN(in.PIN, in.PIN); problem != "" {
		return fixtureProblem(path+".pin", "%s", problem)
	}
	s.pinStore().pins[in.CardID] = in.PIN
	return nil
}

// applyFixture puts every part of f in place of the seed's: the one path
// of a data directory's start, an import's check and an import. Call on a
// server no request has reached yet.
func (s *Server) applyFixture(f *fixture) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f.Format != fixtureFormat {
		return fixtureProblem("format", "must be %q (this is not a cardterm sandbox fixture)", fixtureFormat)
	}
	if f.Version != fixtureVersion {
		return fixtureProblem("version", "version %d is not supported (this cardterm reads version %d)", f.Version, fixtureVersion)
	}
	seen := map[string]bool{}
	for i, u := range f.Users {
		path := fmt.Sprintf("users[%d]", i)
		if seen[u.ID] {
			return fixtureProblem(path+".id", "user %q appears twice", u.ID)
		}
		seen[u.ID] = true
		if err := s.applyUser(path, u); err != nil {
			return err
		}
	}
	for i, p := range f.Webhooks {
		if err := s.applyPartner(fmt.Sprintf("webhooks[%d]", i), p); err != nil {
			return err
		}
	}
	for i, c := range f.Consent {
		if err := s.applyConsent(fmt.Sprintf("consent[%d]", i), c); err != nil {
			return err
		}
	}
	for i, p := range f.PINs {
		if err := s.applyPIN(fmt.Sprintf("pins[%d]", i), p); err != nil {
			return err
		}
	}
	return s.applySessions(f)
}
