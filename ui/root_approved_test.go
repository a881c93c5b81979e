package ui_test

import (
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

// readOnlyScreen is a customer's screen built read-only: its one binding
// is a mutating one, disabled.
type readOnlyScreen struct{ fakeScreen }

func (s *readOnlyScreen) KeyMap() help.KeyMap {
	b := key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "freeze"))
	b.SetEnabled(false)
	return fakeKeys{b}
}

// approvedFixture is a root in the support console with an approved
// session open on one customer's screen.
func approvedFixture(t *testing.T) (*ui.Root, *fakeScreen, *fakeScreen, *readOnlyScreen) {
	t.Helper()
	st := theme.New(true, false)
	console := &fakeScreen{id: ui.ScreenSupport, title: "Support console"}
	agentCard := &fakeScreen{id: cardScreen, title: "Card"}
	customerCard := &readOnlyScreen{fakeScreen{id: cardScreen, title: "Customer card"}}
	root := ui.NewRoot(ui.RootOptions{Styles: &st, Requests: ui.NewRequests(), SignIn: &fakeScreen{id: ui.ScreenSignIn, title: "Sign in"},
		Screens: []ui.Screen{agentCard}, Support: console, StartInSupport: true, Gateway: "SANDBOX",
		EndApprovedRequest: []string{"DELETE /v1/auth/oauth/revoke"},
		Now:                func() time.Time { return t0 }})
	uitest.Drive(root, tea.WindowSizeMsg{Width: 100, Height: 30})
	uitest.Drive(root, ui.ApprovedSessionMsg{Customer: "Alice Martin (alice@demo.test)", Region: "EU", Screens: []ui.Screen{customerCard}})
	return root, console, agentCard, customerCard
}

func TestApprovedSessionShowsTheCustomersScreensReadOnlyUnderABanner(t *testing.T) {
	root, _, agentCard, customerCard := approvedFixture(t)
	frame := uitest.Plain(root.View())
	lines := strings.Split(frame, "\n")
	if !strings.Contains(lines[0], "READ-ONLY · CUSTOMER-APPROVED SESSION: Alice Martin (alice@demo.test)") {
		t.Fatalf("no banner on the first line:\n%s", frame)
	}
	if !strings.Contains(frame, "Customer card body") || strings.Contains(frame, "Support console body") {
		t.Fatalf("the customer's screen is not shown:\n%s", frame)
	}
	if _, h := root.BodySize(); h != 30-3 || customerCard.h != h {
		t.Fatalf("body height %d (screen given %d); the banner takes a line", h, customerCard.h)
	}
	if customerCard.entered != 1 || agentCard.entered != 0 {
		t.Fatalf("entered: customer %d, agent's %d", customerCard.entered, agentCard.entered)
	}
	uitest.Drive(root, uitest.Key("f"))
	if n, _ := root.CurrentNotice(); !strings.Contains(n.Text, "read-only mode: freeze is disabled") {
		t.Fatalf("notice %q", n.Text)
	}
	if len(customerCard.keys) != 0 {
		t.Fatalf("the disabled key reached the screen: %v", customerCard.keys)
	}
}

// ctrl+c does not quit at once: the console is asked to end (revoke) the
// session first, and the app quits on its answer.
func TestApprovedSessionEndsBeforeTheAppQuits(t *testing.T) {
	root, console, _, _ := approvedFixture(t)
	_, cmd := root.Update(uitest.Key("ctrl+c"))
	if has[tea.QuitMsg](messagesOf(cmd)) {
		t.Fatal("ctrl+c quit before the session was revoked")
	}
	var end ui.EndApprovedSessionMsg
	for _, m := range console.msgs {
		if e, ok := m.(ui.EndApprovedSessionMsg); ok {
			end = e
		}
	}
	if !end.Quit {
		t.Fatalf("the console was not asked to end the session before quitting: %v", console.msgs)
	}
	// ctrl+c ended it: the app ends as interrupted (exit status 130).
	_, cmd = root.Update(ui.ApprovedSessionEndedMsg{Reason: "revoked", Quit: true})
	if !has[tea.InterruptMsg](messagesOf(cmd)) {
		t.Fatal("the app did not end as interrupted once the session was revoked")
	}
}

// S and q end the session through the console, asking first; its answer
// brings the console and the agent's own screens back, and the app runs
// on.
func TestApprovedSessionSignOutGoesBackToTheConsole(t *testing.T) {
	for _, k := range []string{"S", "q"} {
		t.Run(k, func(t *testing.T) { endsBackInTheConsole(t, k) })
	}
}

func endsBackInTheConsole(t *testing.T, k string) {
	root, console, _, _ := approvedFixture(t)
	if help := uitest.Plain(root.View()); !strings.Contains(help, "q end the session") {
		t.Fatalf("the footer does not say what q does now:\n%s", help)
	}
	uitest.Drive(root, uitest.Key(k))
	if spec, ok := root.Dialog(); !ok || spec.Title != "End the customer-approved session?" || spec.Request[0] != "DELETE /v1/auth/oauth/revoke" {
		t.Fatalf("S asks %+v", spec)
	}
	uitest.Drive(root, uitest.Key("y"))
	ended := false
	for _, m := range console.msgs {
		_, ended = m.(ui.EndApprovedSessionMsg)
		if ended {
			break
		}
	}
	if !ended {
		t.Fatalf("S did not ask the console to end the session: %v", console.msgs)
	}
	uitest.Drive(root, ui.ApprovedSessionEndedMsg{Reason: "the customer's approval was revoked"})
	frame := uitest.Plain(root.View())
	if _, ok := root.Approved(); ok || !root.Supporting() || !strings.Contains(frame, "Support console body") ||
		strings.Contains(frame, "CUSTOMER-APPROVED") || strings.Contains(frame, "READ-ONLY") {
		t.Fatalf("not back in the console:\n%s", frame)
	}
	if strings.Contains(frame, "end the session") {
		t.Fatalf("q still says it ends a session:\n%s", frame)
	}
	_, cmd := root.Update(ui.ApprovedSessionEndedMsg{Reason: "late"})
	if has[tea.QuitMsg](messagesOf(cmd)) {
		t.Fatal("the app quit after the session ended")
	}
}

// The status bar names the session's region; each screen opened in the
// session is told to the console, for its log.
func TestApprovedSessionShowsItsRegionAndTellsTheConsoleWhatIsViewed(t *testing.T) {
	root, console, _, _ := approvedFixture(t)
	lines := strings.Split(uitest.Plain(root.View()), "\n")
	if status := lines[len(lines)-2]; !strings.Contains(status, "EU") {
		t.Fatalf("no region on the status bar: %q", status)
	}
	var viewed []ui.ApprovedViewMsg
	for _, m := range console.msgs {
		if v, ok := m.(ui.ApprovedViewMsg); ok {
			viewed = append(viewed, v)
		}
	}
	if len(viewed) != 1 || viewed[0].Screen != cardScreen || viewed[0].Title != "Customer card" {
		t.Fatalf("the console was told %+v", viewed)
	}
	// The console may end the session itself (its log failed): the root
	// ends it the one way, and only once.
	uitest.Drive(root, ui.EndApprovedSessionMsg{Reason: "the action log cannot be written"})
	uitest.Drive(root, ui.EndApprovedSessionMsg{Reason: "again"})
	ends := 0
	for _, m := range console.msgs {
		if _, ok := m.(ui.EndApprovedSessionMsg); ok {
			ends++
		}
	}
	if ends != 1 {
		t.Fatalf("the console was asked %d times to end the session", ends)
	}
}

// ctrl+c in an approved session revokes it first, then the app exits as
// interrupted (tea.Interrupt: exit status 130), as ctrl+c does anywhere;
// a second ctrl+c does not wait for the revoke, and interrupts too.
func TestApprovedSessionCtrlCExitsAsInterrupted(t *testing.T) {
	root, _, _, _ := approvedFixture(t)
	ctrlC := tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	_, cmd := root.Update(ctrlC)
	if msgs := messagesOf(cmd); has[tea.InterruptMsg](msgs) || has[tea.QuitMsg](msgs) {
		t.Fatal("ctrl+c ended the app before the session was revoked")
	}
	_, cmd = root.Update(ui.ApprovedSessionEndedMsg{Reason: "revoked", Quit: true})
	if msgs := messagesOf(cmd); !has[tea.InterruptMsg](msgs) || has[tea.QuitMsg](msgs) {
		t.Fatalf("after the revoke ctrl+c quit with %v; want an interrupt", msgs)
	}

	root, _, _, _ = approvedFixture(t)
	root.Update(ctrlC)
	if _, cmd := root.Update(ctrlC); !has[tea.InterruptMsg](messagesOf(cmd)) {
		t.Fatal("a second ctrl+c did not interrupt")
	}
}

// An approved session's screens keep the number keys they have in the
// app (Wallets is 5 there, not 2), and its footer offers ctrl+k.
func TestApprovedSessionNumbersScreensAsTheApp(t *testing.T) {
	st := theme.New(true, false)
	console := &fakeScreen{id: ui.ScreenSupport, title: "Support console"}
	account := &readOnlyScreen{fakeScreen{id: "account", title: "Account"}}
	wallets := &readOnlyScreen{fakeScreen{id: "wallets", title: "Wallets"}}
	root := ui.NewRoot(ui.RootOptions{Styles: &st, Requests: ui.NewRequests(), SignIn: &fakeScreen{id: ui.ScreenSignIn, title: "Sign in"},
		Support: console, StartInSupport: true, Gateway: "SANDBOX", Now: func() time.Time { return t0 }})
	uitest.Drive(root, tea.WindowSizeMsg{Width: 120, Height: 30})
	uitest.Drive(root, ui.ApprovedSessionMsg{Customer: "Alice", Region: "EU", Screens: []ui.Screen{account, wallets}, Places: []int{0, 4}})
	if k := root.NumberKeyOf("wallets"); k != "5" {
		t.Fatalf("Wallets has the number key %q in the session; 5 in the app", k)
	}
	frame := uitest.Plain(root.View())
	if !strings.Contains(frame, "5 Wallets") || !strings.Contains(frame, "ctrl+k keep in the support case") {
		t.Fatalf("the navigation or the footer:\n%s", frame)
	}
	uitest.Drive(root, uitest.Key("2"))
	if root.Active().ID() != "account" {
		t.Fatalf("2 opened %s: no screen has 2 in the session", root.Active().ID())
	}
	uitest.Drive(root, uitest.Key("5"))
	if root.Active().ID() != "wallets" {
		t.Fatalf("5 opened %s, not Wallets", root.Active().ID())
	}
}
