package apiclient_test

import (
	"context"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

// The consent operations against the real sandbox gateway: the seeded
// states, a revocation, a link and a creation, and the audit pages.
func TestConsentAgainstSandbox(t *testing.T) {
	ctx := context.Background()
	g := newGateway(t, sandbox.Options{})
	c := g.client()
	alice, frank := sandbox.DemoUserID("alice@demo.test"), sandbox.DemoUserID("frank@demo.test")

	st, err := c.UserConsent(ctx, alice, true)
	if err != nil || st.ConsentStatus != apiclient.ConsentComplete || len(st.ConsentSets) != 1 {
		t.Fatalf("alice %+v %v", st, err)
	}
	if got := apiclient.AggregateConsentStatus(st.ConsentSets); got != st.ConsentStatus {
		t.Fatalf("client computes %s, gateway says %s", got, st.ConsentStatus)
	}
	if _, err := c.UserConsent(ctx, sandbox.DemoUserID("nora@demo.test"), false); !apiclient.IsNotFound(err) {
		t.Fatalf("nora: %v, want 404 (status none)", err)
	}
	if st, err := c.UserConsent(ctx, frank, false); err != nil || st.ConsentStatus != apiclient.ConsentIncomplete {
		t.Fatalf("frank %+v %v", st, err)
	}
	us := g.client(func(cfg *apiclient.Config) { cfg.US = true })
	if st, err := us.UserConsent(ctx, sandbox.DemoUserID("sam@demo.test"), true); err != nil || st.ConsentSets[0].PolicyType != "us" {
		t.Fatalf("sam %+v %v", st, err)
	}

	// Audit: three pages of 50, next/prev null at the ends.
	total, pages := 0, 0
	for off := 0; ; off += 50 {
		p, err := c.ConsentAudit(ctx, alice, 50, off)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		total += len(p.AuditRecords)
		if off == 0 && p.Links["prev"] != nil {
			t.Fatal("first page has a prev link")
		}
		if p.Links["next"] == nil {
			if total != p.Pagination.Total {
				t.Fatalf("read %d records, total says %d", total, p.Pagination.Total)
			}
			break
		}
	}
	if pages != 3 {
		t.Fatalf("alice's audit has %d pages of 50, want 3", pages)
	}

	// Revoke: the optional one keeps complete, the required one does not.
	set := st.ConsentSets[0]
	var terms, marketing apiclient.Consent
	for _, k := range set.Consents {
		switch k.ConsentType {
		case apiclient.ConsentTermsPrivacy:
			terms = k
		case apiclient.ConsentMarketing:
			marketing = k
		}
	}
	g.clock.Advance(time.Minute)
	rv, err := c.RevokeConsent(ctx, set.ConsentSetID, marketing.ConsentID)
	if err != nil || rv.ConsentID == marketing.ConsentID || rv.ConsentStatus != apiclient.ConsentRevoked {
		t.Fatalf("revoke marketing %+v %v", rv, err)
	}
	if st, _ := c.UserConsent(ctx, alice, false); st.ConsentStatus != apiclient.ConsentComplete {
		t.Fatalf("after optional revoke: %s", st.ConsentStatus)
	}
	if _, err := c.RevokeConsent(ctx, set.ConsentSetID, marketing.ConsentID); !apiclient.IsNotFound(err) {
		t.Fatalf("second revoke: %v", err)
	}
	if _, err := c.RevokeConsent(ctx, set.ConsentSetID, terms.ConsentID); err != nil {
		t.Fatal(err)
	}
	after, _ := c.ConsentSet(ctx, set.ConsentSetID)
	if len(after.Consents) != len(set.Consents)+2 || apiclient.SetConsentStatus(after) != apiclient.ConsentIncomplete {
		t.Fatalf("set after revokes: %d records, %s", len(after.Consents), apiclient.SetConsentStatus(after))
	}
	p, _ := c.ConsentAudit(ctx, alice, 1, 0)
	if len(p.AuditRecords) != 1 || p.AuditRecords[0].Action != apiclient.AuditActionRevoked || p.AuditRecords[0].Changes.After.ConsentType != apiclient.ConsentTermsPrivacy {
		t.Fatalf("newest audit record %+v", p.AuditRecords)
	}

	// Link the demo onboarding's set to frank, once.
	ob, err := c.OnboardingConsents(ctx, "onb-demo-001")
	if err != nil || len(ob.ConsentSets) != 1 || ob.ConsentSets[0].Linked() {
		t.Fatalf("onb-demo-001 %+v %v", ob, err)
	}
	id := ob.ConsentSets[0].ConsentSetID
	lr, err := c.LinkConsentSet(ctx, id, frank)
	if err != nil || lr.UserID != frank || lr.CompletedAt == nil || !lr.ConsentSet.Linked() {
		t.Fatalf("link %+v %v", lr, err)
	}
	if _, err := c.LinkConsentSet(ctx, id, alice); !apiclient.IsStatus(err, 409) {
		t.Fatalf("second link: %v", err)
	}
	if st, _ := c.UserConsent(ctx, frank, false); st.ConsentStatus != apiclient.ConsentComplete {
		t.Fatalf("frank after link: %s", st.ConsentStatus)
	}

	// Create a US set; wrong secret is refused in the consent shape.
	created, err := c.CreateConsentSet(ctx, apiclient.NewConsentSet{OnboardingID: "onb-it-1", PolicyType: "US",
		Consents: []apiclient.NewConsent{{ConsentType: apiclient.ConsentTermsPrivacy, ConsentStatus: apiclient.ConsentGranted}}})
	if err != nil || created.Linked() || created.PolicyType != "us" || apiclient.SetConsentStatus(created) != apiclient.ConsentIncomplete {
		t.Fatalf("created %+v %v", created, err)
	}
	bad := g.client(func(cfg *apiclient.Config) { cfg.SecretKey = "sk_wrong" })
	if _, err := bad.RevokeConsent(ctx, set.ConsentSetID, terms.ConsentID); !apiclient.IsUnauthorized(err) {
		t.Fatalf("wrong secret: %v", err)
	}
}
