package apiclient

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

var consentCtx = context.Background()

const consentSetJSON = `{"consentSetId":"set-1","userId":null,"onboardingId":"onb-1","tenantId":"acme","policyType":"us",
"completedAt":null,"createdAt":"2030-01-01T00:00:00Z","updatedAt":"2030-01-01T00:00:00Z","riskScore":7,
"consents":[{"consentId":"c-1","consentType":"termsAndPrivacy","consentStatus":"granted","createdAt":"2030-01-01T00:00:00Z","updatedAt":"2030-01-01T00:00:00Z","metadata":{"ipAddress":"192.0.2.1","geo":"FR"}},
{"consentId":"c-2","consentType":"eSignAct","consentStatus":"granted","createdAt":"2030-01-01T00:00:00Z","updatedAt":"2030-01-01T00:00:00Z"}],
"_links":{"self":{"href":"/v2/consent/consentSet/set-1","method":"GET"},"audit":null}}`

func TestConsentHeadersPerOperation(t *testing.T) {
	rec := newRecorder(t)
	rec.json("PATCH /v2/consent/onboarding/set-1", 200, `{"consentSetId":"set-1","userId":"u 1","completedAt":"2030-01-01T00:00:00Z","consentSet":`+consentSetJSON+`,"_links":{"self":null,"audit":null}}`)
	rec.json("GET /v2/consent/onboarding/onb 1", 200, `{"onboardingId":"onb 1","consentSets":[`+consentSetJSON+`],"_links":{"self":null}}`)
	rec.json("GET /v2/consent/user/u 1", 200, `{"userId":"u 1","consentStatus":"complete","_links":{"self":null,"full":null,"audit":null}}`)
	rec.json("GET /v2/consent/user/u 1/audit", 200, `{"userId":"u 1","auditRecords":[],"pagination":{"total":0,"limit":50,"offset":0},"_links":{"self":null,"next":null,"prev":null}}`)
	rec.json("DELETE /v2/consent/consentSet/set-1/consent/c-1", 200, `{"consentId":"c-9","consentSetId":"set-1","consentType":"termsAndPrivacy","consentStatus":"revoked","revocationTimestamp":"2030-01-01T00:00:00Z","_links":{"consentSet":null,"audit":null}}`)
	rec.json("POST /v2/consent/onboarding", 201, consentSetJSON)
	rec.json("GET /v2/consent/consentSet/set-1", 200, consentSetJSON)
	c := testClient(rec, func(cfg *Config) { cfg.US = true })
	c.SetSession(Session{AccessToken: "tok-never-sent-to-consent"})

	if r, err := c.LinkConsentSet(consentCtx, "set-1", " u 1 "); err != nil || r.UserID != "u 1" || r.ConsentSet.PolicyType != "us" {
		t.Fatalf("link %+v %v", r, err)
	}
	if body := rec.last().Body; body != `{"userId":"u 1"}` {
		t.Fatalf("link body %s", body)
	}
	if _, err := c.OnboardingConsents(consentCtx, "onb 1"); err != nil {
		t.Fatal(err)
	}
	if st, err := c.UserConsent(consentCtx, "u 1", false); err != nil || st.ConsentStatus != ConsentComplete {
		t.Fatalf("user %+v %v", st, err)
	}
	if rec.last().RawQuery != "" {
		t.Fatalf("short mode sent %q", rec.last().RawQuery)
	}
	if _, err := c.UserConsent(consentCtx, "u 1", true); err != nil || rec.last().RawQuery != "full=true" {
		t.Fatalf("full mode: %v %q", err, rec.last().RawQuery)
	}
	if _, err := c.ConsentAudit(consentCtx, "u 1", 50, 100); err != nil || rec.last().RawQuery != "limit=50&offset=100" {
		t.Fatalf("audit: %v %q", err, rec.last().RawQuery)
	}
	if r, err := c.RevokeConsent(consentCtx, "set-1", "c-1"); err != nil || r.ConsentID != "c-9" {
		t.Fatalf("revoke %+v %v", r, err)
	}
	if s, err := c.CreateConsentSet(consentCtx, NewConsentSet{OnboardingID: "onb-1", PolicyType: "us",
		Consents: []NewConsent{{ConsentType: ConsentTermsPrivacy, ConsentStatus: ConsentGranted}}}); err != nil || s.ConsentSetID != "set-1" {
		t.Fatalf("create %+v %v", s, err)
	}
	if !strings.Contains(rec.last().Body, `"consents":[{"consentType":"termsAndPrivacy","consentStatus":"granted"}]`) ||
		strings.Contains(rec.last().Body, "tenantId") {
		t.Fatalf("create body %s", rec.last().Body)
	}
	if _, err := c.ConsentSet(consentCtx, "set-1"); err != nil {
		t.Fatal(err)
	}

	secretOps := map[string]bool{"PATCH": true, "DELETE": true, "POST": true}
	for _, r := range rec.requests() {
		if r.Header.Get("x-client-key") != "ck_test" || r.Header.Get("x-us-env") != "true" {
			t.Errorf("%s %s: client key %q, x-us-env %q", r.Method, r.Path, r.Header.Get("x-client-key"), r.Header.Get("x-us-env"))
		}
		if r.Header.Get("Authorization") != "" {
			t.Errorf("%s %s sent a bearer token", r.Method, r.Path)
		}
		if got := r.Header.Get("x-secret-key") != ""; got != secretOps[r.Method] {
			t.Errorf("%s %s: x-secret-key sent = %v", r.Method, r.Path, got)
		}
	}
}

func TestConsentMutationsNeedTheSecretKey(t *testing.T) {
	rec := newRecorder(t)
	c := testClient(rec, func(cfg *Config) { cfg.SecretKey = "" })
	_, e1 := c.LinkConsentSet(consentCtx, "set-1", "u")
	_, e2 := c.RevokeConsent(consentCtx, "set-1", "c-1")
	_, e3 := c.CreateConsentSet(consentCtx, NewConsentSet{OnboardingID: "o", PolicyType: "global", Consents: []NewConsent{{}}})
	for _, err := range []error{e1, e2, e3} {
		if err == nil || !strings.Contains(err.Error(), "the secret key is needed: set CARDTERM_SECRET_KEY") {
			t.Errorf("err = %v", err)
		}
	}
	if n := len(rec.requests()); n != 0 {
		t.Fatalf("%d requests sent without a secret key", n)
	}
}

func TestConsentArgumentsCheckedBeforeSending(t *testing.T) {
	rec := newRecorder(t)
	c := testClient(rec)
	checks := []error{}
	_, err := c.LinkConsentSet(consentCtx, "set-1", "  ")
	checks = append(checks, err)
	_, err = c.ConsentAudit(consentCtx, "u", 101, 0)
	checks = append(checks, err)
	_, err = c.ConsentAudit(consentCtx, "u", 10, -1)
	checks = append(checks, err)
	_, err = c.UserConsent(consentCtx, "", true)
	checks = append(checks, err)
	_, err = c.OnboardingConsents(consentCtx, " ")
	checks = append(checks, err)
	for i, err := range checks {
		if err == nil {
			t.Errorf("check %d: no error", i)
		}
	}
	if n := len(rec.requests()); n != 0 {
		t.Fatalf("%d requests sent", n)
	}
}

func TestConsentErrorShapeAndConflict(t *testing.T) {
	rec := newRecorder(t)
	rec.json("PATCH /v2/consent/onboarding/set-1", 409, `{"error":"Consent set already linked","details":["linked to u-2","cannot be undone"]}`)
	c := testClient(rec)
	_, err := c.LinkConsentSet(consentCtx, "set-1", "u-1")
	var e *Error
	if !asError(err, &e) || e.Status != http.StatusConflict || e.Message != "Consent set already linked" || len(e.Details) != 2 {
		t.Fatalf("err %#v", err)
	}
}

func TestConsentTolerantReaderKeepsUnknownFields(t *testing.T) {
	var s ConsentSet
	if err := json.Unmarshal([]byte(consentSetJSON), &s); err != nil {
		t.Fatal(err)
	}
	if string(s.Extra["riskScore"]) != "7" || string(s.Consents[0].Metadata.Extra["geo"]) != `"FR"` || s.Links["audit"] != nil || s.Links["self"] == nil {
		t.Fatalf("decoded %+v", s)
	}
}

func TestConsentPolicyRules(t *testing.T) {
	at := func(h string) string { return "2030-01-01T" + h + ":00:00Z" }
	k := func(id, typ, status, when string) Consent {
		return Consent{ConsentID: id, ConsentType: typ, ConsentStatus: status, CreatedAt: when, UpdatedAt: when}
	}
	global := ConsentSet{ConsentSetID: "g", PolicyType: "global", Consents: []Consent{
		k("t", ConsentTermsPrivacy, ConsentGranted, at("01")), k("m", ConsentMarketing, ConsentGranted, at("01"))}}
	if s := AggregateConsentStatus([]ConsentSet{global}); s != ConsentComplete {
		t.Fatalf("global: %s", s)
	}
	if AggregateConsentStatus(nil) != ConsentNone {
		t.Fatal("no sets is not none")
	}
	// Revoking an optional consent keeps complete; a required one does not.
	if s := AggregateConsentStatus(WithRevoked([]ConsentSet{global}, "g", "m", at("02"))); s != ConsentComplete {
		t.Fatalf("optional revoked: %s", s)
	}
	revoked := WithRevoked([]ConsentSet{global}, "g", "t", at("02"))
	if s := AggregateConsentStatus(revoked); s != ConsentIncomplete {
		t.Fatalf("required revoked: %s", s)
	}
	if cur := CurrentConsents(revoked[0]); len(cur) != 2 || cur[0].ConsentStatus != ConsentRevoked || len(revoked[0].Consents) != 3 {
		t.Fatalf("current %+v", cur)
	}
	// Equal times: the later record wins (a revocation at the same instant).
	same := WithRevoked([]ConsentSet{global}, "g", "t", at("01"))
	if IsCurrentConsent(same[0], "t") {
		t.Fatal("the original is still in force after a same-instant revocation")
	}
	// The US policy (US accepted) also needs eSignAct.
	us := ConsentSet{PolicyType: "US", Consents: []Consent{k("t", ConsentTermsPrivacy, ConsentGranted, at("01"))}}
	if SetConsentStatus(us) != ConsentIncomplete || !IsRequiredConsent("us", ConsentESignAct) || IsRequiredConsent("global", ConsentESignAct) {
		t.Fatal("US policy rules")
	}
	// A newer set that grants what an older one denied makes the user complete.
	old := ConsentSet{PolicyType: "global", Consents: []Consent{k("d", ConsentTermsPrivacy, ConsentDenied, at("01"))}}
	newer := ConsentSet{PolicyType: "global", Consents: []Consent{k("g", ConsentTermsPrivacy, ConsentGranted, at("05"))}}
	if AggregateConsentStatus([]ConsentSet{old, newer}) != ConsentComplete || AggregateConsentStatus([]ConsentSet{old}) != ConsentIncomplete {
		t.Fatal("newest record across sets")
	}
}
