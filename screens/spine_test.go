package screens

import (
	"image/color"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/ui"
	"cardterm/ui/uitest"
)

func mustShow(t testing.TB, screen string, texts ...string) {
	t.Helper()
	for _, text := range texts {
		if !strings.Contains(screen, text) {
			t.Fatalf("screen lacks %q:\n%s", text, screen)
		}
	}
}

func mustNotShow(t testing.TB, screen string, texts ...string) {
	t.Helper()
	for _, text := range texts {
		if strings.Contains(screen, text) {
			t.Fatalf("screen shows %q but must not:\n%s", text, screen)
		}
	}
}

func TestSignInScreenOnSandbox(t *testing.T) {
	app := newTestApp(t, withDemo())
	mustShow(t, app.screen(), "SANDBOX", "Sandbox demo accounts", "alice@demo.test", "•••••••••")
	mustNotShow(t, app.screen(), "│ demo-pass")
	app.golden("signin")

	// The form comes filled: enter alone signs in and shows the account.
	app.keys("enter")
	mustShow(t, app.screen(), "Alice Martin", "VERIFIED", "session 6h00m")
}

func TestSignInFailureKeepsWhatWasTyped(t *testing.T) {
	app := newTestApp(t)
	app.typeText("alice@demo.test")
	app.keys("tab")
	app.typeText("not-the-password")
	app.keys("enter")
	s := app.screen()
	mustShow(t, s, "Sign-in refused", "Not authenticated", "Check the", "alice@demo.test")
	if app.root.(*ui.Root).SignedIn() {
		t.Fatal("signed in with a wrong password")
	}
	app.golden("signin-refused")
}

func TestAccountScreen(t *testing.T) {
	app := newTestApp(t)
	app.signIn("alice@demo.test")
	s := app.screen()
	mustShow(t, s, "Alice Martin", "VERIFIED", "alice@demo.test", "1990-04-12", "+33 612345678",
		"FR", "expires 2026-11-22 15:00", "session 6h00m")
	app.golden("account-alice")

	// The status bar counts down on the injected clock.
	app.clock.Advance(90 * time.Minute)
	app.keys("r")
	mustShow(t, app.screen(), "in 4h30m", "session 4h30m")
}

func TestAccountOfUSResident(t *testing.T) {
	app := newTestApp(t, withUS())
	app.signIn("sam@demo.test")
	s := app.screen()
	mustShow(t, s, "Sam Rivera", "US state", "CA", "***-**-6789", "US")
	app.golden("account-us")
}

func TestHostileGatewayTextIsNeutralised(t *testing.T) {
	app := newTestApp(t)
	app.signIn("mallory@demo.test")
	frame := app.root.View().Content
	for _, bad := range []string{"\x1b]8;", "\x1b]52;", "\x07", "\r", "\u202e", "\u200b", "\x1b[31m"} {
		if strings.Contains(frame, bad) {
			t.Fatalf("the frame carries %q from the gateway", bad)
		}
	}
	mustShow(t, app.screen(), "<U+202E>", "<U+200B>")
	app.golden("account-hostile")
}

func TestCardFreezeAndUnfreeze(t *testing.T) {
	app := newTestApp(t)
	app.signIn("alice@demo.test")
	app.keys("2")
	mustShow(t, app.screen(), "ACTIVE", "VIRTUAL", "ALICE MARTIN", "4242", "2029/08", "network", "VISA")
	app.golden("card-active")

	app.keys("f")
	mustShow(t, app.screen(), "Freeze the card ending 4242?", "POST /v1/card/freeze", "declined")
	app.golden("card-freeze-confirm")

	app.keys("y")
	mustShow(t, app.screen(), "FROZEN", "card frozen")
	mustNotShow(t, app.screen(), "Freeze the card")

	app.keys("f")
	mustShow(t, app.screen(), "Unfreeze the card", "authorizations resume")
	app.keys("n")
	mustShow(t, app.screen(), "FROZEN")
	mustNotShow(t, app.screen(), "Unfreeze the card")

	app.keys("f", "y")
	mustShow(t, app.screen(), "ACTIVE", "card unfrozen")
}

func TestCardDoublePressSendsOneRequest(t *testing.T) {
	app := newTestApp(t)
	app.signIn("alice@demo.test")
	app.keys("2")
	// f opens one dialog; a second f while it is open does nothing, and
	// confirming sends one freeze. A second freeze would answer 400.
	app.keys("f", "f", "y")
	s := app.screen()
	mustShow(t, s, "FROZEN", "card frozen")
	mustNotShow(t, s, "already frozen")
}

func TestCardStates(t *testing.T) {
	cases := []struct {
		user string
		want []string
	}{
		{"frank@demo.test", []string{"FROZEN", "PHYSICAL", "Unfreezing takes effect at once"}},
		{"bruno@demo.test", []string{"BLOCKED", "permanent", "order a new card"}},
		{"nora@demo.test", []string{"No card yet", "Press n to order"}},
		{"umar@demo.test", []string{"does not allow card operations", "VERIFIED identity"}},
	}
	for _, tc := range cases {
		t.Run(strings.TrimSuffix(tc.user, "@demo.test"), func(t *testing.T) {
			app := newTestApp(t)
			app.signIn(tc.user)
			app.keys("2")
			mustShow(t, app.screen(), tc.want...)
			mustNotShow(t, app.screen(), "Could not load")
			app.golden("card")
		})
	}
}

func TestBlockedCardUnfreezeShowsGatewayRefusal(t *testing.T) {
	app := newTestApp(t)
	app.signIn("bruno@demo.test")
	app.keys("2", "f")
	mustShow(t, app.screen(), "Unfreeze the card", "BLOCKED", "permanent")
	app.keys("y")
	s := app.screen()
	mustShow(t, s, "Card is not frozen", "BLOCKED")
}

func TestOrderCardReplacesBlocked(t *testing.T) {
	app := newTestApp(t)
	app.signIn("bruno@demo.test")
	app.keys("2", "n")
	mustShow(t, app.screen(), "Order a new virtual card?", "POST /v1/card/order")
	app.keys("y")
	mustShow(t, app.screen(), "ACTIVE", "VIRTUAL", "new card ordered")
}

func TestReadOnlyRefusesCardChanges(t *testing.T) {
	app := newTestApp(t, readOnly())
	app.signIn("alice@demo.test")
	app.keys("2", "f")
	s := app.screen()
	mustShow(t, s, "READ-ONLY", "read-only mode", "ACTIVE")
	mustNotShow(t, s, "Freeze the card", "f freeze")
}

func TestSignOutKillsTheToken(t *testing.T) {
	app := newTestApp(t)
	app.signIn("alice@demo.test")
	old := app.client.Session()
	app.keys("S")
	mustShow(t, app.screen(), "Sign out?")
	app.keys("y")
	mustShow(t, app.screen(), "Sign in to the Card and Wallet Gateway", "Signed out")
	if app.client.Session().Valid() {
		t.Fatal("the client still holds a session")
	}
	// The old token is dead at the gateway, not just forgotten here.
	app.client.SetSession(old)
	if _, err := app.client.User(t.Context()); err == nil {
		t.Fatal("the old access token still works after sign-out")
	}
}

func TestExpiredSessionReturnsToSignIn(t *testing.T) {
	app := newTestApp(t)
	app.signIn("alice@demo.test")
	app.client.SetSession(withoutRefresh(app.client.Session()))
	app.clock.Advance(6*time.Hour + time.Minute)
	app.keys("r")
	mustShow(t, app.screen(), "Sign in to the Card and Wallet Gateway", "session has ended")
}

func TestScreensDropTheUserOnSignOut(t *testing.T) {
	app := newTestApp(t)
	app.signIn("alice@demo.test")
	app.keys("2")
	mustShow(t, app.screen(), "ALICE MARTIN")

	account, card := NewAccount(app.deps), NewCard(app.deps)
	uitest.Drive(lone{account}, uitest.Run(account.Enter())...)
	uitest.Drive(lone{card}, uitest.Run(card.Enter())...)
	mustShow(t, account.View(80, 20), "Alice Martin")
	mustShow(t, card.View(80, 20), "ALICE MARTIN")

	for _, msg := range []tea.Msg{ui.SignedOutMsg{}, ui.SessionExpiredMsg{}} {
		account.Update(msg)
		card.Update(msg)
		if strings.Contains(account.View(80, 20), "Alice") || strings.Contains(card.View(80, 20), "ALICE") {
			t.Fatalf("%T left the last user's data on screen", msg)
		}
	}
}

// lone lets uitest.Drive feed one screen on its own.
type lone struct{ s ui.Screen }

func (m lone) Init() tea.Cmd { return nil }
func (m lone) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	s, cmd := m.s.Update(msg)
	return lone{s}, cmd
}
func (m lone) View() tea.View { return tea.NewView(m.s.View(80, 20)) }

func TestSignInInputsFollowTheTerminalBackground(t *testing.T) {
	app := newTestApp(t)
	// inputLine is the style sequence just before the placeholder: what
	// the input itself draws, not the theme-styled box around it.
	inputLine := func() string {
		frame := app.root.View().Content
		i := strings.Index(frame, "sername or email")
		if i < 0 {
			t.Fatal("no username input on screen")
		}
		start := strings.LastIndex(frame[:i], "\x1b[")
		return frame[start:i]
	}
	dark := inputLine()
	// A light terminal answers the background query: the root rebuilds the
	// styles, and the inputs, made before it was known, must follow.
	app.drive(tea.BackgroundColorMsg{Color: color.White})
	if light := inputLine(); light == dark {
		t.Fatalf("the username input kept its dark-terminal styles: %q", light)
	}
}
