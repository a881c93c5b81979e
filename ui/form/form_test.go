package form_test

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/uitest"
)

// cardScreen owns the requests a form test sends.
const cardScreen ui.ScreenID = "card"

func newTestForm() *form.Form {
	st := theme.New(true, false)
	f := form.New(&st, form.Spec{Title: "Style", Submit: "save", Fields: []form.Field{
		{Key: "backgroundColor", Label: "Background"},
		{Key: "notes", Label: "Notes", Kind: form.FieldMultiline},
		{Key: "radius", Label: "Radius", Check: func(v string) string {
			if v != "" && strings.Trim(v, "0123456789") != "" {
				return "must be a number"
			}
			return ""
		}},
	}})
	f.SetWidth(60)
	f.Focus()
	return f
}

func pressForm(f *form.Form, names ...string) form.Event {
	var ev form.Event
	for _, m := range uitest.Keys(names...) {
		ev, _ = f.Update(m)
	}
	return ev
}

func typeInto(f *form.Form, s string) {
	for _, m := range uitest.Type(s) {
		f.Update(m)
	}
}

// wantEvent presses key on the form and fails unless it gives want.
func wantEvent(t *testing.T, f *form.Form, key string, want form.Event) {
	t.Helper()
	if got := pressForm(f, key); got != want {
		t.Fatalf("%s gave %v, want %v", key, got, want)
	}
}

// The one submit rule: enter moves on until the last one-line field, where
// it submits; ctrl+s submits from any field; esc leaves.
func TestFormSubmitRule(t *testing.T) {
	f := newTestForm()
	typeInto(f, "#fff")
	wantEvent(t, f, "enter", form.Nothing) // on the first field
	// In the text area enter is a new line, not a submit.
	typeInto(f, "a")
	wantEvent(t, f, "enter", form.Nothing)
	typeInto(f, "b")
	if got := f.Value("notes"); got != "a\nb" {
		t.Fatalf("text area holds %q", got)
	}
	pressForm(f, "tab")
	wantEvent(t, f, "enter", form.Submit) // on the last field
	f = newTestForm()
	wantEvent(t, f, "ctrl+s", form.Submit) // on the first field
	wantEvent(t, f, "esc", form.Cancel)
}

// A failing check keeps the form open, says why under the field and keeps
// what was typed.
func TestFormCheckKeepsTypedText(t *testing.T) {
	f := newTestForm()
	pressForm(f, "tab", "tab")
	typeInto(f, "12px")
	wantEvent(t, f, "ctrl+s", form.Nothing) // the form is invalid
	view := uitest.Plain(tea.NewView(f.View()))
	if !strings.Contains(view, "must be a number") || f.Value("radius") != "12px" {
		t.Fatalf("the error or the typed text is gone:\n%s", view)
	}
}

// The gateway's 422 lands under the field it names, by the last part of a
// dotted name; the rest goes under the form.
func TestFormGatewayErrorsOnTheirFields(t *testing.T) {
	f := newTestForm()
	typeInto(f, "#zzz")
	f.SetBusy(true)
	f.SetErrors("Validation failed", []form.FieldError{
		{Field: "customCss.backgroundColor", Message: "invalid hex colour"},
		{Field: "other", Message: "is odd"},
	})
	if f.Busy() {
		t.Fatal("errors left the form busy")
	}
	view := uitest.Plain(tea.NewView(f.View()))
	for _, want := range []string{"✗ invalid hex colour", "Validation failed other is odd", "#zzz"} {
		if !strings.Contains(view, want) {
			t.Fatalf("form lacks %q:\n%s", want, view)
		}
	}
}

// While busy only esc is taken: a second ctrl+s cannot send twice.
func TestFormBusyIgnoresSubmit(t *testing.T) {
	f := newTestForm()
	f.SetBusy(true)
	wantEvent(t, f, "ctrl+s", form.Nothing)
	wantEvent(t, f, "esc", form.Cancel)
}

// The help says what enter does in the focused field.
func TestFormHelpFollowsFocus(t *testing.T) {
	f := newTestForm()
	desc := func() string { return f.KeyMap().ShortHelp()[0].Help().Desc }
	if desc() != "next field" {
		t.Fatalf("enter on the first field is described as %q", desc())
	}
	pressForm(f, "tab")
	if f.KeyMap().ShortHelp()[0].Enabled() {
		t.Fatal("enter is offered as a form key inside the text area")
	}
	pressForm(f, "tab")
	if desc() != "save" {
		t.Fatalf("enter on the last field is described as %q", desc())
	}
}

// A submitted form sends once however often it is submitted, and esc
// cancels its request only while it is on its way.
func TestFormSubmitRequestSendsOnceAndEscCancelsIt(t *testing.T) {
	f := newTestForm()
	requests := ui.NewRequests()
	owner := requests.For(cardScreen)
	if f.CancelIfBusy(owner) {
		t.Fatal("an idle form reports a request to cancel")
	}
	var id ui.RequestID
	block := make(chan struct{})
	send := func(ctx context.Context) (int, error) { <-block; return 1, ctx.Err() }
	if cmd := form.SubmitRequest(f, owner, &id, send); cmd == nil || id == 0 || !f.Busy() {
		t.Fatalf("first submit: cmd %v, id %d, busy %v", cmd != nil, id, f.Busy())
	}
	first := id
	if cmd := form.SubmitRequest(f, owner, &id, send); cmd != nil || id != first {
		t.Fatalf("a second submit while busy sent again (id %d, was %d)", id, first)
	}
	if requests.InFlightFor(cardScreen) != 1 {
		t.Fatalf("%d requests in flight, want 1", requests.InFlightFor(cardScreen))
	}
	if !f.CancelIfBusy(owner) || requests.InFlightFor(cardScreen) != 0 {
		t.Fatalf("esc on a busy form left %d requests in flight", requests.InFlightFor(cardScreen))
	}
	close(block)
}

// HandleKey: enter on the last field runs submit, esc cancels the request
// on its way and reports the form closed, other keys only edit.
func TestFormHandleKeySubmitsAndEscCancelsAndCloses(t *testing.T) {
	f := newTestForm()
	requests := ui.NewRequests()
	owner := requests.For(cardScreen)
	var id ui.RequestID
	block := make(chan struct{})
	defer close(block)
	submits := 0
	submit := func() tea.Cmd {
		submits++
		return form.SubmitRequest(f, owner, &id, func(ctx context.Context) (int, error) { <-block; return 1, ctx.Err() })
	}
	handle := func(k string) (tea.Cmd, bool) {
		return f.HandleKey(uitest.Key(k), owner, submit)
	}
	if _, closed := handle("x"); closed || submits != 0 {
		t.Fatalf("a letter closed the form (%v) or submitted (%d)", closed, submits)
	}
	pressForm(f, "tab", "tab")
	if cmd, closed := handle("enter"); closed || submits != 1 || cmd == nil || !f.Busy() {
		t.Fatalf("enter on the last field: closed %v, submits %d, cmd %v, busy %v", closed, submits, cmd != nil, f.Busy())
	}
	if requests.InFlightFor(cardScreen) != 1 {
		t.Fatalf("%d requests in flight, want 1", requests.InFlightFor(cardScreen))
	}
	if _, closed := handle("esc"); !closed || requests.InFlightFor(cardScreen) != 0 {
		t.Fatalf("esc: closed %v, %d requests left in flight", closed, requests.InFlightFor(cardScreen))
	}
}

// A form taller than its height scrolls its fields so the one in focus
// stays on screen, and says what is hidden.
func TestFormScrollsToTheFieldInFocus(t *testing.T) {
	f := entriesForm(6)
	f.SetHeight(12)
	for range 11 {
		pressForm(f, "tab")
	}
	view := ansi.Strip(f.View())
	if n := len(strings.Split(view, "\n")); n > 12 {
		t.Fatalf("%d lines in a height of 12:\n%s", n, view)
	}
	if !strings.Contains(view, "Entries") || !strings.Contains(view, "↑") || !strings.Contains(view, "› Address") || !strings.Contains(view, "Entry 6") {
		t.Fatalf("the focused field of entry 6 is not on screen:\n%s", view)
	}
	f.SetHeight(0)
	if !strings.Contains(ansi.Strip(f.View()), "Entry 1") {
		t.Fatal("without a height the whole form is drawn")
	}
}

// A form of one field says enter sends it and offers no tab: there is no
// other field to move to.
func TestFormOfOneFieldOffersEnterAndNoTab(t *testing.T) {
	st := theme.New(true, false)
	f := form.New(&st, form.Spec{Title: "Find", Submit: "look up", Fields: []form.Field{{Key: "id", Label: "Id"}}})
	f.SetWidth(60)
	f.Focus()
	v := uitest.Plain(f.View())
	if !strings.Contains(v, "enter or ctrl+s look up · esc closes") || strings.Contains(v, "tab") {
		t.Fatalf("the hint of a one-field form:\n%s", v)
	}
	for _, b := range f.KeyMap().ShortHelp() {
		if b.Enabled() && strings.Contains(b.Help().Key, "tab") {
			t.Fatalf("the help offers %q", b.Help().Key)
		}
	}
	typeInto(f, "abc")
	if ev := pressForm(f, "enter"); ev != form.Submit {
		t.Fatalf("enter gave %v", ev)
	}
}

// A form shown with no field in focus (FocusNothing) types nowhere: a
// printable key changes no field, enter sends the values shown, tab
// chooses the first field and typing then goes there.
func TestFormFocusNothingTypesNowhereUntilAFieldIsChosen(t *testing.T) {
	st := theme.New(true, false)
	f := form.New(&st, form.Spec{Title: "Colours", Submit: "open", Fields: []form.Field{
		{Key: "background", Label: "Background", Value: "#fff"},
		{Key: "text", Label: "Text"},
	}})
	f.FocusNothing()
	for _, k := range []string{"v", "d", "1"} {
		f.Update(tea.KeyPressMsg{Code: rune(k[0]), Text: k})
	}
	if f.Value("background") != "#fff" || f.Value("text") != "" || f.Focused() != "" {
		t.Fatalf("keys typed into a field no one chose: %q %q (focus %q)", f.Value("background"), f.Value("text"), f.Focused())
	}
	if got := f.KeyMap().ShortHelp()[0].Help(); got.Key != "enter" || got.Desc != "open" {
		t.Errorf("enter is offered as %q %q, want enter open", got.Key, got.Desc)
	}
	f.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	f.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
	if f.Focused() != "background" || f.Value("background") != "#fffx" {
		t.Errorf("after tab: focus %q, background %q", f.Focused(), f.Value("background"))
	}
	g := form.New(&st, form.Spec{Submit: "open", Fields: []form.Field{{Key: "a", Label: "A"}}})
	g.FocusNothing()
	if event, _ := g.Update(tea.KeyPressMsg{Code: tea.KeyEnter}); event != form.Submit {
		t.Errorf("enter with no field chosen: event %v, want a submit", event)
	}
}

// A field's message goes once its value changes (it was about what the
// field held); the other fields' messages and the form's stay.
func TestFormMessageGoesWhenItsFieldChanges(t *testing.T) {
	f := newTestForm()
	typeInto(f, "#zzz")
	f.SetErrors("Validation failed", []form.FieldError{
		{Field: "backgroundColor", Message: "invalid hex colour"},
		{Field: "radius", Message: "too round"},
	})
	pressForm(f, "tab", "shift+tab") // away and back: SetErrors focused Background, the first in error
	view := uitest.Plain(tea.NewView(f.View()))
	if !strings.Contains(view, "invalid hex colour") {
		t.Fatalf("moving the focus took the message away:\n%s", view)
	}
	typeInto(f, "f")
	view = uitest.Plain(tea.NewView(f.View()))
	for want, shown := range map[string]bool{"invalid hex colour": false, "too round": true, "Validation failed": true} {
		if strings.Contains(view, want) != shown {
			t.Errorf("after typing in Background, %q shown: %v, want %v:\n%s", want, !shown, shown, view)
		}
	}
}
