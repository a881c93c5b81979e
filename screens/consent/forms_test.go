package consent

import (
	"strings"
	"testing"

	"cardterm/sandbox"
	"cardterm/screens/screentest"
	"cardterm/ui"
)

// consentScreen is the consent screen of the app.
func consentScreen(t *testing.T, a *screentest.App) *Screen {
	t.Helper()
	s, ok := a.UI().Active().(*Screen)
	if !ok {
		t.Fatalf("the active screen is %s", a.UI().Active().Title())
	}
	return s
}

// mustAsk fails unless a confirmation is open whose request starts with
// want, then answers it with answer.
func mustAsk(t *testing.T, a *screentest.App, want, answer string) {
	t.Helper()
	spec, open := a.UI().Dialog()
	if !open || len(spec.Request) == 0 || !strings.HasPrefix(spec.Request[0], want) {
		t.Fatalf("no confirmation of %q (open %v, request %q):\n%s", want, open, spec.Request, a.Screen())
	}
	a.Keys(answer)
}

// Every consent form follows the one rule: ctrl+s sends from any field,
// enter sends on the last field and moves on elsewhere, esc leaves; a
// check that fails keeps the form open with what was typed.
func TestConsentFormsSubmitTheSameWay(t *testing.T) {
	a := newConsentApp(t, "alice@demo.test")
	frank := sandbox.DemoUserID("frank@demo.test")

	// Look up a user: ctrl+s from the (only) field.
	a.Keys("u", "ctrl+u")
	a.Type(frank)
	a.Keys("ctrl+s")
	a.MustShow(t, "user "+frank, "incomplete")

	// Look up an onboarding: an empty id is refused on its field.
	a.Keys("b", "enter")
	a.MustShow(t, "Look up an onboarding's consent sets", "✗ type an onboarding id")
	a.Type("onb-demo-001")
	a.Keys("enter")
	a.MustShow(t, "onboarding onb-demo-001", "1 consent set, 0 linked to a user")

	// Link: ctrl+s reviews; a cancelled confirmation keeps the form and
	// what was typed; esc leaves.
	a.Keys("L")
	a.Type("someone")
	a.Keys("ctrl+s")
	mustAsk(t, a, "PATCH /v2/consent/onboarding/", "n")
	a.MustShow(t, "Link a consent set to a user", "someone")
	a.Keys("esc")
	if top, open := a.UI().TopLayer(); open {
		t.Fatalf("esc left the link form open: %T", top)
	}

	// Create: enter moves from field to field and sends on the last one.
	a.Keys("N")
	a.MustShow(t, "New consent set", "onb-demo-001")
	for range 6 { // onboardingId, policyType and four of the five consents
		a.Keys("enter")
		if _, open := a.UI().Dialog(); open {
			t.Fatal("enter before the last field sent the form")
		}
	}
	a.Keys("enter")
	mustAsk(t, a, "POST /v2/consent/onboarding", "n")
	a.Keys("esc")
	if top, open := a.UI().TopLayer(); open {
		t.Fatalf("esc left the create form open: %T", top)
	}
}

// A set the gateway refuses (400) keeps the form open with every value;
// the detail about the onboarding id shows under that field.
func TestConsentCreateRefusedKeepsWhatWasTyped(t *testing.T) {
	a := newConsentApp(t, "alice@demo.test")
	a.Keys("N")
	a.Type("bad id")
	a.Keys("tab", "tab", "space") // termsAndPrivacy: denied
	a.Keys("ctrl+s")
	mustAsk(t, a, "POST /v2/consent/onboarding", "y")
	form, ok := topForm(a)
	if !ok {
		t.Fatalf("the refused create form closed:\n%s", a.Screen())
	}
	if got := form.Form.Value("onboardingId"); got != "bad id" {
		t.Fatalf("the onboarding id typed became %q", got)
	}
	if got := form.Form.Value("termsAndPrivacy"); got != "denied" {
		t.Fatalf("the termsAndPrivacy choice became %q", got)
	}
	screen := a.Screen()
	screentest.MustShow(t, screen, "✗ must be 1 to 128 printable characters", "Validation failed (400)")
	field := strings.Index(screen, "bad id")
	if field < 0 || strings.Index(screen, "✗ must be 1 to 128") < field {
		t.Fatalf("the refusal is not under the onboardingId field:\n%s", screen)
	}
	if n := len(a.Server.Requests()); n == 0 {
		t.Fatal("nothing reached the sandbox")
	}
}

// One consent change at a time: asking for another while one is being
// confirmed says so and opens nothing.
func TestConsentOneChangeAtATime(t *testing.T) {
	a := newConsentApp(t, "alice@demo.test")
	a.Keys("x")
	mustAsk(t, a, "DELETE /v2/consent/consentSet/", "n")
	a.Keys("x")
	s := consentScreen(t, a)
	notice, ok := s.askRevoke()().(ui.NoticeMsg) // the dialog is open: the flow is busy
	if !ok || !strings.Contains(notice.Notice.Text, "another consent change (revoking termsAndPrivacy) is in progress") {
		t.Fatalf("a second revoke while one is confirmed gave %#v", notice)
	}
	a.Keys("n")
}

// In a set's detail the help lists the scroll keys, and read-only mode
// refuses link there as on the main view.
func TestConsentDetailKeys(t *testing.T) {
	a := newConsentApp(t, "alice@demo.test", screentest.ReadOnly())
	a.Keys("enter")
	top, _ := a.UI().TopLayer()
	var keys []string
	for _, group := range top.KeyMap().FullHelp() {
		for _, b := range group {
			if b.Enabled() {
				keys = append(keys, b.Keys()...)
			}
		}
	}
	for _, want := range []string{"up", "down", "pgup", "pgdown", "home", "end", "esc", "a", "u"} {
		if !strings.Contains(" "+strings.Join(keys, " ")+" ", " "+want+" ") {
			t.Fatalf("the detail's help lacks %q: %v", want, keys)
		}
	}
	if top.KeyMap().(detailKeys).Link.Enabled() {
		t.Fatal("link is enabled in the read-only detail")
	}
	a.Keys("L")
	a.MustShow(t, "read-only mode:", "is disabled", "Consent set")
	a.Keys("esc")
	a.MustShow(t, "row 1 of 4")
}

// At 80 columns the audit id under the audit table and the paths of a
// set's links lose their middle, never their end.
func TestConsentIDsKeepTheirEndsWhenNarrow(t *testing.T) {
	a := newConsentApp(t, "alice@demo.test", screentest.WithSize(80, 24))
	a.Keys("a")
	top, _ := a.UI().TopLayer()
	audit, ok := top.(*auditView)
	if !ok {
		t.Fatal("a did not open the audit trail")
	}
	record, _ := audit.selected()
	mustEndWith(t, a.Screen(), "audit id ", record.AuditID[len(record.AuditID)-6:])

	a.Keys("esc", "enter", "G")
	set, _ := consentScreen(t, a).selectedSet()
	mustEndWith(t, a.Screen(), "self ", set.ConsentSetID[len(set.ConsentSetID)-6:])
}

// mustEndWith fails unless the line that holds label is shortened in the
// middle and ends with tail.
func mustEndWith(t *testing.T, screen, label, tail string) {
	t.Helper()
	for _, line := range strings.Split(screen, "\n") {
		if strings.Contains(line, label) {
			if line = strings.TrimSpace(line); !strings.HasSuffix(line, tail) || !strings.Contains(line, "…") {
				t.Fatalf("the line of %q does not keep the end %q: %q", label, tail, line)
			}
			return
		}
	}
	t.Fatalf("no line holds %q:\n%s", label, screen)
}

// A form opened from a set's detail goes back to the detail when it is
// left; a look-up made from there shows the main view.
func TestConsentFormsFromTheDetailGoBackToIt(t *testing.T) {
	a := newConsentApp(t, "alice@demo.test")
	a.Keys("enter")
	for _, open := range []string{"L", "N", "u"} {
		a.Keys(open, "esc")
		a.MustShow(t, "Consent set", "this set's own status")
	}
	a.Keys("u", "enter")
	a.MustShow(t, "All required consents granted", "row 1 of 4")
	if top, open := a.UI().TopLayer(); open {
		t.Fatalf("after a look-up from the detail %T is open", top)
	}
}

// topForm is the form of the consent form layer on top, if one is.
func topForm(a *screentest.App) (*formLayer, bool) {
	top, _ := a.UI().TopLayer()
	form, ok := top.(*formLayer)
	return form, ok
}
