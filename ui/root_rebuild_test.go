package ui_test

import (
	"context"
	"testing"

	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

// heldScreen is a fake screen holding a subscription, released when the
// root drops it.
type heldScreen struct {
	*fakeScreen
	released bool
}

func (s *heldScreen) Release() { s.released = true }

func (s *heldScreen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	_, cmd := s.fakeScreen.Update(msg)
	return s, cmd
}

// rebuildFixture is a root whose navigation is built by BuildScreens, as
// the shell wires it, with every build kept for the test to look at.
type rebuildFixture struct {
	root   *ui.Root
	reqs   *ui.Requests
	builds [][]*heldScreen
}

func newRebuildFixture(t *testing.T) *rebuildFixture {
	t.Helper()
	st := theme.New(true, false)
	f := &rebuildFixture{reqs: ui.NewRequests()}
	f.root = ui.NewRoot(ui.RootOptions{
		Styles: &st, Requests: f.reqs,
		SignIn: &fakeScreen{id: ui.ScreenSignIn, title: "Sign in"},
		BuildScreens: func() []ui.Screen {
			build := []*heldScreen{
				{fakeScreen: &fakeScreen{id: accountScreen, title: "Account"}},
				{fakeScreen: &fakeScreen{id: cardScreen, title: "Card"}},
			}
			f.builds = append(f.builds, build)
			return []ui.Screen{build[0], build[1]}
		},
	})
	uitest.Drive(f.root, tea.WindowSizeMsg{Width: 100, Height: 30})
	return f
}

// The user may change on sign-out and on an expired session: the root
// drops the navigation's screens (their requests cancelled, what they
// hold released) and builds new ones, sized, the open one kept by place
// after an expiry.
func TestSignOutAndExpiryBuildTheScreensAnew(t *testing.T) {
	for _, end := range []tea.Msg{ui.SignedOutMsg{Reason: "bye"}, ui.SessionExpiredMsg{Reason: "expired"}} {
		f := newRebuildFixture(t)
		uitest.Drive(f.root, ui.SignedInMsg{}, uitest.Key("2"))
		old := f.builds[0]
		// A request of the old Card screen is in flight when the session ends.
		cardOwner := f.reqs.For(cardScreen)
		_, held := ui.Go(cardOwner, func(ctx context.Context) (int, error) {
			<-ctx.Done()
			return 0, ctx.Err()
		})
		uitest.Drive(f.root, end)
		if len(f.builds) != 2 {
			t.Fatalf("%T: the screens were built %d times, want 2 (start and %T)", end, len(f.builds), end)
		}
		if f.reqs.InFlightFor(cardScreen) != 0 {
			t.Fatalf("%T left the old screen's request in flight", end)
		}
		if res := held().(ui.Result[int]); res.Err != context.Canceled {
			t.Fatalf("the old request ended with %v, want it cancelled", res.Err)
		}
		for _, s := range old {
			if !s.released {
				t.Fatalf("%T: the old %s screen was not released", end, s.title)
			}
		}
		uitest.Drive(f.root, ui.SignedInMsg{})
		fresh := f.builds[1]
		active := f.root.Active()
		switch end.(type) {
		case ui.SessionExpiredMsg:
			if active != fresh[1] {
				t.Fatalf("after an expiry the new Card screen is open again; open: %v", active)
			}
		default:
			if active != fresh[0] {
				t.Fatalf("after a sign-out the new first screen is open; open: %v", active)
			}
		}
		for _, s := range fresh {
			if s.w == 0 || s.h == 0 {
				t.Fatalf("the new %s screen got no size", s.title)
			}
		}
	}
}

// The end of a customer-approved session drops the customer's screens
// and builds the navigation anew; a customer signing in on the terminal
// gets a new support console, without the agent's case.
func TestApprovedSessionEndAndCustomerSignInBuildAnew(t *testing.T) {
	f := &rebuildFixture{reqs: ui.NewRequests()}
	st := theme.New(true, false)
	consoles := 0
	f.root = ui.NewRoot(ui.RootOptions{
		Styles: &st, Requests: f.reqs,
		SignIn: &fakeScreen{id: ui.ScreenSignIn, title: "Sign in"},
		BuildScreens: func() []ui.Screen {
			build := []*heldScreen{{fakeScreen: &fakeScreen{id: cardScreen, title: "Card"}}}
			f.builds = append(f.builds, build)
			return []ui.Screen{build[0]}
		},
		BuildSupport: func() ui.Screen {
			consoles++
			return &fakeScreen{id: ui.ScreenSupport, title: "Support console"}
		},
		StartInSupport: true,
	})
	uitest.Drive(f.root, tea.WindowSizeMsg{Width: 100, Height: 30})
	customer := &heldScreen{fakeScreen: &fakeScreen{id: cardScreen, title: "Customer card"}}
	uitest.Drive(f.root, ui.ApprovedSessionMsg{Customer: "Alice", Screens: []ui.Screen{customer}})
	uitest.Drive(f.root, ui.ApprovedSessionEndedMsg{Reason: "ended"})
	if len(f.builds) != 2 || !customer.released || !f.builds[0][0].released {
		t.Fatalf("after the approved session: %d builds, customer's screen released %v", len(f.builds), customer.released)
	}
	if consoles != 1 {
		t.Fatalf("%d consoles before any sign-in, want 1", consoles)
	}
	uitest.Drive(f.root, ui.SignedInMsg{})
	if consoles != 2 {
		t.Fatalf("a customer signed in: %d consoles built, want 2", consoles)
	}
}
