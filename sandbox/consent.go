package sandbox

import (
	"fmt"
	"math"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Consent (version 2) endpoints. Error bodies are {error, details:[string]}
// (498/499 and the 401 of a wrong or missing x-secret-key included). Rules
// the interface leaves open, as the sandbox decides them:
//   - A user without a linked set answers 404 on the user and audit reads:
//     that is the aggregate status `none` (the body says so); a 200 never
//     carries `none` here.
//   - Audit pages are newest first; limit is 1..100 (default 50), offset
//     >= 0 (default 0); anything else answers 400. An offset past the end
//     is an empty page.
//   - Linking accepts any user id of 1..128 printable characters (the user
//     need not exist in the sandbox); it writes one `updated` audit record
//     per consent in force (before without, after with the userId).
//   - Only a granted consent in force can be revoked; a superseded, revoked
//     or denied one answers 404, as does a consent of another set.
//   - Creation answers 201 with the new set (unlinked) and its _links.

// consentRoutes registers the consent endpoints.
func (s *Server) consentRoutes() {
	read := routeSpec{fam: familyConsent, ident: identClientKey}
	write := routeSpec{fam: familyConsent, ident: identClientKey, secret: true}
	s.handle("POST /v2/consent/onboarding", write, s.consentCreate)
	s.handle("PATCH /v2/consent/onboarding/{consentSetId}", write, s.consentLink)
	s.handle("GET /v2/consent/onboarding/{onboardingId}", read, s.consentOnboarding)
	s.handle("GET /v2/consent/user/{userId}", read, s.consentUser)
	s.handle("GET /v2/consent/user/{userId}/audit", read, s.consentAudit)
	s.handle("GET /v2/consent/consentSet/{consentSetId}", read, s.consentSetGet)
	s.handle("DELETE /v2/consent/consentSet/{consentSetId}/consent/{consentId}", write, s.consentRevoke)
}

// Wire shapes.
type (
	consentLinkJSON struct {
		Href   string `json:"href"`
		Method string `json:"method"`
	}
	consentLinks       map[string]*consentLinkJSON
	consentConsentJSON struct {
		ConsentID     string                 `json:"consentId"`
		ConsentType   string                 `json:"consentType"`
		ConsentStatus string                 `json:"consentStatus"`
		Metadata      *consentMetadataRecord `json:"metadata,omitempty"`
		CreatedAt     string                 `json:"createdAt"`
		UpdatedAt     string                 `json:"updatedAt"`
	}
	consentSetJSON struct {
		ConsentSetID string               `json:"consentSetId"`
		UserID       *string              `json:"userId"`
		OnboardingID string               `json:"onboardingId"`
		TenantID     string               `json:"tenantId"`
		PolicyType   string               `json:"policyType"`
		CompletedAt  *string              `json:"completedAt"`
		CreatedAt    string               `json:"createdAt"`
		UpdatedAt    string               `json:"updatedAt"`
		Consents     []consentConsentJSON `json:"consents"`
		Metadata     map[string]any       `json:"metadata,omitempty"`
		Links        consentLinks         `json:"_links"`
	}
	consentAuditMetaJSON struct {
		IPAddress string `json:"ipAddress"`
		UserAgent string `json:"userAgent"`
		Timestamp string `json:"timestamp"`
		ClientID  string `json:"clientId,omitempty"`
	}
	consentAuditJSON struct {
		AuditID      string               `json:"auditId"`
		Action       string               `json:"action"`
		Timestamp    string               `json:"timestamp"`
		ConsentSetID string               `json:"consentSetId"`
		Changes      map[string]any       `json:"changes"`
		Metadata     consentAuditMetaJSON `json:"metadata"`
	}
)

func consentGet(href string) *consentLinkJSON {
	return &consentLinkJSON{Href: href, Method: http.MethodGet}
}

func consentTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func consentSetPath(id string) string { return "/v2/consent/consentSet/" + url.PathEscape(id) }

func consentUserPath(id string) string { return "/v2/consent/user/" + url.PathEscape(id) }

// setJSON renders a set with its links (audit is null until linked).
func setJSON(set *consentSetRecord) consentSetJSON {
	out := consentSetJSON{ConsentSetID: set.ID, UserID: set.UserID, OnboardingID: set.OnboardingID, TenantID: set.TenantID,
		PolicyType: set.Policy, CreatedAt: consentTime(set.CreatedAt), UpdatedAt: consentTime(set.UpdatedAt),
		Consents: []consentConsentJSON{}, Metadata: set.Metadata,
		Links: consentLinks{"self": consentGet(consentSetPath(set.ID)), "audit": nil,
			"onboarding": consentGet("/v2/consent/onboarding/" + url.PathEscape(set.OnboardingID))}}
	if set.CompletedAt != nil {
		out.CompletedAt = strp(consentTime(*set.CompletedAt))
	}
	if set.UserID != nil {
		out.Links["audit"] = consentGet(consentUserPath(*set.UserID) + "/audit")
	}
	for _, c := range set.Consents {
		out.Consents = append(out.Consents, consentConsentJSON{ConsentID: c.ID, ConsentType: c.Type, ConsentStatus: c.Status,
			Metadata: c.Meta, CreatedAt: consentTime(c.CreatedAt), UpdatedAt: consentTime(c.UpdatedAt)})
	}
	return out
}

func setsJSON(sets []*consentSetRecord) []consentSetJSON { return convertAll(sets, setJSON) }

// consentFail answers a consent error.
func (c *call) consentFail(status int, msg string, details ...string) {
	writeConsentError(c.w, status, msg, details...)
}

// requestMeta is the metadata the sandbox records for a change made by r.
func (c *call) requestMeta(now time.Time) consentMetadataRecord {
	ip, _, err := net.SplitHostPort(c.r.RemoteAddr)
	if err != nil {
		ip = c.r.RemoteAddr
	}
	ua := c.r.UserAgent()
	if ua == "" {
		ua = "unknown"
	}
	return consentMetadataRecord{Timestamp: consentTime(now), IPAddress: ip, UserAgent: ua, ClientID: c.cred.ClientID}
}

// validUserID checks a user id to link to.
func validUserID(id string) string {
	switch {
	case strings.TrimSpace(id) == "":
		return "userId is required and must be a non-empty string"
	case len(id) > 128:
		return "userId must be at most 128 characters"
	case strings.IndexFunc(id, func(r rune) bool { return !unicode.IsPrint(r) || unicode.IsSpace(r) }) >= 0:
		return "userId must not contain spaces or control characters"
	}
	return ""
}

// consentLink: PATCH /v2/consent/onboarding/{consentSetId} {userId}.
func (s *Server) consentLink(c *call) {
	var in struct {
		UserID *string `json:"userId"`
	}
	if !c.decode(&in) {
		return
	}
	uid := ""
	if in.UserID != nil {
		uid = strings.TrimSpace(*in.UserID)
	}
	if msg := validUserID(uid); msg != "" {
		c.consentFail(http.StatusBadRequest, "Validation failed", msg)
		return
	}
	id := c.r.PathValue("consentSetId")
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	st := s.consentOf(c.be, now)
	set := st.byID[id]
	switch {
	case set == nil:
		c.consentFail(http.StatusNotFound, "Consent set not found", "no consent set with id "+id)
		return
	case set.UserID != nil:
		c.consentFail(http.StatusConflict, "Consent set already linked",
			fmt.Sprintf("consent set %s was linked to user %s at %s", set.ID, *set.UserID, consentTime(*set.CompletedAt)),
			"linking is recorded in the audit trail and cannot be undone")
		return
	}
	st.link(set, uid, now, c.requestMeta(now))
	s.keepConsentLocked(c.be)
	for _, r := range set.Consents {
		if r.Status == "granted" && !r.superseded {
			s.emitLocked(c.be, uid, WebhookEventConsentGranted, r.ID, map[string]any{
				"consentSetId": set.ID, "onboardingId": set.OnboardingID, "consentId": r.ID,
				"consentType": r.Type, "consentStatus": r.Status,
			})
		}
	}
	c.json(http.StatusOK, map[string]any{
		"consentSetId": set.ID, "userId": uid, "completedAt": consentTime(*set.CompletedAt), "consentSet": setJSON(set),
		"_links": consentLinks{"self": consentGet(consentSetPath(set.ID)), "audit": consentGet(consentUserPath(uid) + "/audit")},
	})
}

// consentOnboarding: GET /v2/consent/onboarding/{onboardingId}.
func (s *Server) consentOnboarding(c *call) {
	id := c.r.PathValue("onboardingId")
	s.mu.Lock()
	defer s.mu.Unlock()
	var sets []*consentSetRecord
	for _, set := range s.consentOf(c.be, s.now()).sets {
		if set.OnboardingID == id {
			sets = append(sets, set)
		}
	}
	if len(sets) == 0 {
		c.consentFail(http.StatusNotFound, "No consent sets found", "no consent set for onboarding id "+id)
		return
	}
	c.json(http.StatusOK, map[string]any{"onboardingId": id, "consentSets": setsJSON(sets),
		"_links": consentLinks{"self": consentGet("/v2/consent/onboarding/" + url.PathEscape(id))}})
}

// consentUser: GET /v2/consent/user/{userId}?full=true.
func (s *Server) consentUser(c *call) {
	id := c.r.PathValue("userId")
	full := strings.EqualFold(c.r.URL.Query().Get("full"), "true")
	s.mu.Lock()
	defer s.mu.Unlock()
	sets := s.consentOf(c.be, s.now()).userSets(id)
	if len(sets) == 0 {
		c.consentFail(http.StatusNotFound, "No consent set found", "user "+id+" has no consent set (consent status none)")
		return
	}
	self, audit := consentUserPath(id), consentGet(consentUserPath(id)+"/audit")
	if !full {
		c.json(http.StatusOK, map[string]any{"userId": id, "consentStatus": aggregate(sets),
			"_links": consentLinks{"self": consentGet(self), "full": consentGet(self + "?full=true"), "audit": audit}})
		return
	}
	c.json(http.StatusOK, map[string]any{"userId": id, "consentStatus": aggregate(sets), "consentSets": setsJSON(sets),
		"_links": consentLinks{"self": consentGet(self + "?full=true"), "audit": audit}})
}

// consentQueryInt reads an integer query parameter within lo..hi.
func consentQueryInt(q url.Values, name string, def, lo, hi int) (int, string) {
	v := strings.TrimSpace(q.Get(name))
	if v == "" {
		return def, ""
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		if hi == math.MaxInt32 {
			return 0, fmt.Sprintf("%s must be an integer of at least %d", name, lo)
		}
		return 0, fmt.Sprintf("%s must be an integer from %d to %d", name, lo, hi)
	}
	return n, ""
}

// consentAudit: GET /v2/consent/user/{userId}/audit?limit&offset.
func (s *Server) consentAudit(c *call) {
	id := c.r.PathValue("userId")
	q := c.r.URL.Query()
	limit, bad1 := consentQueryInt(q, "limit", 50, 1, 100)
	// offset is bounded so that offset+limit cannot overflow into a
	// negative next link.
	offset, bad2 := consentQueryInt(q, "offset", 0, 0, math.MaxInt32)
	if bad1 != "" || bad2 != "" {
		var details []string
		for _, d := range []string{bad1, bad2} {
			if d != "" {
				details = append(details, d)
			}
		}
		c.consentFail(http.StatusBadRequest, "Invalid pagination", details...)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.consentOf(c.be, s.now())
	if len(st.userSets(id)) == 0 {
		c.consentFail(http.StatusNotFound, "No consent set found", "user "+id+" has no consent set, so no audit trail")
		return
	}
	all := st.userAudit(id)
	page := []consentAuditJSON{}
	for i := offset; i < len(all) && i < offset+limit; i++ {
		a := all[i]
		changes := map[string]any{"before": nil, "after": a.After}
		if a.Before != nil {
			changes["before"] = a.Before
		}
		page = append(page, consentAuditJSON{AuditID: a.ID, Action: a.Action, Timestamp: consentTime(a.At), ConsentSetID: a.SetID,
			Changes: changes, Metadata: consentAuditMetaJSON{IPAddress: a.Meta.IPAddress, UserAgent: a.Meta.UserAgent,
				Timestamp: a.Meta.Timestamp, ClientID: a.Meta.ClientID}})
	}
	at := func(off int) *consentLinkJSON {
		return consentGet(fmt.Sprintf("%s/audit?limit=%d&offset=%d", consentUserPath(id), limit, off))
	}
	links := consentLinks{"self": at(offset), "next": nil, "prev": nil}
	if offset+limit < len(all) {
		links["next"] = at(offset + limit)
	}
	if offset > 0 {
		links["prev"] = at(max(min(offset, len(all))-limit, 0))
	}
	c.json(http.StatusOK, map[string]any{"userId": id, "auditRecords": page,
		"pagination": map[string]int{"total": len(all), "limit": limit, "offset": offset}, "_links": links})
}

// consentSetGet: GET /v2/consent/consentSet/{consentSetId}.
func (s *Server) consentSetGet(c *call) {
	id := c.r.PathValue("consentSetId")
	s.mu.Lock()
	defer s.mu.Unlock()
	set := s.consentOf(c.be, s.now()).byID[id]
	if set == nil {
		c.consentFail(http.StatusNotFound, "Consent set not found", "no consent set with id "+id)
		return
	}
	c.json(http.StatusOK, setJSON(set))
}
