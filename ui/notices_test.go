package ui_test

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
	"cardterm/ui/uitest"
)

// A notice a screen raised is shown on that screen only: a late answer on
// Wallets must not say "this is the last page" on Whitelist.
func TestNoticeBelongsToTheScreenThatRaisedIt(t *testing.T) {
	f := newFixture(t, true, false)
	f.signInNow()
	f.drive(raise{to: accountScreen, tone: theme.ToneInfo, text: "this is the last page"})
	if !strings.Contains(f.view(), "this is the last page") {
		t.Fatalf("the notice is not shown on its screen:\n%s", f.view())
	}
	f.drive(uitest.Key("2"))
	if strings.Contains(f.view(), "this is the last page") {
		t.Fatalf("Account's notice shows on Card:\n%s", f.view())
	}
	f.drive(uitest.Key("1"))
	if !strings.Contains(f.view(), "this is the last page") {
		t.Fatal("the notice did not come back with its screen")
	}
}

// An error stays until the user's next key (no timer), then it goes; the
// notice log still has it, with its time and screen.
func TestErrorsStayUntilTheNextKeyAndAreLogged(t *testing.T) {
	f := newFixture(t, true, false)
	f.signInNow()
	_, cmd := f.root.Update(raise{to: accountScreen, tone: theme.ToneDanger, text: "freeze: Card is already frozen (400)"})
	msgs := uitest.Run(cmd)
	for _, m := range msgs {
		if _, tick := f.root.Update(m); tick != nil {
			// A tick would make the error fade on its own.
			for _, later := range uitest.Run(tick) {
				if strings.Contains(strings.ToLower(typeName(later)), "expire") {
					t.Fatal("an error notice was given a lifetime")
				}
			}
		}
	}
	if !strings.Contains(f.view(), "Card is already frozen") {
		t.Fatalf("error not shown:\n%s", f.view())
	}
	f.drive(uitest.Key("j"))
	if strings.Contains(f.view(), "Card is already frozen") {
		t.Fatal("the error stayed after the next key")
	}
	f.drive(uitest.Key("m"))
	v := f.view()
	for _, want := range []string{"Notices", "12:00:00", "Account", "freeze: Card is already frozen (400)"} {
		if !strings.Contains(v, want) {
			t.Fatalf("notice log lacks %q:\n%s", want, v)
		}
	}
	f.drive(uitest.Key("esc"))
	if strings.Contains(f.view(), "Notices") {
		t.Fatal("esc did not close the notice log")
	}
}

// A notice too long for the status bar is shown whole on lines of its own,
// never cut; the body gives up those lines and the frame keeps its size.
func TestLongNoticeIsShownWhole(t *testing.T) {
	f := newFixture(t, true, false)
	f.signInNow()
	long := "could not open set-PIN page: no browser found, set $BROWSER or copy the link with y; the link stays valid for ten minutes"
	f.drive(raise{to: accountScreen, tone: theme.ToneWarn, text: long})
	v := f.view()
	if !strings.Contains(strings.Join(strings.Fields(v), " "), long) {
		t.Fatalf("the notice is cut:\n%s", v)
	}
	checkSize(t, f.root.View().Content, 100, 30)
	if !strings.Contains(v, "size 80x26") {
		t.Fatalf("the body was not given the notice's lines back:\n%s", v)
	}
}

// While a text field has the keys, ? and q type: the footer names f1 and
// ctrl+c, and f1 opens the help.
func TestHelpWhileTyping(t *testing.T) {
	f := newFixture(t, true, false)
	f.signIn.capture = true
	footer := lastLine(f.view())
	if strings.Contains(footer, "? help") || strings.Contains(footer, "q quit") || !strings.Contains(footer, "f1 help") {
		t.Fatalf("footer while typing: %q", footer)
	}
	f.drive(uitest.Key("?"))
	if got := f.signIn.keys; len(got) != 1 || got[0] != "?" {
		t.Fatalf("? did not type: %v", got)
	}
	f.drive(uitest.Key("f1"))
	if !strings.Contains(f.view(), "Help") {
		t.Fatalf("f1 did not open the help:\n%s", f.view())
	}
}

// The navigation narrows to short names on a narrow terminal (a number
// alone says nothing) and hides with one key, giving the body the columns.
func TestNavigationCollapsesAndHides(t *testing.T) {
	f := newFixture(t, true, false)
	f.signInNow()
	f.drive(uitestSize(80, 24))
	v := f.view()
	if !strings.Contains(v, "1 Account") || !strings.Contains(v, "size 66x22") {
		t.Fatalf("navigation not narrowed to names at 80 columns:\n%s", v)
	}
	f.drive(uitest.Key("\\"))
	if !strings.Contains(f.view(), "size 80x22") {
		t.Fatalf("navigation not hidden:\n%s", f.view())
	}
	f.drive(uitest.Key("\\"), uitestSize(120, 30))
	if !strings.Contains(f.view(), "1 Account") {
		t.Fatalf("navigation not back at 120 columns:\n%s", f.view())
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

func typeName(v any) string { return strings.TrimPrefix(fmt.Sprintf("%T", v), "ui.") }

func uitestSize(w, h int) tea.Msg { return tea.WindowSizeMsg{Width: w, Height: h} }

// An alert a screen raises (NotifyEverywhere) shows on every screen.
func TestNotifyEverywhereShowsOnEveryScreen(t *testing.T) {
	f := newFixture(t, true, false)
	f.signInNow()
	f.drive(raise{to: accountScreen, tone: theme.ToneInfo, text: "Declined: -12.40 EUR", everywhere: true})
	f.drive(uitest.Key("2"))
	if !strings.Contains(f.view(), "Declined: -12.40 EUR") {
		t.Fatalf("the alert is not shown on another screen:\n%s", f.view())
	}
}
