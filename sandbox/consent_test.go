package sandbox

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// secretHdr is the demo client key and secret key, plus more pairs.
func secretHdr(kv ...string) http.Header {
	return ck(append([]string{"x-secret-key", DemoSecretKey}, kv...)...)
}

// consentSet reads a consent set's records by type: all records, in order.
func consentSet(t *testing.T, e *env, id string) []map[string]any {
	t.Helper()
	r := e.do("GET", "/v2/consent/consentSet/"+id, ck(), nil)
	want(t, r, 200, "")
	var out []map[string]any
	for _, x := range r.JSON["consents"].([]any) {
		out = append(out, x.(map[string]any))
	}
	return out
}

func TestConsentSeedIsOnTheClockAndDeterministic(t *testing.T) {
	a, b := newEnv(t, Options{}), newEnv(t, Options{})
	alice := DemoUserID("alice@demo.test")
	ra := a.do("GET", "/v2/consent/user/"+alice+"?full=true", ck(), nil)
	rb := b.do("GET", "/v2/consent/user/"+alice+"?full=true", ck(), nil)
	if string(ra.Raw) != string(rb.Raw) {
		t.Fatalf("two sandboxes on the same clock differ:\n%s\n%s", ra.Raw, rb.Raw)
	}
	// Every seeded time is before the clock's hour, on the clock's epoch.
	for _, s := range ra.JSON["consentSets"].([]any) {
		created, _ := time.Parse(time.RFC3339, s.(map[string]any)["createdAt"].(string))
		if !created.Before(t0) || created.Before(t0.Add(-365*24*time.Hour)) {
			t.Fatalf("seeded createdAt %v is not in the year before %v", created, t0)
		}
	}
	r := a.do("GET", "/v2/consent/user/"+alice+"/audit?limit=100", ck(), nil)
	recs := r.JSON["auditRecords"].([]any)
	prev := t0.Add(time.Hour)
	for _, x := range recs {
		at, _ := time.Parse(time.RFC3339, x.(map[string]any)["timestamp"].(string))
		if at.After(prev) {
			t.Fatalf("audit not newest first: %v after %v", at, prev)
		}
		prev = at
	}
	if total := r.JSON["pagination"].(map[string]any)["total"].(float64); total <= 100 {
		t.Fatalf("alice's audit has %v records, want more than 100", total)
	}
}

func TestConsentLinkIsAuditedAndOnce(t *testing.T) {
	e := newEnv(t, Options{})
	nora := DemoUserID("nora@demo.test")
	r := e.do("GET", "/v2/consent/onboarding/onb-demo-001", ck(), nil)
	want(t, r, 200, "")
	set := r.JSON["consentSets"].([]any)[0].(map[string]any)
	id := set["consentSetId"].(string)

	want(t, e.do("GET", "/v2/consent/user/"+nora, ck(), nil), 404, "")
	e.clock.Advance(time.Hour)
	r = e.do("PATCH", "/v2/consent/onboarding/"+id, secretHdr("User-Agent", "support-console/2"), map[string]string{"userId": nora})
	want(t, r, 200, "")
	if r.str("completedAt") != t0.Add(time.Hour).Format(time.RFC3339) {
		t.Fatalf("completedAt %q, want the clock's time", r.str("completedAt"))
	}
	r = e.do("GET", "/v2/consent/user/"+nora+"/audit", ck(), nil)
	recs := r.JSON["auditRecords"].([]any)
	// 3 created + 3 updated by the link.
	if len(recs) != 6 {
		t.Fatalf("audit after link: %s", r.Raw)
	}
	newest := recs[0].(map[string]any)
	changes := newest["changes"].(map[string]any)
	meta := newest["metadata"].(map[string]any)
	if newest["action"] != "updated" || changes["after"].(map[string]any)["userId"] != nora ||
		meta["userAgent"] != "support-console/2" || meta["clientId"] != "acme-sandbox" {
		t.Fatalf("link audit record %v", newest)
	}
	oldest := recs[5].(map[string]any)
	if oldest["action"] != "created" || oldest["changes"].(map[string]any)["before"] != nil {
		t.Fatalf("creation record %v", oldest)
	}
	r = e.do("PATCH", "/v2/consent/onboarding/"+id, secretHdr(), map[string]string{"userId": "someone-else"})
	want(t, r, 409, "")
	if r.str("error") == "" || !strings.Contains(string(r.Raw), "cannot be undone") {
		t.Fatalf("409 body %s", r.Raw)
	}
	for _, bad := range []any{map[string]any{}, map[string]any{"userId": ""}, map[string]any{"userId": 42}, map[string]any{"userId": "a b"}} {
		r = e.do("PATCH", "/v2/consent/onboarding/"+id, secretHdr(), bad)
		if r.Status != 400 || r.str("error") == "" || len(r.JSON["details"].([]any)) == 0 {
			t.Fatalf("%v: %d %s", bad, r.Status, r.Raw)
		}
	}
	r = e.do("PATCH", "/v2/consent/onboarding/"+id, ck("x-secret-key", "sk_live_acme"), map[string]string{"userId": nora})
	if r.Status != 401 || r.str("error") == "" {
		t.Fatalf("another tenant's secret: %d %s", r.Status, r.Raw)
	}
}

func TestConsentRevokeKeepsTheOriginal(t *testing.T) {
	e := newEnv(t, Options{})
	alice := DemoUserID("alice@demo.test")
	r := e.do("GET", "/v2/consent/user/"+alice+"?full=true", ck(), nil)
	set := r.JSON["consentSets"].([]any)[0].(map[string]any)
	id := set["consentSetId"].(string)
	var sms string
	for _, k := range consentSet(t, e, id) {
		if k["consentType"] == "smsNotifications" {
			sms = k["consentId"].(string)
		}
	}
	e.clock.Advance(time.Minute)
	r = e.do("DELETE", "/v2/consent/consentSet/"+id+"/consent/"+sms, secretHdr(), nil)
	want(t, r, 200, "")
	if r.str("revocationTimestamp") != t0.Add(time.Minute).Format(time.RFC3339) || r.str("consentId") == sms {
		t.Fatalf("revoke answer %s", r.Raw)
	}
	records := consentSet(t, e, id)
	var kept, revoked int
	for _, k := range records {
		if k["consentType"] != "smsNotifications" {
			continue
		}
		switch {
		case k["consentId"] == sms && k["consentStatus"] == "granted":
			kept++
		case k["consentStatus"] == "revoked":
			revoked++
		}
	}
	if kept != 1 || revoked != 1 {
		t.Fatalf("records after revoke: %v", records)
	}
	if s := e.do("GET", "/v2/consent/user/"+alice, ck(), nil).str("consentStatus"); s != "complete" {
		t.Fatalf("optional revoke changed the status to %s", s)
	}
	// Another set's consent, through this set: 404.
	frankSet := e.do("GET", "/v2/consent/user/"+DemoUserID("frank@demo.test")+"?full=true", ck(), nil).JSON["consentSets"].([]any)[0].(map[string]any)
	other := frankSet["consents"].([]any)[1].(map[string]any)["consentId"].(string)
	r = e.do("DELETE", "/v2/consent/consentSet/"+id+"/consent/"+other, secretHdr(), nil)
	if r.Status != 404 || !strings.Contains(string(r.Raw), "another consent set") {
		t.Fatalf("other set's consent: %d %s", r.Status, r.Raw)
	}
}

func TestConsentCreateAndPagination(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.do("POST", "/v2/consent/onboarding", secretHdr(), map[string]any{"onboardingId": "onb-new", "policyType": "mars",
		"consents": []map[string]any{{"consentType": "cookies", "consentStatus": "maybe"}}})
	if r.Status != 400 || len(r.JSON["details"].([]any)) != 3 {
		t.Fatalf("bad create: %d %s", r.Status, r.Raw)
	}
	r = e.do("POST", "/v2/consent/onboarding", secretHdr(), map[string]any{"onboardingId": "onb-new", "policyType": "US",
		"consents": []map[string]any{{"consentType": "termsAndPrivacy", "consentStatus": "granted"}, {"consentType": "eSignAct", "consentStatus": "granted"}}})
	want(t, r, 201, "")
	if r.str("policyType") != "us" || r.JSON["userId"] != nil || r.str("tenantId") != "acme" {
		t.Fatalf("created %s", r.Raw)
	}
	// Pagination links and limits.
	alice := DemoUserID("alice@demo.test")
	r = e.do("GET", "/v2/consent/user/"+alice+"/audit?limit=50&offset=50", ck(), nil)
	links := r.JSON["_links"].(map[string]any)
	next := links["next"].(map[string]any)["href"].(string)
	prev := links["prev"].(map[string]any)["href"].(string)
	if !strings.HasSuffix(next, "limit=50&offset=100") || !strings.HasSuffix(prev, "limit=50&offset=0") {
		t.Fatalf("links %v", links)
	}
	for _, q := range []string{"limit=0", "limit=101", "limit=x", "offset=-5"} {
		if r := e.do("GET", "/v2/consent/user/"+alice+"/audit?"+q, ck(), nil); r.Status != 400 || r.str("error") == "" {
			t.Fatalf("%s: %d %s", q, r.Status, r.Raw)
		}
	}
	r = e.do("GET", "/v2/consent/user/"+alice+"/audit?offset=5000", ck(), nil)
	if r.Status != 200 || len(r.JSON["auditRecords"].([]any)) != 0 || r.JSON["_links"].(map[string]any)["next"] != nil {
		t.Fatalf("past the end: %d %s", r.Status, r.Raw)
	}
}

func TestConsentMalloryMetadataIsServedRaw(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.do("GET", "/v2/consent/user/"+DemoUserID("mallory@demo.test")+"?full=true", ck(), nil)
	want(t, r, 200, "")
	if !strings.Contains(string(r.Raw), `\u001b]52;c;`) {
		t.Fatalf("mallory's user agent lost its escapes: %s", r.Raw)
	}
	if r := e.do("GET", "/v2/consent/user/"+DemoUserID("alice@demo.test"), hdr(), nil); r.Status != 499 || r.str("error") == "" {
		t.Fatalf("499 shape: %d %s", r.Status, r.Raw)
	}
}
