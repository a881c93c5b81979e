package support_test

import (
	"path/filepath"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/domain/actionlog"
	"cardterm/sandbox"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
	"cardterm/screens/support"
	"cardterm/screens/support/grants"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

// consoleWithGrants builds a console whose state folder records approved
// sessions, and returns it with the app.
func consoleWithGrants(t *testing.T, secret string) (*screentest.App, *support.Screen, support.Options) {
	t.Helper()
	opts := support.Options{StateFile: filepath.Join(t.TempDir(), "lookups.json"), ActionLog: filepath.Join(t.TempDir(), "actions.jsonl"),
		GrantsDir: filepath.Join(t.TempDir(), "approved-sessions")}
	var console *support.Screen
	build := func(d screenkit.Deps) ui.Screen { console = support.New(d, opts); return console }
	app := screentest.New(t, screentest.Of(signin.New), screentest.WithSupport(build, true),
		screentest.WithConfig(func(c *apiclient.Config) { c.SecretKey = secret }), screentest.WithSize(120, 40))
	return app, console, opts
}

// leave records a session as a crashed cardterm leaves it.
func leave(t *testing.T, dir string, g grants.Grant) {
	t.Helper()
	held, err := grants.Open(dir).Hold(g)
	if err != nil {
		t.Fatal(err)
	}
	held.Close()
}

// A record whose tokens the gateway refuses, both of them: with the
// secret key the start learns the session ended already, says so, logs
// it and forgets the record; without it, the record is kept and the
// notice says what would revoke it.
func TestStartForgetsASessionThatEndedAtTheGatewayAlready(t *testing.T) {
	app, console, opts := consoleWithGrants(t, sandbox.DemoSecretKey)
	alice := sandbox.DemoUserID("alice@demo.test")
	dead := grants.Grant{BaseURL: app.Client.Config().BaseURL, ClientKey: app.Client.Config().ClientKey, UserID: alice,
		OpenedAt: time.Now().Add(-time.Hour), AccessToken: "at-gone", RefreshToken: "rt-gone"}
	leave(t, opts.GrantsDir, dead)
	app.Drive(uitest.Run(console.AtStart())...)
	app.MustShow(t, "revoked 1 customer-approved session", "ended at the gateway already")
	if left, _ := grants.Open(opts.GrantsDir).LeftOpen(); len(left) != 0 {
		t.Fatalf("the record of an ended session stays: %v", left)
	}
	lines, _ := actionlog.Open(opts.ActionLog).Read(nil)
	if len(lines) != 1 || lines[0].Action != actionlog.ActionApprovedRecovered || lines[0].UserID != alice || !lines[0].OK() {
		t.Fatalf("the log: %+v", lines)
	}

	other, console2, opts2 := consoleWithGrants(t, "")
	dead.BaseURL = other.Client.Config().BaseURL
	leave(t, opts2.GrantsDir, dead)
	other.Drive(uitest.Run(console2.AtStart())...)
	other.MustShow(t, "could not be revoked", "needs the tenant's secret key")
	left, _ := grants.Open(opts2.GrantsDir).LeftOpen()
	if len(left) != 1 {
		t.Fatalf("the record was not kept for the next start: %v", left)
	}
	left[0].Close()
}

// A record of another gateway is kept for a start there, and said.
func TestStartKeepsASessionOfAnotherGateway(t *testing.T) {
	app, console, opts := consoleWithGrants(t, sandbox.DemoSecretKey)
	leave(t, opts.GrantsDir, grants.Grant{BaseURL: "https://gw.example.com", ClientKey: "ck_live", UserID: "u1", AccessToken: "a", RefreshToken: "r"})
	app.Drive(uitest.Run(console.AtStart())...)
	app.MustShow(t, "left open on another gateway", "https://gw.example.com")
	if n := len(app.Server.Requests()); n != 0 {
		t.Fatalf("the other gateway's session was sent here (%d requests)", n)
	}
}
