package sandbox_test

import (
	"testing"

	"cardterm/sandbox"
)

func init() { familyScripts = append(familyScripts, consentContract) }

// consentContract exercises every consent operation: success and each
// error status the interface names, in the {error, details} shape.
func consentContract(t *testing.T, h *harness, login loginFunc) {
	alice := sandbox.DemoUserID("alice@demo.test")
	frank := sandbox.DemoUserID("frank@demo.test")
	nora := sandbox.DemoUserID("nora@demo.test")
	sam := sandbox.DemoUserID("sam@demo.test")

	// ------------------------------------------------------------ user status
	r := h.do("consent user short", req{method: "GET", path: "/v2/consent/user/" + alice, hdr: withKey(), want: 200})
	checkf(t, r.str("consentStatus") == "complete", "alice consentStatus %q", r.str("consentStatus"))
	links, _ := r.obj()["_links"].(map[string]any)
	checkf(t, links["full"] != nil && r.obj()["consentSets"] == nil, "short mode: %s", r.raw)
	r = h.do("consent user full", req{method: "GET", path: "/v2/consent/user/" + alice + "?full=true", hdr: withKey(), want: 200})
	sets, _ := r.obj()["consentSets"].([]any)
	checkf(t, len(sets) == 1, "alice full: %d sets", len(sets))
	links, _ = r.obj()["_links"].(map[string]any)
	_, hasFull := links["full"]
	checkf(t, !hasFull && links["self"] != nil && links["audit"] != nil, "full _links: %v", links)
	r = h.do("consent user incomplete", req{method: "GET", path: "/v2/consent/user/" + frank, hdr: withKey(), want: 200})
	checkf(t, r.str("consentStatus") == "incomplete", "frank consentStatus %q", r.str("consentStatus"))
	h.do("consent user 404 none", req{method: "GET", path: "/v2/consent/user/" + nora, hdr: withKey(), want: 404})
	h.do("consent user 404 us user on eu", req{method: "GET", path: "/v2/consent/user/" + sam, hdr: withKey(), want: 404})
	r = h.do("consent user us", req{method: "GET", path: "/v2/consent/user/" + sam, hdr: withKey("x-us-env", "true"), want: 200})
	checkf(t, r.str("consentStatus") == "complete", "sam consentStatus %q", r.str("consentStatus"))
	h.do("consent user 499", req{method: "GET", path: "/v2/consent/user/" + alice, hdr: hdrs(), want: 499, badRequest: true})
	h.do("consent user 498", req{method: "GET", path: "/v2/consent/user/" + alice, hdr: hdrs("x-client-key", "ck_nope"), want: 498})

	// ------------------------------------------------------------ audit
	r = h.do("consent audit page 1", req{method: "GET", path: "/v2/consent/user/" + alice + "/audit", hdr: withKey(), want: 200})
	recs, _ := r.obj()["auditRecords"].([]any)
	pg, _ := r.obj()["pagination"].(map[string]any)
	checkf(t, len(recs) == 50 && pg["total"].(float64) > 100, "audit page 1: %d records of %v", len(recs), pg["total"])
	links, _ = r.obj()["_links"].(map[string]any)
	checkf(t, links["prev"] == nil && links["next"] != nil, "audit page 1 links %v", links)
	r = h.do("consent audit last page", req{method: "GET", path: "/v2/consent/user/" + alice + "/audit?limit=100&offset=100", hdr: withKey(), want: 200})
	links, _ = r.obj()["_links"].(map[string]any)
	checkf(t, links["next"] == nil && links["prev"] != nil, "audit last page links %v", links)
	h.do("consent audit 400 limit", req{method: "GET", path: "/v2/consent/user/" + alice + "/audit?limit=101", hdr: withKey(), want: 400, badRequest: true})
	h.do("consent audit 400 offset", req{method: "GET", path: "/v2/consent/user/" + alice + "/audit?offset=-1", hdr: withKey(), want: 400, badRequest: true})
	h.do("consent audit 404", req{method: "GET", path: "/v2/consent/user/" + nora + "/audit", hdr: withKey(), want: 404})
	h.do("consent audit 499", req{method: "GET", path: "/v2/consent/user/" + alice + "/audit", hdr: hdrs(), want: 499, badRequest: true})
	h.do("consent audit 498", req{method: "GET", path: "/v2/consent/user/" + alice + "/audit", hdr: hdrs("x-client-key", "nope"), want: 498})

	// ------------------------------------------------------------ onboarding and link
	r = h.do("consent onboarding", req{method: "GET", path: "/v2/consent/onboarding/onb-demo-001", hdr: withKey(), want: 200})
	sets, _ = r.obj()["consentSets"].([]any)
	if len(sets) != 1 {
		t.Fatalf("onb-demo-001: %s", r.raw)
	}
	demo, _ := sets[0].(map[string]any)
	demoID, _ := demo["consentSetId"].(string)
	checkf(t, demo["userId"] == nil, "onb-demo-001 set is linked already: %v", demo["userId"])
	h.do("consent onboarding 404", req{method: "GET", path: "/v2/consent/onboarding/onb-nope", hdr: withKey(), want: 404})
	h.do("consent onboarding 499", req{method: "GET", path: "/v2/consent/onboarding/onb-demo-001", hdr: hdrs(), want: 499, badRequest: true})
	h.do("consent onboarding 498", req{method: "GET", path: "/v2/consent/onboarding/onb-demo-001", hdr: hdrs("x-client-key", "nope"), want: 498})

	link := "/v2/consent/onboarding/" + demoID
	h.do("consent link 400 missing userId", req{method: "PATCH", path: link, hdr: withSecret(), body: map[string]any{}, want: 400, badRequest: true})
	h.do("consent link 400 blank userId", req{method: "PATCH", path: link, hdr: withSecret(), body: map[string]any{"userId": "   "}, want: 400})
	h.do("consent link 401 no secret", req{method: "PATCH", path: link, hdr: withKey(), body: map[string]any{"userId": frank}, want: 401, badRequest: true})
	h.do("consent link 401 wrong secret", req{method: "PATCH", path: link, hdr: withKey("x-secret-key", "sk_nope"), body: map[string]any{"userId": frank}, want: 401})
	h.do("consent link 404", req{method: "PATCH", path: "/v2/consent/onboarding/" + unknownID, hdr: withSecret(),
		body: map[string]any{"userId": frank}, want: 404})
	h.do("consent link 499", req{method: "PATCH", path: link, hdr: hdrs("x-secret-key", sandbox.DemoSecretKey), body: map[string]any{"userId": frank}, want: 499, badRequest: true})
	h.do("consent link 498", req{method: "PATCH", path: link, hdr: hdrs("x-client-key", "nope", "x-secret-key", "x"), body: map[string]any{"userId": frank}, want: 498})
	r = h.do("consent link 200", req{method: "PATCH", path: link, hdr: withSecret(), body: map[string]any{"userId": frank}, want: 200})
	checkf(t, r.str("userId") == frank && r.str("completedAt") != "", "link answer %s", r.raw)
	h.do("consent link 409", req{method: "PATCH", path: link, hdr: withSecret(), body: map[string]any{"userId": alice}, want: 409})
	r = h.do("consent user complete after link", req{method: "GET", path: "/v2/consent/user/" + frank, hdr: withKey(), want: 200})
	checkf(t, r.str("consentStatus") == "complete", "frank after link: %q", r.str("consentStatus"))

	// ------------------------------------------------------------ consent set and revoke
	r = h.do("consent set", req{method: "GET", path: "/v2/consent/consentSet/" + demoID, hdr: withKey(), want: 200})
	var termsID, marketingID string
	cs, _ := r.obj()["consents"].([]any)
	for _, x := range cs {
		m, _ := x.(map[string]any)
		switch m["consentType"] {
		case "termsAndPrivacy":
			termsID, _ = m["consentId"].(string)
		case "marketingNotifications":
			marketingID, _ = m["consentId"].(string)
		}
	}
	h.do("consent set 404", req{method: "GET", path: "/v2/consent/consentSet/" + unknownID, hdr: withKey(), want: 404})
	revoke := "/v2/consent/consentSet/" + demoID + "/consent/"
	h.do("consent revoke 401", req{method: "DELETE", path: revoke + termsID, hdr: withKey(), want: 401, badRequest: true})
	h.do("consent revoke 499", req{method: "DELETE", path: revoke + termsID, hdr: hdrs("x-secret-key", sandbox.DemoSecretKey), want: 499, badRequest: true})
	h.do("consent revoke 498", req{method: "DELETE", path: revoke + termsID, hdr: hdrs("x-client-key", "nope", "x-secret-key", "x"), want: 498})
	h.do("consent revoke 404 denied", req{method: "DELETE", path: revoke + marketingID, hdr: withSecret(), want: 404})
	h.do("consent revoke 404 unknown", req{method: "DELETE", path: revoke + unknownID, hdr: withSecret(), want: 404})
	r = h.do("consent revoke 200", req{method: "DELETE", path: revoke + termsID, hdr: withSecret(), want: 200})
	checkf(t, r.str("consentStatus") == "revoked" && r.str("consentId") != termsID, "revoke answer %s", r.raw)
	h.do("consent revoke 404 already revoked", req{method: "DELETE", path: revoke + termsID, hdr: withSecret(), want: 404})
	h.do("consent revoke 404 new record", req{method: "DELETE", path: revoke + r.str("consentId"), hdr: withSecret(), want: 404})
	r = h.do("consent user incomplete after revoke", req{method: "GET", path: "/v2/consent/user/" + frank, hdr: withKey(), want: 200})
	checkf(t, r.str("consentStatus") == "incomplete", "frank after revoke: %q", r.str("consentStatus"))

	// ------------------------------------------------------------ create
	r = h.do("consent create 201", req{method: "POST", path: "/v2/consent/onboarding", hdr: withSecret(), want: 201,
		body: map[string]any{"onboardingId": "onb-contract-1", "tenantId": "acme", "policyType": "US",
			"consents": []map[string]any{{"consentType": "termsAndPrivacy", "consentStatus": "granted",
				"metadata": map[string]string{"ipAddress": "192.0.2.1", "userAgent": "contract"}}, {"consentType": "eSignAct", "consentStatus": "denied"}},
			"metadata": map[string]string{"source": "contract"}}})
	checkf(t, r.str("policyType") == "us" && r.obj()["userId"] == nil, "created set %s", r.raw)
	h.do("consent create 400", req{method: "POST", path: "/v2/consent/onboarding", hdr: withSecret(), want: 400,
		body: map[string]any{"onboardingId": "onb-x", "policyType": "mars", "consents": []map[string]any{}}})
	h.do("consent create 401", req{method: "POST", path: "/v2/consent/onboarding", hdr: withKey("x-secret-key", "nope"), want: 401,
		body: map[string]any{"onboardingId": "onb-x", "policyType": "global", "consents": []map[string]any{{"consentType": "termsAndPrivacy", "consentStatus": "granted"}}}})
}
