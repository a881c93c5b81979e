package ui_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"cardterm/ui"
	"cardterm/ui/uitest"
)

func TestDialogGetsKeysFirst(t *testing.T) {
	f := newFixture(t, true, false)
	f.signInNow()
	type freeze struct{}
	type keep struct{}
	f.drive(ui.Confirm(ui.ConfirmSpec{Title: "Freeze card?", Lines: []string{"POST /v1/card/freeze"}, OnConfirm: freeze{}, OnCancel: keep{}})())
	// A second dialog is ignored while one is open.
	f.drive(ui.Confirm(ui.ConfirmSpec{Title: "Other"})())
	if !strings.Contains(f.view(), "Freeze card?") || strings.Contains(f.view(), "Other") {
		t.Fatal("second dialog replaced the first")
	}
	f.drive(uitest.Key("2"), uitest.Key("q"), uitest.Key("f"))
	if f.root.Active() != f.account || len(f.account.keys) != 0 {
		t.Fatalf("keys leaked past the dialog: active %v keys %v", f.root.Active().Title(), f.account.keys)
	}
	f.drive(uitest.Key("n"))
	if f.root.DialogOpen() || !has[keep](f.account.msgs) {
		t.Fatal("n did not cancel with OnCancel")
	}
	f.drive(ui.Confirm(ui.ConfirmSpec{Title: "Freeze card?", OnConfirm: freeze{}})(), uitest.Key("enter"))
	if f.root.DialogOpen() || !has[freeze](f.account.msgs) {
		t.Fatal("enter did not confirm")
	}
	f.drive(ui.Confirm(ui.ConfirmSpec{Title: "x", OnConfirm: freeze{}})(), uitest.Key("esc"))
	if f.root.DialogOpen() {
		t.Fatal("esc did not close the dialog")
	}
}

func TestSignOutConfirmGoesToSignIn(t *testing.T) {
	f := newFixture(t, true, false)
	f.signInNow()
	f.drive(uitest.Key("S"), uitest.Key("y"))
	if !has[ui.SignOutMsg](f.signIn.msgs) {
		t.Fatal("SignOutMsg not sent to the sign-in screen")
	}
	f.drive(ui.SignedOutMsg{Reason: "signed out"})
	if f.root.SignedIn() || f.root.Active() != f.signIn {
		t.Fatal("not back on sign-in")
	}
	// The sign-in screen says why (it heard SignedOutMsg); the status bar
	// does not say it a second time, the notice log keeps it.
	if !has[ui.SignedOutMsg](f.signIn.msgs) {
		t.Fatal("the sign-in screen did not hear why")
	}
	if n, ok := f.root.CurrentNotice(); ok {
		t.Fatalf("the reason is said twice, in the status bar too: %+v", n)
	}
	f.drive(uitest.Key("m"))
	if !strings.Contains(f.view(), "signed out") {
		t.Fatalf("the notice log lacks the reason:\n%s", f.view())
	}
}

func TestSessionExpiredReturnsToScreen(t *testing.T) {
	f := newFixture(t, true, false)
	f.signInNow()
	f.drive(uitest.Key("2"))
	f.drive(ui.SessionExpiredMsg{Reason: "session expired"})
	if f.root.Active() != f.signIn {
		t.Fatal("not on sign-in")
	}
	f.drive(uitest.Key("1")) // ignored while signed out
	f.drive(ui.SignedInMsg{})
	if f.root.Active() != f.card {
		t.Fatalf("returned to %s, want Card", f.root.Active().Title())
	}
	if f.card.entered != 2 {
		t.Fatalf("card entered %d times, want 2", f.card.entered)
	}
}

func TestCapturesKeys(t *testing.T) {
	f := newFixture(t, true, false)
	f.signInNow()
	f.account.capture = true
	f.drive(uitest.Keys("q", "2", "?", "r", "esc")...)
	if got := strings.Join(f.account.keys, ","); got != "q,2,?,r,esc" {
		t.Fatalf("screen got %q", got)
	}
	if f.root.Active() != f.account {
		t.Fatal("number key jumped while the screen captured keys")
	}
	// ctrl+c interrupts (exit status 130) and ctrl+z suspends, even while
	// a text field has the keys.
	if _, cmd := f.root.Update(uitest.Key("ctrl+c")); !has[tea.InterruptMsg](messagesOf(cmd)) {
		t.Fatal("ctrl+c did not interrupt")
	}
	if _, cmd := f.root.Update(uitest.Key("ctrl+z")); !has[tea.SuspendMsg](messagesOf(cmd)) {
		t.Fatal("ctrl+z did not suspend")
	}
	if got := strings.Join(f.account.keys, ","); got != "q,2,?,r,esc" {
		t.Fatalf("the screen got ctrl+c or ctrl+z: %q", got)
	}
}

func TestGlobalKeys(t *testing.T) {
	f := newFixture(t, true, false)
	f.drive(uitest.Key("2"))
	if f.root.Active() != f.signIn {
		t.Fatal("jumped while signed out")
	}
	f.signInNow()
	if f.root.Active() != f.account || f.account.entered != 1 {
		t.Fatal("sign-in did not enter the first screen")
	}
	f.drive(uitest.Key("2"))
	if f.root.Active() != f.card || f.card.entered != 1 {
		t.Fatal("2 did not jump to Card")
	}
	f.drive(uitest.Key("9"))
	if f.root.Active() != f.card {
		t.Fatal("9 jumped to a missing screen")
	}
	f.drive(uitest.Key("r"))
	if !has[ui.RefreshMsg](f.card.msgs) {
		t.Fatal("r did not send RefreshMsg")
	}
	if has[ui.RefreshMsg](f.account.msgs) {
		t.Fatal("RefreshMsg went to an inactive screen")
	}
	// Focus the nav, move up, open.
	f.drive(uitest.Keys("tab", "k", "enter")...)
	if f.root.Active() != f.account {
		t.Fatal("nav enter did not open Account")
	}
	f.drive(uitest.Key("x"))
	if got := f.account.keys; len(got) != 1 || got[0] != "x" {
		t.Fatalf("other keys not passed to the screen: %v", got)
	}
	f.drive(ui.NavigateMsg{To: cardScreen})
	if f.root.Active() != f.card {
		t.Fatal("NavigateMsg ignored")
	}
	if !f.quits("q") {
		t.Fatal("q did not quit")
	}
}

func TestEscCancelsRequestsAndSpinner(t *testing.T) {
	f := newFixture(t, true, false)
	f.signInNow()
	block := make(chan struct{})
	defer close(block)
	_, cmd := ui.Go(f.reqs.For(accountScreen), func(ctx context.Context) (int, error) {
		<-ctx.Done()
		return 0, ctx.Err()
	})
	_ = cmd // not run: the request stays in flight
	_, tick := f.root.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	if tick == nil {
		t.Fatal("spinner not started while a request is in flight")
	}
	if !strings.Contains(f.view(), "SANDBOX") {
		t.Fatal("status bar missing")
	}
	f.drive(uitest.Key("esc"))
	if f.reqs.InFlight() != 0 {
		t.Fatal("esc did not cancel")
	}
	if n, ok := f.root.CurrentNotice(); !ok || n.Text != "request cancelled" {
		t.Fatalf("notice %+v", n)
	}
	if len(f.account.keys) != 0 {
		t.Fatal("esc reached the screen although it cancelled")
	}
	f.drive(uitest.Key("esc"))
	if len(f.account.keys) != 1 {
		t.Fatal("esc with nothing in flight did not reach the screen")
	}
	// The cancelled command's answer carries context.Canceled.
	msg := cmd()
	if res, ok := msg.(ui.Result[int]); !ok || !errors.Is(res.Err, context.Canceled) {
		t.Fatalf("result %#v", msg)
	}
}

// esc on one screen must not cancel a request another screen started: it
// goes to the active screen (to close its view) and the other load goes on.
func TestEscCancelsOnlyTheActiveScreensRequests(t *testing.T) {
	f := newFixture(t, true, false)
	f.signInNow()
	_, cmd := ui.Go(f.reqs.For(accountScreen), func(ctx context.Context) (int, error) {
		<-ctx.Done()
		return 0, ctx.Err()
	})
	_ = cmd // the Account screen's load stays in flight
	f.drive(uitest.Key("2"))
	if f.root.Active() != f.card {
		t.Fatal("2 did not open Card")
	}
	f.drive(uitest.Key("esc"))
	if f.reqs.InFlight() != 1 || f.reqs.InFlightFor(accountScreen) != 1 {
		t.Fatalf("esc on Card cancelled Account's request: %d in flight", f.reqs.InFlight())
	}
	if n, ok := f.root.CurrentNotice(); ok && n.Text == "request cancelled" {
		t.Fatal("esc on Card reported a cancellation")
	}
	if got := f.card.keys; len(got) != 1 || got[0] != "esc" {
		t.Fatalf("esc did not reach the Card screen: %v", got)
	}
	f.drive(uitest.Key("1"), uitest.Key("esc"))
	if f.reqs.InFlight() != 0 {
		t.Fatal("esc on Account did not cancel its own request")
	}
}

func TestLateResultForwarded(t *testing.T) {
	f := newFixture(t, true, false)
	f.signInNow()
	id, cmd := ui.Go(f.reqs.For(accountScreen), func(context.Context) (string, error) { return "late", nil })
	f.drive(uitest.Key("2"))
	f.drive(cmd())
	if !f.account.has(func(m tea.Msg) bool { r, ok := m.(ui.Result[string]); return ok && r.ID == id && r.Value == "late" }) {
		t.Fatal("late result did not reach the inactive screen")
	}
}

func TestCopy(t *testing.T) {
	f := newFixture(t, true, false)
	f.signInNow()
	msgs := uitest.Run(func() tea.Msg { _, c := f.root.Update(uitest.Key("y")); return c() })
	if n, ok := f.root.CurrentNotice(); ok {
		t.Fatalf("unexpected notice before %v", n)
	}
	f.drive(msgs...)
	if n, _ := f.root.CurrentNotice(); n.Text != "nothing to copy" {
		t.Fatalf("notice %q", n.Text)
	}
	f.account.copyVal = "card-123"
	_, c := f.root.Update(uitest.Key("y"))
	var clip, notice bool
	for _, m := range uitest.Run(c) {
		if fmt.Sprint(m) == "card-123" {
			clip = true
		}
		if n, ok := m.(ui.NoticeMsg); ok && n.Notice.Text == "copied card id" {
			notice = true
		}
	}
	if !clip || !notice {
		t.Fatalf("copy: clipboard %v notice %v", clip, notice)
	}
}
