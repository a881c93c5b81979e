package support_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/sandbox"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
	"cardterm/screens/support"
	"cardterm/ui"
)

func TestMain(m *testing.M) { screentest.Main(m) }

// newConsole starts the app in the support console with the client key
// only (no secret key), its state and exports in temporary directories.
func newConsole(t *testing.T, opts support.Options, more ...screentest.Option) *screentest.App {
	t.Helper()
	if opts.StateFile == "" {
		opts.StateFile = filepath.Join(t.TempDir(), "state", "lookups.json")
	}
	if opts.ExportDir == "" {
		opts.ExportDir = t.TempDir()
	}
	build := func(d screenkit.Deps) ui.Screen { return support.New(d, opts) }
	base := []screentest.Option{
		screentest.WithSupport(build, true),
		screentest.WithConfig(func(c *apiclient.Config) { c.SecretKey = "" }),
		screentest.WithSize(120, 40),
	}
	return screentest.New(t, screentest.Of(signin.New), append(base, more...)...)
}

// noSignIn fails if anything but the client-key consent look-ups reached
// the gateway: a support agent never signs in as the customer.
func noSignIn(t *testing.T, app *screentest.App) {
	t.Helper()
	if len(app.Server.Requests()) == 0 {
		t.Fatal("the sandbox saw no request at all")
	}
	for _, r := range app.Server.Requests() {
		if !strings.HasPrefix(r.Path, "/v2/consent/") {
			t.Fatalf("the support console sent %s %s", r.Method, r.Path)
		}
	}
}

func TestSupportLooksUpAUserWithTheClientKeyAlone(t *testing.T) {
	app := newConsole(t, support.Options{})
	app.MustShow(t, "Support console", "no customer sign-in", "u looks up a user id")
	alice := sandbox.DemoUserID("alice@demo.test")
	app.Keys("u")
	app.Type(alice)
	app.Keys("enter")
	s := app.Screen()
	screentest.MustShow(t, s, "User "+alice, "COMPLETE", "termsAndPrivacy", "required", "marketingNotifications")
	screentest.MustNotShow(t, s, "required consent termsAndPrivacy")
	noSignIn(t, app)
}

func TestSupportSaysWhenTheUserHasNoConsentSet(t *testing.T) {
	app := newConsole(t, support.Options{User: "no-such-user"})
	s := app.Screen()
	screentest.MustShow(t, s, "NO CONSENT SET (404)", "No consent set for this user in either region (404)", "a mistyped id looks like this too",
		"EU: no consent set (404)", "US: no consent set (404) either")
	screentest.MustNotShow(t, s, "NONE")
}

func TestSupportCallsOutMissingRequiredConsents(t *testing.T) {
	app := newConsole(t, support.Options{User: sandbox.DemoUserID("frank@demo.test")})
	app.MustShow(t, "INCOMPLETE", "✗ required consent termsAndPrivacy is denied in set")
}

func TestSupportShowsOnboardingSetsWaitingToBeLinked(t *testing.T) {
	app := newConsole(t, support.Options{Onboarding: "onb-demo-001"})
	app.MustShow(t, "Onboarding onb-demo-001", "1 SETS · 1 WAITING", "waiting to be linked")
	noSignIn(t, app)
}

// The audit trail loads every page in turn, filters by type and status,
// and says what each record changed and who made the change.
func TestSupportAuditTimeline(t *testing.T) {
	app := newConsole(t, support.Options{User: sandbox.DemoUserID("alice@demo.test")})
	app.Keys("a")
	s := app.Screen()
	screentest.MustShow(t, s, "Audit trail", "records loaded", "by ", "user agent")
	pages := 0
	for _, r := range app.Server.Requests() {
		if strings.HasSuffix(r.Path, "/audit") {
			pages++
		}
	}
	if pages < 2 {
		t.Fatalf("%d audit pages fetched; the trail is longer than one page", pages)
	}
	app.Keys("t")
	app.MustShow(t, "filters: type emailNotifications")
	app.Keys("s")
	app.MustShow(t, "status denied")
	noSignIn(t, app)
}

// The export writes the Markdown and its JSON, named after the user and
// the time, without IP addresses and user agents unless asked for.
func TestSupportExportsTheCase(t *testing.T) {
	dir := t.TempDir()
	alice := sandbox.DemoUserID("alice@demo.test")
	app := newConsole(t, support.Options{User: alice, ExportDir: dir})
	app.Keys("a", "esc", "e")
	app.MustShow(t, "case written to")
	mds, _ := filepath.Glob(filepath.Join(dir, "case-user-"+alice+"-*.md"))
	jsons, _ := filepath.Glob(filepath.Join(dir, "case-user-"+alice+"-*.json"))
	if len(mds) != 1 || len(jsons) != 1 {
		t.Fatalf("exported %v %v", mds, jsons)
	}
	md, _ := os.ReadFile(mds[0])
	screentest.MustShow(t, string(md), "# Consent case: user "+alice, "**Consent status: complete**", "## Audit trail (",
		"IP addresses and user agents are left out.")
	raw, _ := os.ReadFile(jsons[0])
	var e struct {
		ConsentSets  []json.RawMessage `json:"consentSets"`
		AuditRecords []json.RawMessage `json:"auditRecords"`
	}
	if err := json.Unmarshal(raw, &e); err != nil || len(e.ConsentSets) != 1 || len(e.AuditRecords) < 51 {
		t.Fatalf("json: %v, %d sets, %d records", err, len(e.ConsentSets), len(e.AuditRecords))
	}
	for _, leak := range []string{"198.51.100.23", "AcmeWallet", "Mozilla"} {
		if strings.Contains(string(raw), leak) || strings.Contains(string(md), leak) {
			t.Fatalf("the export carries %q without being asked", leak)
		}
	}
	if info, _ := os.Stat(jsons[0]); info.Mode().Perm() != 0o600 {
		t.Fatalf("export mode %v", info.Mode().Perm())
	}
}

// The secret key is asked for only when an action needs it, kept out of
// sight, and the confirmation shows the request.
func TestSupportAsksForTheSecretKeyOnlyToRevoke(t *testing.T) {
	app := newConsole(t, support.Options{User: sandbox.DemoUserID("alice@demo.test")})
	app.MustNotShow(t, "Secret key")
	app.Keys("j", "x")
	app.MustShow(t, "The secret key is needed", "Secret key")
	app.Type(sandbox.DemoSecretKey)
	app.MustNotShow(t, sandbox.DemoSecretKey)
	app.Keys("enter")
	spec, ok := app.UI().Dialog()
	if !ok || !strings.HasPrefix(spec.Request[0], "DELETE /v2/consent/consentSet/") {
		t.Fatalf("no confirmation showing the request: %+v\n%s", spec, app.Screen())
	}
	app.Keys("y")
	app.MustShow(t, "revoked")
}

func TestSupportReadOnlyHidesEveryAction(t *testing.T) {
	app := newConsole(t, support.Options{User: sandbox.DemoUserID("alice@demo.test")}, screentest.ReadOnly())
	app.MustNotShow(t, "x revoke", "L link")
	app.Keys("x")
	app.MustShow(t, "read-only mode: revoke consent is disabled")
	if _, open := app.UI().Dialog(); open {
		t.Fatal("read-only mode asked to revoke")
	}
}

// On production a revoke waits for the last 4 characters of the user id.
// Production is what the shell makes of the settings: a remote gateway
// with no environment named.
func TestSupportProductionAsksForTheLastFourCharacters(t *testing.T) {
	alice := sandbox.DemoUserID("alice@demo.test")
	app := newConsole(t, support.Options{User: alice}, screentest.AsRemote(""),
		screentest.WithConfig(func(c *apiclient.Config) { c.SecretKey = sandbox.DemoSecretKey }))
	app.MustShow(t, "PRODUCTION")
	app.Keys("j", "x")
	app.MustShow(t, "PRODUCTION: type the last 4 characters of the user id")
	app.Type("0000")
	app.Keys("enter")
	app.MustShow(t, "that is not how the user id ends")
	if _, open := app.UI().Dialog(); open {
		t.Fatal("a wrong ending reached the confirmation")
	}
	app.Keys("backspace", "backspace", "backspace", "backspace")
	app.Type(alice[len(alice)-4:])
	app.Keys("enter")
	if spec, ok := app.UI().Dialog(); !ok || !strings.HasPrefix(spec.Request[0], "DELETE ") {
		t.Fatalf("no confirmation after the right ending:\n%s", app.Screen())
	}
}

// The last look-ups are kept (ids only) and offered again.
func TestSupportRemembersLookups(t *testing.T) {
	state := filepath.Join(t.TempDir(), "lookups.json")
	alice := sandbox.DemoUserID("alice@demo.test")
	app := newConsole(t, support.Options{User: alice, StateFile: state})
	app.Keys("esc")
	app.MustShow(t, "Recent look-ups", alice)
	data, err := os.ReadFile(state)
	if err != nil || !strings.Contains(string(data), alice) || strings.Contains(string(data), "termsAndPrivacy") {
		t.Fatalf("state file %q: %v", data, err)
	}
	again := newConsole(t, support.Options{StateFile: state})
	again.MustShow(t, alice)
	again.Keys("enter")
	again.MustShow(t, "User "+alice, "COMPLETE")
}

// The sign-in screen names the key that opens the console, and esc on the
// look-ups goes back to it.
func TestSupportFromTheSignInScreen(t *testing.T) {
	build := func(d screenkit.Deps) ui.Screen { return support.New(d, support.Options{}) }
	app := screentest.New(t, screentest.Of(signin.New), screentest.WithSupport(build, false),
		screentest.WithSize(120, 30))
	app.MustShow(t, "ctrl+t support console")
	app.Keys("ctrl+t")
	app.MustShow(t, "Support console", "Recent look-ups")
	if !app.UI().Supporting() {
		t.Fatal("ctrl+t did not open the support console")
	}
	app.Keys("esc")
	app.MustShow(t, "Sign in to the Card and Wallet Gateway")
}
