package screens

import (
	"fmt"
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/apiclient/sandbox"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

// withoutSecret runs the app with no secret key (consent mutations refused).
func withoutSecret() appOption { return func(ts *testSetup) { ts.cfg.SecretKey = "" } }

func newConsentApp(t *testing.T, user string, opts ...appOption) *testApp {
	t.Helper()
	a := newTestApp(t, append([]appOption{withScreen(NewConsent)}, opts...)...)
	a.signIn(user)
	a.keys("8")
	return a
}

func TestConsentRevokeOptionalThenRequiredAndPageTheAudit(t *testing.T) {
	a := newConsentApp(t, "alice@demo.test")
	alice := sandbox.DemoUserID("alice@demo.test")
	mustShow(t, a.screen(), "Consent", "user "+alice, "(you)", "complete", "All required consents granted",
		"termsAndPrivacy", "marketingNotifications", "✓ granted", "row 1 of 4")
	a.golden("consent-alice")

	a.keys("j", "x")
	s := a.screen()
	mustShow(t, s, "Revoke marketingNotifications?", "DELETE /v2/consent/consentSet/", "marketingNotifications is optional.",
		"The user's consent status stays complete.")
	a.keys("y")
	mustShow(t, a.screen(), "⊘ revoked", "revoked marketingNotifications · consent status", "All required consents granted")

	a.keys("k", "x")
	mustShow(t, a.screen(), "Revoke termsAndPrivacy?", "REQUIRED consent of the global policy", "becomes INCOMPLETE (now complete)")
	a.golden("consent-revoke-required")
	a.keys("y")
	mustShow(t, a.screen(), "incomplete", "Required consent missing, denied or revoked: termsAndPrivacy")

	// The revoked consent cannot be revoked twice: nothing is sent.
	a.keys("x")
	mustShow(t, a.screen(), "termsAndPrivacy is revoked: only a granted consent")

	a.keys("a")
	mustShow(t, a.screen(), "Audit trail", "records 1–50 of 124", "n next", "revoked", "granted → revoked")
	a.keys("n")
	mustShow(t, a.screen(), "records 51–100 of 124", "p previous · n next")
	a.keys("n")
	mustShow(t, a.screen(), "records 101–124 of 124", "new: granted")
	a.keys("n")
	mustShow(t, a.screen(), "this is the last page")
	a.keys("p")
	mustShow(t, a.screen(), "records 51–100 of 124")
	a.keys("esc")
	mustShow(t, a.screen(), "Required consent missing")
}

func TestConsentLinkOnboardingOnce(t *testing.T) {
	a := newConsentApp(t, "alice@demo.test")
	frank := sandbox.DemoUserID("frank@demo.test")
	a.keys("u", "ctrl+u")
	a.typeText(frank)
	a.keys("enter")
	mustShow(t, a.screen(), "user "+frank, "incomplete", "✗ denied")

	a.keys("b")
	a.typeText("onb-demo-001")
	a.keys("enter")
	mustShow(t, a.screen(), "onboarding onb-demo-001", "1 consent set, 0 linked to a user", "emailNotifications")

	link := func() {
		a.keys("L")
		a.typeText(frank)
		a.keys("enter")
		mustShow(t, a.screen(), "PATCH /v2/consent/onboarding/", `body: {"userId": "`+frank+`"}`, "cannot be undone")
		a.keys("y")
	}
	link()
	mustShow(t, a.screen(), "1 consent set, 1 linked to a user", "linked · consent status complete")
	link()
	s := a.screen()
	mustShow(t, s, "already linked; linking cannot be undone", "Consent set already linked (409)", frank)
	a.golden("consent-link-409")

	a.keys("esc", "u", "ctrl+u")
	a.typeText(frank)
	a.keys("enter")
	mustShow(t, a.screen(), "user "+frank, "complete", "All required consents granted · 2 consent sets")
}

func TestConsentNoneAndUSPolicy(t *testing.T) {
	a := newConsentApp(t, "nora@demo.test")
	mustShow(t, a.screen(), "none", "No consent set is linked to this user (status none)")
	a.keys("a")
	mustShow(t, a.screen(), "this user has no consent set, so no audit trail")

	us := newConsentApp(t, "sam@demo.test", withUS())
	mustShow(t, us.screen(), "complete", "eSignAct", "termsAndPrivacy")
	us.keys("enter")
	mustShow(t, us.screen(), "policyType", "us  (requires termsAndPrivacy, eSignAct)", "in force", "agent AcmeWallet")
	us.keys("G")
	mustShow(t, us.screen(), "Links", "self         GET /v2/consent/consentSet/")
}

func TestConsentReadOnlyAndWithoutSecret(t *testing.T) {
	ro := newConsentApp(t, "alice@demo.test", readOnly())
	for _, k := range []string{"x", "L", "N"} {
		ro.keys(k)
		mustShow(t, ro.screen(), "read-only mode: changing consents")
	}
	mustNotShow(t, ro.screen(), "revoke consent", "Revoke")

	ns := newConsentApp(t, "alice@demo.test", withoutSecret())
	ns.keys("x")
	mustShow(t, ns.screen(), "the secret key is needed: set CARDTERM_SECRET_KEY")
	mustNotShow(t, ns.screen(), "Revoke termsAndPrivacy?")
}

func TestConsentCreateSet(t *testing.T) {
	a := newConsentApp(t, "alice@demo.test")
	a.keys("N")
	mustShow(t, a.screen(), "New consent set", "onboardingId", "policyType", "[global]", "left out")
	a.keys("ctrl+s")
	mustShow(t, a.screen(), "an onboarding id is required")
	a.typeText("onb-test-7")
	a.keys("tab", "space") // policy: us, eSignAct becomes granted
	mustShow(t, a.screen(), "[us]", "eSignAct *")
	a.keys("tab", "space") // termsAndPrivacy: denied
	a.keys("ctrl+s")
	mustShow(t, a.screen(), "POST /v2/consent/onboarding", "policyType us", "termsAndPrivacy denied",
		"termsAndPrivacy is required by the us policy and is not granted")
	a.keys("y")
	mustShow(t, a.screen(), "onboarding onb-test-7", "1 consent set, 0 linked", "created consent set", "✗ denied")
}

func TestConsentHostileMetadataIsNeutralised(t *testing.T) {
	a := newConsentApp(t, "mallory@demo.test")
	a.keys("enter")
	frame := a.root.View().Content
	for _, bad := range []string{"\x1b]8;", "\x1b]52;", "\x1b[2J", "\x07", "\u202e", "\x1b[7m-2024"} {
		if strings.Contains(frame, bad) {
			t.Fatalf("the detail view carries %q from the gateway", bad)
		}
	}
	mustShow(t, a.screen(), "agent Mozilla/5.0")
	a.keys("esc", "a")
	frame = a.root.View().Content
	if strings.Contains(frame, "\x1b]52;") || strings.Contains(frame, "\x1b[2J") {
		t.Fatal("the audit view carries escapes from the gateway")
	}
	mustShow(t, a.screen(), "user agent Mozilla/5.0")
}

func TestConsentCancelledDialogsSendNothing(t *testing.T) {
	a := newConsentApp(t, "alice@demo.test")
	a.keys("x", "n")
	mustShow(t, a.screen(), "✓ granted", "complete")
	mustNotShow(t, a.screen(), "⊘ revoked")
	// The form stays open after a cancelled link, and can be sent later.
	a.keys("L")
	a.typeText("someone")
	a.keys("enter", "n")
	mustShow(t, a.screen(), "Link a consent set to a user", "someone")
	a.keys("enter")
	mustShow(t, a.screen(), "PATCH /v2/consent/onboarding/")
	a.keys("y")
	mustShow(t, a.screen(), "already linked; linking cannot be undone")
}

// BenchmarkConsentKeyPress100k: a key press (Update + View) on a user with
// 20,000 consent sets of 5 consents (100,000 rows); the budget is 1 ms.
func BenchmarkConsentKeyPress100k(b *testing.B) {
	styles := theme.New(true, false)
	c := NewConsent(Deps{Styles: &styles, Requests: ui.NewRequests()})
	sets := make([]apiclient.ConsentSet, 20000)
	for i := range sets {
		uid := "u-1"
		sets[i] = apiclient.ConsentSet{ConsentSetID: fmt.Sprintf("set-%05d", i), UserID: &uid, PolicyType: "global"}
		for j, typ := range apiclient.ConsentTypes {
			sets[i].Consents = append(sets[i].Consents, apiclient.Consent{ConsentID: fmt.Sprintf("c-%d-%d", i, j),
				ConsentType: typ, ConsentStatus: apiclient.ConsentGranted, UpdatedAt: "2030-01-01T00:00:00Z"})
		}
	}
	c.setData(cnsLoaded{subject: cnsSubject{userID: "u-1"}, status: apiclient.ConsentComplete, sets: sets})
	_ = c.View(100, 30)
	down := uitest.Key("j")
	b.ResetTimer()
	for b.Loop() {
		c.Update(down)
		_ = c.View(100, 30)
	}
}
