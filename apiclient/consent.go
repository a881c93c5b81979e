package apiclient

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Consent values, as the interface names them. Other values may arrive;
// they are kept and shown as they are.
const (
	ConsentComplete   = "complete"
	ConsentIncomplete = "incomplete"
	ConsentNone       = "none"

	ConsentGranted = "granted"
	ConsentDenied  = "denied"
	ConsentRevoked = "revoked"

	ConsentESignAct       = "eSignAct"
	ConsentTermsPrivacy   = "termsAndPrivacy"
	ConsentMarketing      = "marketingNotifications"
	ConsentSMS            = "smsNotifications"
	ConsentEmail          = "emailNotifications"
	ConsentPolicyGlobal   = "global"
	ConsentPolicyUS       = "us"
	AuditActionCreated    = "created"
	AuditActionUpdated    = "updated"
	AuditActionRevoked    = "revoked"
	ConsentAuditMaxLimit  = 100
	ConsentAuditPageLimit = 50
)

// ConsentTypes lists every consent type in the order forms and tables show
// them: the required ones first.
var ConsentTypes = []string{ConsentTermsPrivacy, ConsentESignAct, ConsentMarketing, ConsentEmail, ConsentSMS}

// errNoSecret is returned, before anything is sent, by the consent
// mutations when the client has no secret key.
func errNoSecret(op string) error {
	return settingError(op, "the secret key is needed: set CARDTERM_SECRET_KEY")
}

// ConsentLink is one `_links` entry; an absent link is null (nil).
type ConsentLink struct {
	Href   string `json:"href"`
	Method string `json:"method"`
}

// ConsentLinks are the `_links` of a consent answer, by name (self, full,
// audit, next, prev, consentSet, ...).
type ConsentLinks map[string]*ConsentLink

// ConsentMetadata is what was recorded with a consent or an audit record.
type ConsentMetadata struct {
	Timestamp string `json:"timestamp,omitempty"`
	IPAddress string `json:"ipAddress,omitempty"`
	UserAgent string `json:"userAgent,omitempty"`
	ClientID  string `json:"clientId,omitempty"`
	Extra     Extra  `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// Consent is one consent record of a set. A revocation adds a new record
// (status revoked) and keeps the original; CurrentConsents picks the
// records in force.
type Consent struct {
	ConsentID     string           `json:"consentId"`
	ConsentType   string           `json:"consentType"`
	ConsentStatus string           `json:"consentStatus"`
	Metadata      *ConsentMetadata `json:"metadata,omitempty"`
	CreatedAt     string           `json:"createdAt"`
	UpdatedAt     string           `json:"updatedAt"`
	Extra         Extra            `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// ConsentSet is the set of consents given at one onboarding; UserID is nil
// until it is linked to a user.
type ConsentSet struct {
	ConsentSetID string       `json:"consentSetId"`
	UserID       *string      `json:"userId"`
	OnboardingID string       `json:"onboardingId"`
	TenantID     string       `json:"tenantId"`
	PolicyType   string       `json:"policyType"`
	CompletedAt  *string      `json:"completedAt"`
	CreatedAt    string       `json:"createdAt"`
	UpdatedAt    string       `json:"updatedAt"`
	Consents     []Consent    `json:"consents"`
	Links        ConsentLinks `json:"_links,omitempty"`
	Extra        Extra        `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// Linked reports whether the set belongs to a user.
func (s ConsentSet) Linked() bool { return s.UserID != nil && *s.UserID != "" }

// LinkResult is the answer to LinkConsentSet.
type LinkResult struct {
	ConsentSetID string       `json:"consentSetId"`
	UserID       string       `json:"userId"`
	CompletedAt  *string      `json:"completedAt"`
	ConsentSet   ConsentSet   `json:"consentSet"`
	Links        ConsentLinks `json:"_links"`
	Extra        Extra        `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// OnboardingConsentSets is the answer to OnboardingConsents: every set of
// one onboarding, linked or not.
type OnboardingConsentSets struct {
	OnboardingID string       `json:"onboardingId"`
	ConsentSets  []ConsentSet `json:"consentSets"`
	Links        ConsentLinks `json:"_links"`
	Extra        Extra        `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// UserConsentStatus is a user's aggregate consent status; ConsentSets is
// filled in full mode only.
type UserConsentStatus struct {
	UserID        string       `json:"userId"`
	ConsentStatus string       `json:"consentStatus"`
	ConsentSets   []ConsentSet `json:"consentSets,omitempty"`
	Links         ConsentLinks `json:"_links"`
	Extra         Extra        `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// ConsentState is a consent's type and status, as an audit record's
// changes.before and changes.after show it.
type ConsentState struct {
	ConsentType   string `json:"consentType"`
	ConsentStatus string `json:"consentStatus"`
	Extra         Extra  `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// AuditChanges is what an audit record changed; Before is nil on creation.
type AuditChanges struct {
	Before *ConsentState `json:"before"`
	After  ConsentState  `json:"after"`
}

// AuditRecord is one immutable entry of a user's consent audit trail.
type AuditRecord struct {
	AuditID      string          `json:"auditId"`
	Action       string          `json:"action"`
	Timestamp    string          `json:"timestamp"`
	ConsentSetID string          `json:"consentSetId"`
	Changes      AuditChanges    `json:"changes"`
	Metadata     ConsentMetadata `json:"metadata"`
	Extra        Extra           `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// Pagination says where a page sits in the whole list.
type Pagination struct {
	Total  int `json:"total"`
	Limit  int `json:"limit"`
	Offset int `json:"offset"`
}

// ConsentAuditPage is one page of a user's audit trail; Links["next"] and
// Links["prev"] are nil at the ends.
type ConsentAuditPage struct {
	UserID       string        `json:"userId"`
	AuditRecords []AuditRecord `json:"auditRecords"`
	Pagination   Pagination    `json:"pagination"`
	Links        ConsentLinks  `json:"_links"`
	Extra        Extra         `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// RevokedConsent is the answer to RevokeConsent: ConsentID is the id of the
// new revoked record, not of the one revoked.
type RevokedConsent struct {
	ConsentID           string       `json:"consentId"`
	ConsentSetID        string       `json:"consentSetId"`
	ConsentType         string       `json:"consentType"`
	ConsentStatus       string       `json:"consentStatus"`
	RevocationTimestamp string       `json:"revocationTimestamp"`
	Links               ConsentLinks `json:"_links"`
	Extra               Extra        `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// NewConsent is one consent of a CreateConsentSet request.
type NewConsent struct {
	ConsentType   string           `json:"consentType"`
	ConsentStatus string           `json:"consentStatus"`
	Metadata      *ConsentMetadata `json:"metadata,omitempty"`
}

// NewConsentSet is the body of CreateConsentSet. TenantID "" is left out
// (the gateway uses the client key's tenant).
type NewConsentSet struct {
	OnboardingID string         `json:"onboardingId"`
	TenantID     string         `json:"tenantId,omitempty"`
	PolicyType   string         `json:"policyType"`
	Consents     []NewConsent   `json:"consents"`
	Metadata     map[string]any `json:"metadata,omitempty"`
}

// LinkConsentSet links a consent set to a user, once: a second link answers
// 409 (check with IsStatus(err, 409)). It needs Config.SecretKey.
func (c *Client) LinkConsentSet(ctx context.Context, consentSetID, userID string) (LinkResult, error) {
	const op = "LinkConsentSet"
	userID = strings.TrimSpace(userID)
	switch {
	case c.secretKey() == "":
		return LinkResult{}, errNoSecret(op)
	case strings.TrimSpace(consentSetID) == "":
		return LinkResult{}, &Error{Op: op, Message: "a consent set id is required"}
	case userID == "":
		return LinkResult{}, &Error{Op: op, Message: "a user id is required"}
	}
	var out LinkResult
	r := LinkConsentSetCall(consentSetID, userID).r
	r.out = &out
	err := c.do(ctx, r)
	return out, err
}

// LinkConsentSetCall declares the request LinkConsentSet sends.
func LinkConsentSetCall(consentSetID, userID string) Call {
	return Call{request{op: "LinkConsentSet", method: http.MethodPatch, path: pathf("/v2/consent/onboarding/%s", consentSetID),
		body: map[string]string{"userId": strings.TrimSpace(userID)}, family: familySecret}}
}

// OnboardingConsents lists the consent sets of an onboarding, linked ones
// included; 404 when there are none.
func (c *Client) OnboardingConsents(ctx context.Context, onboardingID string) (OnboardingConsentSets, error) {
	onboardingID = strings.TrimSpace(onboardingID)
	if onboardingID == "" {
		return OnboardingConsentSets{}, &Error{Op: "OnboardingConsents", Message: "an onboarding id is required"}
	}
	var out OnboardingConsentSets
	err := c.do(ctx, request{op: "OnboardingConsents", method: http.MethodGet,
		path: pathf("/v2/consent/onboarding/%s", onboardingID), family: familyClient, out: &out})
	return out, err
}

// UserConsent reads a user's aggregate consent status (and, when full, the
// user's consent sets). A user without any consent set answers 404: that
// is the status "none", so screens check IsNotFound and show it as such.
func (c *Client) UserConsent(ctx context.Context, userID string, full bool) (UserConsentStatus, error) {
	userID = strings.TrimSpace(userID)
	if userID == "" {
		return UserConsentStatus{}, &Error{Op: "UserConsent", Message: "a user id is required"}
	}
	var q url.Values
	if full {
		q = url.Values{"full": {"true"}}
	}
	var out UserConsentStatus
	err := c.do(ctx, request{op: "UserConsent", method: http.MethodGet, path: pathf("/v2/consent/user/%s", userID),
		query: q, family: familyClient, out: &out})
	return out, err
}

// ConsentAudit reads one page of a user's audit trail. limit 0 means the
// gateway's default (50); more than 100 is refused before sending.
func (c *Client) ConsentAudit(ctx context.Context, userID string, limit, offset int) (ConsentAuditPage, error) {
	const op = "ConsentAudit"
	userID = strings.TrimSpace(userID)
	switch {
	case userID == "":
		return ConsentAuditPage{}, &Error{Op: op, Message: "a user id is required"}
	case limit < 0 || limit > ConsentAuditMaxLimit:
		return ConsentAuditPage{}, &Error{Op: op, Message: "the page size must be from 1 to " + strconv.Itoa(ConsentAuditMaxLimit)}
	case offset < 0:
		return ConsentAuditPage{}, &Error{Op: op, Message: "the offset cannot be negative"}
	}
	q := url.Values{"offset": {strconv.Itoa(offset)}}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	var out ConsentAuditPage
	err := c.do(ctx, request{op: op, method: http.MethodGet, path: pathf("/v2/consent/user/%s/audit", userID),
		query: q, family: familyClient, out: &out})
	return out, err
}

// RevokeConsent revokes a granted consent: the gateway keeps the original
// record, adds a revoked one and writes an audit record. 404 when the
// consent does not exist, is already revoked or belongs to another set. It
// needs Config.SecretKey.
func (c *Client) RevokeConsent(ctx context.Context, consentSetID, consentID string) (RevokedConsent, error) {
	const op = "RevokeConsent"
	switch {
	case c.secretKey() == "":
		return RevokedConsent{}, errNoSecret(op)
	case strings.TrimSpace(consentSetID) == "" || strings.TrimSpace(consentID) == "":
		return RevokedConsent{}, &Error{Op: op, Message: "a consent set id and a consent id are required"}
	}
	var out RevokedConsent
	r := RevokeConsentCall(consentSetID, consentID).r
	r.out = &out
	err := c.do(ctx, r)
	return out, err
}

// RevokeConsentCall declares the request RevokeConsent sends.
func RevokeConsentCall(consentSetID, consentID string) Call {
	return Call{request{op: "RevokeConsent", method: http.MethodDelete,
		path: pathf("/v2/consent/consentSet/%s/consent/%s", consentSetID, consentID), family: familySecret}}
}

// CreateConsentSet records the consents of an onboarding as a new, unlinked
// set and returns it. It needs Config.SecretKey.
func (c *Client) CreateConsentSet(ctx context.Context, in NewConsentSet) (ConsentSet, error) {
	const op = "CreateConsentSet"
	in.OnboardingID = strings.TrimSpace(in.OnboardingID)
	switch {
	case c.secretKey() == "":
		return ConsentSet{}, errNoSecret(op)
	case in.OnboardingID == "":
		return ConsentSet{}, &Error{Op: op, Message: "an onboarding id is required"}
	case in.PolicyType == "":
		return ConsentSet{}, &Error{Op: op, Message: "a policy type is required"}
	case len(in.Consents) == 0:
		return ConsentSet{}, &Error{Op: op, Message: "at least one consent is required"}
	}
	var out ConsentSet
	r := CreateConsentSetCall(in).r
	r.out = &out
	err := c.do(ctx, r)
	return out, err
}

// CreateConsentSetCall declares the request CreateConsentSet sends (the
// onboarding id trimmed, as the method sends it).
func CreateConsentSetCall(in NewConsentSet) Call {
	in.OnboardingID = strings.TrimSpace(in.OnboardingID)
	return Call{request{op: "CreateConsentSet", method: http.MethodPost, path: "/v2/consent/onboarding", body: in, family: familySecret}}
}

// ConsentSet reads one consent set by id (404 when there is none).
func (c *Client) ConsentSet(ctx context.Context, consentSetID string) (ConsentSet, error) {
	if strings.TrimSpace(consentSetID) == "" {
		return ConsentSet{}, &Error{Op: "ConsentSet", Message: "a consent set id is required"}
	}
	var out ConsentSet
	err := c.do(ctx, request{op: "ConsentSet", method: http.MethodGet,
		path: pathf("/v2/consent/consentSet/%s", consentSetID), family: familyClient, out: &out})
	return out, err
}
