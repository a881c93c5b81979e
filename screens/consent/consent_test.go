package consent

import (
	tea "charm.land/bubbletea/v2"

	"fmt"
	"strings"
	"testing"

	"cardterm/screens/account"
	"cardterm/screens/card"

	"cardterm/apiclient"
	"cardterm/sandbox"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

func TestMain(m *testing.M) { screentest.Main(m) }

// withoutSecret runs the app with no secret key (consent mutations refused).
func withoutSecret() screentest.Option {
	return func(ts *screentest.Setup) { ts.Config.SecretKey = "" }
}

// newConsentApp signs user in and opens the consent screen.
var newConsentApp = screentest.Preset{SignIn: screentest.Of(signin.New), Open: screenkit.ConsentScreen,
	Options: []screentest.Option{screentest.WithScreen(screentest.Of(account.New), screentest.Of(card.New), screentest.Of(New))}}.NewSignedIn

// lookUpUser looks a user id up with u, replacing the id the form offers.
func lookUpUser(a *screentest.App, userID string) {
	a.T.Helper()
	a.Keys("u", "ctrl+u")
	a.Type(userID)
	a.Keys("enter")
}

// bareScreen is the consent screen alone, with no gateway, for what it
// draws from data set directly.
func bareScreen() *Screen {
	st := theme.New(true, false)
	return New(screenkit.Deps{Styles: &st, Requests: ui.NewRequests()})
}

func TestConsentRevokeOptionalThenRequiredAndPageTheAudit(t *testing.T) {
	a := newConsentApp(t, "alice@demo.test")
	alice := sandbox.DemoUserID("alice@demo.test")
	a.MustShow(t, "Consent", "user "+alice, "(you)", "complete", "All required consents granted",
		"termsAndPrivacy", "marketingNotifications", "✓ granted", "row 1 of 4")
	a.Golden("consent-alice")

	a.Keys("j", "x")
	s := a.Screen()
	screentest.MustShow(t, s, "Revoke marketingNotifications?", "DELETE /v2/consent/consentSet/", "marketingNotifications is optional.",
		"The user's consent status stays complete.")
	a.Keys("y")
	a.MustShow(t, "⊘ revoked", "revoked marketingNotifications · consent status", "All required consents granted")

	a.Keys("k", "x")
	a.MustShow(t, "Revoke termsAndPrivacy?", "REQUIRED consent of the global policy", "becomes INCOMPLETE (now complete)")
	a.Golden("consent-revoke-required")
	a.Keys("y")
	a.MustShow(t, "incomplete", "Required consent missing, denied or revoked: termsAndPrivacy")

	// The revoked consent cannot be revoked twice: nothing is sent.
	a.Keys("x")
	a.MustShow(t, "termsAndPrivacy is revoked: only a granted consent")

	a.Keys("a")
	a.MustShow(t, "Audit trail", "records 1–50 of 124", "n next", "revoked", "granted → revoked")
	a.Keys("n")
	a.MustShow(t, "records 51–100 of 124", "p previous · n next")
	a.Keys("n", "G") // the oldest records, at the end of the last page
	a.MustShow(t, "records 101–124 of 124", "new: granted")
	a.Keys("n")
	a.MustShow(t, "this is the last page")
	a.Keys("p")
	a.MustShow(t, "records 51–100 of 124")
	a.Keys("esc")
	a.MustShow(t, "Required consent missing")
}

func TestConsentLinkOnboardingOnce(t *testing.T) {
	a := newConsentApp(t, "alice@demo.test")
	frank := sandbox.DemoUserID("frank@demo.test")
	lookUpUser(a, frank)
	a.MustShow(t, "user "+frank, "incomplete", "✗ denied")

	a.Keys("b")
	a.Type("onb-demo-001")
	a.Keys("enter")
	a.MustShow(t, "onboarding onb-demo-001", "1 consent set, 0 linked to a user", "emailNotifications")

	link := func() {
		a.Keys("L")
		a.Type(frank)
		a.Keys("enter")
		a.MustShow(t, "PATCH /v2/consent/onboarding/", `{"userId":"`+frank+`"}`, "cannot be undone")
		a.Keys("y")
	}
	link()
	a.MustShow(t, "1 consent set, 1 linked to a user", "linked · consent status complete")
	link()
	s := a.Screen()
	screentest.MustShow(t, s, "already linked; linking cannot be undone", "Consent set already linked (409)", frank)
	a.Golden("consent-link-409")

	a.Keys("esc")
	lookUpUser(a, frank)
	a.MustShow(t, "user "+frank, "complete", "All required consents granted · 2 consent sets")
}

func TestConsentNoneAndUSPolicy(t *testing.T) {
	a := newConsentApp(t, "nora@demo.test")
	a.MustShow(t, "No consent set for this user (404)")
	mustNotShowNone(t, a.Screen())
	a.Keys("a")
	a.MustShow(t, "this user has no consent set, so no audit trail")

	us := newConsentApp(t, "sam@demo.test", screentest.WithUS())
	us.MustShow(t, "complete", "eSignAct", "termsAndPrivacy")
	us.Keys("enter")
	us.MustShow(t, "Policy", "us  (requires termsAndPrivacy, eSignAct)", "in force", "agent AcmeWallet")
	us.Keys("G")
	us.MustShow(t, "Links", "self         GET /v2/consent/consentSet/")
}

// mustNotShowNone fails when the header shows the status none: a user the
// gateway answered 404 has no consent set, which is not a set whose
// status is none.
func mustNotShowNone(t *testing.T, screen string) {
	t.Helper()
	for _, line := range strings.Split(screen, "\n") {
		if strings.Contains(line, "Consent") && strings.Contains(line, "user ") && strings.Contains(line, "none") {
			t.Fatalf("a 404 user is shown with the status none: %q", line)
		}
	}
	screentest.MustNotShow(t, screen, "status none")
}

// A look-up answered 404 reads "No consent set for this user (404)",
// never "Consent none"; a 200 with the status none still reads as such.
func TestConsentNotFoundIsNotStatusNone(t *testing.T) {
	a := newConsentApp(t, "alice@demo.test")
	nora := sandbox.DemoUserID("nora@demo.test")
	lookUpUser(a, nora)
	a.MustShow(t, "user "+nora, "No consent set for this user (404)")
	mustNotShowNone(t, a.Screen())

	c := bareScreen()
	c.SetSize(100, 20)
	c.setData(loaded{subject: subject{userID: "u-1"}, status: apiclient.ConsentNone})
	screentest.MustShow(t, uitest.Plain(tea.NewView(c.View())), "none", "No consent set is linked to this user (status none)")
}

func TestConsentReadOnlyAndWithoutSecret(t *testing.T) {
	ro := newConsentApp(t, "alice@demo.test", screentest.ReadOnly())
	for _, k := range []string{"x", "L", "N"} {
		ro.Keys(k)
		ro.MustShow(t, "read-only mode:", "is disabled")
	}
	ro.MustNotShow(t, "revoke consent", "Revoke")

	ns := newConsentApp(t, "alice@demo.test", withoutSecret())
	ns.Keys("x")
	ns.MustShow(t, "the secret key is needed: set CARDTERM_SECRET_KEY")
	ns.MustNotShow(t, "Revoke termsAndPrivacy?")
}

func TestConsentCreateSet(t *testing.T) {
	a := newConsentApp(t, "alice@demo.test")
	a.Keys("N")
	a.MustShow(t, "New consent set", "Onboarding ID", "Policy", "[global]", "left out")
	a.Keys("ctrl+s")
	a.MustShow(t, "an onboarding id is required")
	a.Type("onb-test-7")
	a.Keys("tab", "space") // policy: us, eSignAct becomes granted
	a.MustShow(t, "[us]", "[granted]", "Required by the us policy: termsAndPrivacy, eSignAct")
	a.Keys("tab", "space") // termsAndPrivacy: denied
	a.Keys("ctrl+s")
	a.MustShow(t, "POST /v2/consent/onboarding", `"policyType": "us"`, `{"consentType":"termsAndPrivacy",`, `"consentStatus":"denied"}`,
		"termsAndPrivacy is required by the us policy and is not granted")
	a.Keys("y")
	a.MustShow(t, "onboarding onb-test-7", "1 consent set, 0 linked", "created consent set", "✗ denied")
}

func TestConsentHostileMetadataIsNeutralised(t *testing.T) {
	a := newConsentApp(t, "mallory@demo.test")
	a.Keys("enter")
	frame := a.Root.View().Content
	for _, bad := range []string{"\x1b]8;", "\x1b]52;", "\x1b[2J", "\x07", "\u202e", "\x1b[7m-2024"} {
		if strings.Contains(frame, bad) {
			t.Fatalf("the detail view carries %q from the gateway", bad)
		}
	}
	a.MustShow(t, "agent Mozilla/5.0")
	a.Keys("esc", "a")
	frame = a.Root.View().Content
	if strings.Contains(frame, "\x1b]52;") || strings.Contains(frame, "\x1b[2J") {
		t.Fatal("the audit view carries escapes from the gateway")
	}
	a.MustShow(t, "user agent Mozilla/5.0")
}

func TestConsentCancelledDialogsSendNothing(t *testing.T) {
	a := newConsentApp(t, "alice@demo.test")
	a.Keys("x", "n")
	a.MustShow(t, "✓ granted", "complete")
	a.MustNotShow(t, "⊘ revoked")
	// The form stays open after a cancelled link, and can be sent later.
	a.Keys("L")
	a.Type("someone")
	a.Keys("enter", "n")
	a.MustShow(t, "Link a consent set to a user", "someone")
	a.Keys("enter")
	a.MustShow(t, "PATCH /v2/consent/onboarding/")
	a.Keys("y")
	a.MustShow(t, "already linked; linking cannot be undone")
}

// BenchmarkConsentKeyPress100k: a key press (Update + View) on a user with
// 20,000 consent sets of 5 consents (100,000 rows); the budget is 1 ms.
func BenchmarkConsentKeyPress100k(b *testing.B) {
	c := bareScreen()
	sets := make([]apiclient.ConsentSet, 20000)
	for i := range sets {
		uid := "u-1"
		sets[i] = apiclient.ConsentSet{ConsentSetID: fmt.Sprintf("set-%05d", i), UserID: &uid, PolicyType: "global"}
		for j, typ := range apiclient.ConsentTypes {
			sets[i].Consents = append(sets[i].Consents, apiclient.Consent{ConsentID: fmt.Sprintf("c-%d-%d", i, j),
				ConsentType: typ, ConsentStatus: apiclient.ConsentGranted, UpdatedAt: "2030-01-01T00:00:00Z"})
		}
	}
	c.setData(loaded{subject: subject{userID: "u-1"}, status: apiclient.ConsentComplete, sets: sets})
	c.SetSize(100, 30)
	down := uitest.Key("j")
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		c.Update(down)
		_ = c.View()
	}
}

// The bug of issue 8: with the consent filter open, widening the terminal
// past a column breakpoint dropped the filter (the old screen made a new
// table in View), and the next "1" typed jumped to Account. Now the
// layout changes in SetSize on the same table: the filter stays open,
// with what was typed, and "1" types.
func TestConsentFilterSurvivesAWidening(t *testing.T) {
	a := newConsentApp(t, "alice@demo.test", screentest.WithSize(90, 30))
	a.Keys("/", "m")
	a.Resize(160, 30) // past the wide layout's breakpoint (100 body cells)
	a.Keys("1")       // types into the filter
	c, ok := a.UI().Active().(*Screen)
	if !ok {
		t.Fatalf("1 left the consent screen for %s", a.UI().Active().Title())
	}
	if !c.table.Filtering() || c.table.Filter() != "m1" {
		t.Fatalf("filter after the resize: open %v, %q", c.table.Filtering(), c.table.Filter())
	}
}

// A consent status the app does not know is shown as the gateway sent it,
// sanitized, in the set's detail view.
func TestConsentDetailSanitizesUnknownStatus(t *testing.T) {
	c := bareScreen()
	uid := "u-1"
	c.setData(loaded{subject: subject{userID: uid}, status: "complete", sets: []apiclient.ConsentSet{{
		ConsentSetID: "set-1", UserID: &uid, PolicyType: "global",
		Consents: []apiclient.Consent{{ConsentID: "k1", ConsentType: "termsAndPrivacy", ConsentStatus: screentest.HostileText}},
	}}})
	c.SetSize(100, 30)
	_, cmd := c.Update(uitest.Key("enter"))
	opened, _ := cmd().(ui.OpenLayerMsg)
	detail, ok := opened.Layer.(*detailView)
	if !ok {
		t.Fatal("enter did not open the set")
	}
	detail.SetSize(100, 30)
	frame := detail.View()
	screentest.MustBeClean(t, "the consent detail", frame)
	screentest.MustShow(t, uitest.Plain(tea.NewView(frame)), "<U+202E>evil")
}

// In the audit view the help lists only what works there.
func TestConsentHelpMatchesMode(t *testing.T) {
	c := bareScreen()
	for _, group := range newAuditView(c, "u-1").KeyMap().FullHelp() {
		for _, b := range group {
			for _, k := range b.Keys() {
				if b.Enabled() && (k == "x" || k == "L" || k == "N" || k == "u") {
					t.Fatalf("the audit view's help offers %q", k)
				}
			}
		}
	}
}

// i shows the selected set's JSON as the gateway sent it; a mistyped user
// or onboarding id is a 404, said as such, never the status none.
func TestConsentInspectAndUnknownIDs(t *testing.T) {
	a := newConsentApp(t, "alice@demo.test")
	a.Keys("i")
	a.MustShow(t, "JSON as the gateway sent it", "consent set ", `"consentSetId"`)
	a.Keys("esc", "u", "ctrl+u")
	a.Type("cd539010-9af7-562a-beff-000000000000")
	a.Keys("enter")
	s := a.Screen()
	screentest.MustShow(t, s, "No consent set for this user (404)", "cd539010-9af7-562a-beff-000000000000")
	screentest.MustNotShow(t, s, "status none")
	a.Keys("b")
	a.Type("onb-mistyped")
	a.Keys("enter")
	a.MustShow(t, "onb-mistyped", "(404)")
}
