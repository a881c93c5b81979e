package sandbox

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// consentRevoke: DELETE /v2/consent/consentSet/{consentSetId}/consent/{consentId}.
// The original record is kept (marked superseded); a new revoked record
// with a new id is appended and an audit record `revoked` is written.
func (s *Server) consentRevoke(c *call) {
	setID, consentID := c.r.PathValue("consentSetId"), c.r.PathValue("consentId")
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	st := s.consentOf(c.be, now)
	set := st.byID[setID]
	if set == nil {
		c.consentFail(http.StatusNotFound, "Consent set not found", "no consent set with id "+setID)
		return
	}
	var orig *consentRecord
	for _, r := range set.Consents {
		if r.ID == consentID {
			orig = r
		}
	}
	switch {
	case orig == nil:
		for _, other := range st.sets {
			if other != set && slices.ContainsFunc(other.Consents, func(r *consentRecord) bool { return r.ID == consentID }) {
				c.consentFail(http.StatusNotFound, "Consent not found", "consent "+consentID+" belongs to another consent set")
				return
			}
		}
		c.consentFail(http.StatusNotFound, "Consent not found", "no consent "+consentID+" in consent set "+setID)
		return
	case orig.superseded || orig.Status == "revoked":
		c.consentFail(http.StatusNotFound, "Consent already revoked", "consent "+consentID+" ("+orig.Type+") is already revoked")
		return
	case orig.Status != "granted":
		c.consentFail(http.StatusNotFound, "Consent not granted", "consent "+consentID+" ("+orig.Type+") is "+orig.Status+"; only a granted consent can be revoked")
		return
	}
	meta := c.requestMeta(now)
	rec := &consentRecord{ID: st.nextID(c.be, "record"), Type: orig.Type, Status: "revoked", Meta: &meta, CreatedAt: now, UpdatedAt: now}
	orig.superseded = true
	set.Consents = append(set.Consents, rec)
	set.UpdatedAt = now
	st.audit = append(st.audit, &auditRecord{ID: st.nextID(c.be, "audit"), Action: "revoked", SetID: set.ID, At: now,
		Before: &consentStateRecord{ConsentType: orig.Type, ConsentStatus: orig.Status},
		After:  consentStateRecord{ConsentType: orig.Type, ConsentStatus: "revoked"}, Meta: meta})
	s.keepConsentLocked(c.be)
	userID := ""
	if set.UserID != nil {
		userID = *set.UserID
	}
	s.emitLocked(c.be, userID, WebhookEventConsentRevoked, rec.ID, map[string]any{
		"consentSetId": set.ID, "consentId": rec.ID, "revokedConsentId": orig.ID,
		"consentType": rec.Type, "consentStatus": "revoked", "revocationTimestamp": consentTime(now),
	})
	links := consentLinks{"consentSet": consentGet(consentSetPath(set.ID)), "audit": nil}
	if set.UserID != nil {
		links["audit"] = consentGet(consentUserPath(*set.UserID) + "/audit")
	}
	c.json(http.StatusOK, map[string]any{"consentId": rec.ID, "consentSetId": set.ID, "consentType": rec.Type,
		"consentStatus": "revoked", "revocationTimestamp": consentTime(now), "_links": links})
}

// consentNewConsent is one consent of a creation request.
type consentNewConsent struct {
	ConsentType   string                 `json:"consentType"`
	ConsentStatus string                 `json:"consentStatus"`
	Metadata      *consentMetadataRecord `json:"metadata"`
}

// consentCreate: POST /v2/consent/onboarding -> 201 with the new, unlinked
// set. All problems are listed in details at once.
func (s *Server) consentCreate(c *call) {
	var in struct {
		OnboardingID string              `json:"onboardingId"`
		TenantID     string              `json:"tenantId"`
		PolicyType   string              `json:"policyType"`
		Consents     []consentNewConsent `json:"consents"`
		Metadata     map[string]any      `json:"metadata"`
	}
	if !c.decode(&in) {
		return
	}
	var problems []string
	onb := strings.TrimSpace(in.OnboardingID)
	switch {
	case onb == "":
		problems = append(problems, "onboardingId is required")
	case len(onb) > 128 || strings.ContainsAny(onb, "/?#") || validUserID(onb) != "":
		problems = append(problems, "onboardingId must be 1 to 128 printable characters without spaces, '/', '?' or '#'")
	}
	policy := strings.TrimSpace(in.PolicyType)
	switch policy {
	case "global":
	case "us", "US":
		policy = "us"
	case "":
		problems = append(problems, "policyType is required (global or us)")
	default:
		problems = append(problems, "policyType must be global or us, not "+policy)
	}
	if len(in.Consents) == 0 {
		problems = append(problems, "consents must hold at least one consent")
	}
	seen := map[string]bool{}
	for i, k := range in.Consents {
		switch {
		case !slices.Contains(consentTypes, k.ConsentType):
			problems = append(problems, fmt.Sprintf("consents[%d].consentType must be one of %s", i, strings.Join(consentTypes, ", ")))
		case seen[k.ConsentType]:
			problems = append(problems, fmt.Sprintf("consents[%d].consentType %s is given twice", i, k.ConsentType))
		}
		seen[k.ConsentType] = true
		if k.ConsentStatus != "granted" && k.ConsentStatus != "denied" {
			problems = append(problems, fmt.Sprintf("consents[%d].consentStatus must be granted or denied", i))
		}
	}
	if len(problems) > 0 {
		c.consentFail(http.StatusBadRequest, "Validation failed", problems...)
		return
	}
	tenant := strings.TrimSpace(in.TenantID)
	if tenant == "" {
		tenant = c.cred.Tenant
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	st := s.consentOf(c.be, now)
	reqMeta := c.requestMeta(now)
	set := &consentSetRecord{ID: st.nextID(c.be, "set"), OnboardingID: onb, TenantID: tenant, Policy: policy,
		CreatedAt: now, UpdatedAt: now, Metadata: in.Metadata}
	for _, k := range in.Consents {
		m := reqMeta
		if k.Metadata != nil {
			m = *k.Metadata
			if m.Timestamp == "" {
				m.Timestamp = reqMeta.Timestamp
			}
		}
		set.Consents = append(set.Consents, &consentRecord{ID: st.nextID(c.be, "record"), Type: k.ConsentType,
			Status: k.ConsentStatus, Meta: &m, CreatedAt: now, UpdatedAt: now})
	}
	st.add(set)
	st.recordCreation(c.be, set, reqMeta)
	s.keepConsentLocked(c.be)
	c.json(http.StatusCreated, setJSON(set))
}
