package form_test

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/theme"
	"cardterm/ui/form"
	"cardterm/ui/uitest"
)

// Tests of the fields that are not one line of text: a choice, a
// checklist, and a list of entries whose errors land on the entry named.

func newChoiceForm() *form.Form {
	st := theme.New(true, false)
	f := form.New(&st, form.Spec{Title: "Consents", Submit: "create", Fields: []form.Field{
		{Key: "name", Label: "Name"},
		{Key: "policy", Label: "Policy", Kind: form.FieldChoice, Choices: []string{"global", "us"}},
		{Key: "status", Label: "Status", Kind: form.FieldChoice, Choices: []string{"granted", "denied", ""}, Value: "denied",
			Placeholder: "left out"},
	}})
	f.SetWidth(60)
	f.Focus()
	return f
}

// A choice field changes with space and the arrows, wrapping around; in a
// text field space types, and the choice keys are neither offered nor
// taken there.
func TestFormChoiceField(t *testing.T) {
	f := newChoiceForm()
	typeInto(f, "a b")
	if f.Value("name") != "a b" {
		t.Fatalf("space in a text field: %q", f.Value("name"))
	}
	for _, b := range f.KeyMap().ShortHelp() {
		if b.Enabled() && b.Help().Desc == "next choice" {
			t.Fatal("the choice keys are offered in a text field")
		}
	}
	if f.Value("policy") != "global" || f.Value("status") != "denied" {
		t.Fatalf("initial choices %q %q", f.Value("policy"), f.Value("status"))
	}
	pressForm(f, "tab", "space")
	if f.Value("policy") != "us" {
		t.Fatalf("space chose %q", f.Value("policy"))
	}
	pressForm(f, "right")
	if f.Value("policy") != "global" {
		t.Fatalf("right after the last choice gave %q", f.Value("policy"))
	}
	typeInto(f, "x")
	if f.Value("policy") != "global" {
		t.Fatalf("typing changed a choice to %q", f.Value("policy"))
	}
	pressForm(f, "tab", "right")
	if f.Value("status") != "" {
		t.Fatalf("right from denied gave %q", f.Value("status"))
	}
	view := uitest.Plain(tea.NewView(f.View()))
	for _, want := range []string{"[global]", " us ", "[left out]", "space changes a choice"} {
		if !strings.Contains(view, want) {
			t.Fatalf("form lacks %q:\n%s", want, view)
		}
	}
	pressForm(f, "left")
	if f.Value("status") != "denied" {
		t.Fatalf("left from left out gave %q", f.Value("status"))
	}
	// enter on the last field, a choice, submits.
	wantEvent(t, f, "enter", form.Submit)
}

// SetValue fills a field from another: a choice takes only its choices.
func TestFormSetValue(t *testing.T) {
	f := newChoiceForm()
	f.SetValue("status", "granted")
	f.SetValue("policy", "mars")
	f.SetValue("name", "onb-1")
	if f.Value("status") != "granted" || f.Value("policy") != "global" || f.Value("name") != "onb-1" {
		t.Fatalf("after SetValue: %v", f.Typed())
	}
}

func newChecklistForm() *form.Form {
	st := theme.New(true, false)
	f := form.New(&st, form.Spec{Title: "Hook", Fields: []form.Field{
		{Key: "name", Label: "Name"},
		{Key: "events", Label: "Events", Kind: form.FieldChecklist, Choices: []string{"a.one", "b.two", "c.three"},
			Value: "c.three", Notes: map[string]string{"b.two": "sandbox only"}},
		{Key: "other", Label: "Other"},
	}})
	f.SetWidth(60)
	f.Focus()
	return f
}

// A checklist: one line per value, each a stop for tab/↓ and ↑, space
// ticks the value in focus (and only there), the value is the ticked
// values in order.
func TestFormChecklistField(t *testing.T) {
	f := newChecklistForm()
	if got := f.Ticked("events"); len(got) != 1 || got[0] != "c.three" {
		t.Fatalf("initial ticks %q", got)
	}
	if hasHelpKey(f, "space") {
		t.Fatal("space offered outside the checklist")
	}
	typeInto(f, "x ")
	if f.Value("name") != "x" {
		t.Fatalf("name %q: space in a text field must type", f.Value("name"))
	}
	pressForm(f, "tab", "down", "space") // b.two
	if got := f.Value("events"); got != "b.two,c.three" {
		t.Fatalf("events %q", got)
	}
	if !hasHelpKey(f, "space") {
		t.Fatal("space not offered on the checklist")
	}
	view := ansi.Strip(f.View())
	for _, want := range []string{"[ ] a.one", "[x] b.two  sandbox only", "[x] c.three"} {
		if !strings.Contains(view, want) {
			t.Fatalf("view lacks %q:\n%s", want, view)
		}
	}
	if n := strings.Count(view, "›"); n != 1 {
		t.Fatalf("%d cursors drawn:\n%s", n, view)
	}
	pressForm(f, "up", "space") // a.one
	pressForm(f, "tab", "tab", "tab")
	typeInto(f, "y")
	if f.Value("other") != "y" || f.Value("events") != "a.one,b.two,c.three" {
		t.Fatalf("after leaving the checklist: other %q events %q", f.Value("other"), f.Value("events"))
	}
	// Back into it from below lands on its last value.
	pressForm(f, "shift+tab", "space")
	if f.Value("events") != "a.one,b.two" {
		t.Fatalf("events %q", f.Value("events"))
	}
	f.SetValue("events", "a.one, nope")
	if f.Value("events") != "a.one" {
		t.Fatalf("SetValue: %q", f.Value("events"))
	}
	// A gateway error lands on the checklist; ticking clears it.
	f.SetErrors("", []form.FieldError{{Field: "events", Message: "pick one"}})
	if !strings.Contains(f.View(), "pick one") {
		t.Fatal("error not shown")
	}
	pressForm(f, "space")
	if strings.Contains(f.View(), "pick one") {
		t.Fatal("ticking kept the error")
	}
}

func hasHelpKey(f *form.Form, k string) bool {
	for _, g := range f.KeyMap().FullHelp() {
		for _, b := range g {
			if b.Enabled() && strings.Contains(strings.Join(b.Keys(), " "), k) {
				return true
			}
		}
	}
	return false
}

// entriesForm is a form with one group of fields per entry, as the
// whitelist's: the keys carry the entry's index.
func entriesForm(n int) *form.Form {
	st := theme.New(true, false)
	var fields []form.Field
	for i := range n {
		group := "Entry " + string(rune('1'+i))
		prefix := "wallets[" + string(rune('0'+i)) + "]."
		fields = append(fields,
			form.Field{Key: prefix + "name", Label: "Name", Group: group},
			form.Field{Key: prefix + "walletAddress", Label: "Address", Group: group})
	}
	f := form.New(&st, form.Spec{Title: "Entries", Fields: fields})
	f.SetWidth(60)
	f.Focus()
	return f
}

// An error naming "wallets[1].walletAddress" lands on the second entry's
// address, not the first's; its group heading is marked and the focus
// goes there.
func TestFormErrorLandsOnTheEntryItNames(t *testing.T) {
	f := entriesForm(2)
	f.SetErrors("refused", []form.FieldError{{Field: "wallets[1].walletAddress", Message: "already whitelisted"}})
	view := ansi.Strip(f.View())
	first, second := strings.Index(view, "Entry 1"), strings.Index(view, "✗ Entry 2")
	at := strings.Index(view, "✗ already whitelisted")
	if first < 0 || second < 0 || at < second || strings.Contains(view, "✗ Entry 1") {
		t.Fatalf("the error is not under entry 2:\n%s", view)
	}
	if strings.Count(view, "already whitelisted") != 1 {
		t.Fatalf("the error is shown more than once:\n%s", view)
	}
	if f.Focused() != "wallets[1].walletAddress" {
		t.Fatalf("focus on %q", f.Focused())
	}
	// Without an exact key the last part still matches (other forms).
	g := newTestForm()
	g.SetErrors("", []form.FieldError{{Field: "customCss.backgroundColor", Message: "bad colour"}})
	if !strings.Contains(ansi.Strip(g.View()), "✗ bad colour") {
		t.Fatal("a prefixed error no longer matches by its last part")
	}
	f.FocusField("wallets[0].walletAddress")
	if f.Focused() != "wallets[0].walletAddress" {
		t.Fatalf("FocusField: %q", f.Focused())
	}
}

// Choices that do not fit beside the label go on under it, each whole,
// in the order they cycle; clicking a continuation line focuses the field.
func TestFormChoicesWrapWhole(t *testing.T) {
	steps := []string{"authorization", "decline", "clearing", "refund", "increment", "reversal", "atm"}
	st := theme.New(true, false)
	f := form.New(&st, form.Spec{Title: "Simulate", Submit: "simulate", Fields: []form.Field{
		{Key: "name", Label: "Name"},
		{Key: "type", Label: "Step", Kind: form.FieldChoice, Choices: steps},
	}})
	f.Focus()
	for _, width := range []int{30, 50, 70, 200} {
		f.SetWidth(width)
		view := ansi.Strip(f.View())
		// The fields end at the blank line over the hint (which may be cut).
		fields := view[:strings.LastIndex(view, "\n\n")]
		if strings.Contains(fields, "…") {
			t.Fatalf("width %d: a choice is cut:\n%s", width, view)
		}
		rest := view
		for _, step := range steps {
			at := strings.Index(rest, step)
			if at < 0 {
				t.Fatalf("width %d: %q missing or out of order:\n%s", width, step, view)
			}
			rest = rest[at+len(step):]
		}
		for _, line := range strings.Split(fields[strings.Index(fields, "Step"):], "\n") {
			if w := ansi.StringWidth(line); w > width {
				t.Fatalf("width %d: a line is %d wide: %q", width, w, line)
			}
		}
	}
	f.SetWidth(30)
	lines := strings.Split(ansi.Strip(f.View()), "\n")
	last := -1
	for i, line := range lines {
		if strings.Contains(line, "atm") {
			last = i
		}
	}
	if _, ok := f.ClickLine(last); !ok || f.Value("type") != "authorization" {
		t.Fatalf("a click on the choices' last line (%d) did not focus the field", last)
	}
}
