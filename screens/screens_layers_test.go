package screens_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/sandbox"
	"cardterm/screens"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
	"cardterm/screens/support"
	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/layer"
	"cardterm/ui/uitest"
)

// probe is a layer the test opens over a screen as the screen itself
// would (ui.OpenLayerMsg): it records the keys, clicks and pastes that
// reach it, draws the whole body in one mark, and esc closes it.
type probe struct {
	got           []string
	width, height int
	done          bool
}

// probeMark fills the probe's body; none of a screen's text has it.
const probeMark = "▚"

func (p *probe) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		p.got = append(p.got, msg.String())
		p.done = p.done || msg.String() == "esc"
	case ui.BodyMouseMsg:
		p.got = append(p.got, fmt.Sprintf("click %d,%d", msg.X, msg.Y))
	case tea.PasteMsg:
		p.got = append(p.got, "paste "+msg.Content)
	}
	return nil
}

func (p *probe) SetSize(width, height int) { p.width, p.height = width, height }

func (p *probe) View() string {
	return strings.TrimSuffix(strings.Repeat(strings.Repeat(probeMark, p.width)+"\n", p.height), "\n")
}

func (p *probe) KeyMap() help.KeyMap { return probeKeys{} }
func (p *probe) Done() bool          { return p.done }

type probeKeys struct{}

func (probeKeys) ShortHelp() []key.Binding {
	return []key.Binding{key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close the probe"))}
}
func (k probeKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// frameWidth is allScreens' terminal width.
const frameWidth = 140

// probeKeysPressed are keys no root layer nor the frame takes over a
// panel: over the probe they must reach it alone.
var probeKeysPressed = []string{"j", "k", "enter", "x", "d", "e", "n", "a", "c", "l", "w", "f", "p", "space"}

// Every layer over every screen: a screen's own layer (the probe) gets
// every key, click and paste and the screen none (its view unchanged, no
// request sent); the root's layers (help, notices, go-to, dialog, the
// profile switcher, the inspector where there is a record) open over it,
// take the keys from it, and esc closes exactly the one on top; nothing
// of the screen shows through a layer that draws the body.
func TestEveryLayerOverEveryScreen(t *testing.T) {
	app := allScreens(t, screentest.WithDemo(), screentest.WithProfile("demo", "demo", "other"))
	app.Keys("enter")
	if !app.UI().SignedIn() {
		t.Fatalf("not signed in:\n%s", app.Screen())
	}
	for _, s := range screens.All(app.Deps) {
		t.Run(s.Title(), func(t *testing.T) {
			app.T = t
			app.Open(s.ID())
			probeContract(t, app, rootLayers)
		})
	}
}

// probeContract opens a probe over the active screen and checks that it
// gets every key, click and paste, that the root's layers (overs) open
// over it and close one at a time, that esc then closes the probe, and
// that the screen under it neither changed nor sent a request.
func probeContract(t *testing.T, app *screentest.App, overs []rootLayer) {
	t.Helper()
	p, screenBefore, sent := openProbe(t, app)
	app.Keys(probeKeysPressed...)
	w, _ := app.UI().BodySize()
	app.Click(frameWidth-w/2, 2)
	app.Drive(tea.PasteMsg{Content: "pasted"})
	if want := len(probeKeysPressed) + 2; len(p.got) != want {
		t.Fatalf("the probe got %d of %d inputs: %q", len(p.got), want, p.got)
	}
	mustShowOnlyProbe(t, app)
	for _, over := range overs {
		over.check(t, app, p)
	}
	app.Keys("esc")
	if top, open := app.UI().TopLayer(); open {
		t.Fatalf("esc left %T open over the screen", top)
	}
	if after := ansi.Strip(app.UI().Active().View()); after != screenBefore {
		t.Fatalf("the screen changed under its layer:\n%s\n---\n%s", screenBefore, after)
	}
	if now := len(app.Server.Requests()); now != sent {
		t.Fatalf("the screen sent %d requests under its layer", now-sent)
	}
}

// openProbe opens a probe over the active screen and returns it with
// the screen's view and the requests sent so far.
func openProbe(t *testing.T, app *screentest.App) (*probe, string, int) {
	t.Helper()
	before := ansi.Strip(app.UI().Active().View())
	sent := len(app.Server.Requests())
	p := &probe{}
	app.Drive(ui.OpenLayerMsg{Layer: p})
	if top, _ := app.UI().TopLayer(); top != p {
		t.Fatalf("the probe is not on top: %T", top)
	}
	return p, before, sent
}

// mustShowOnlyProbe fails when the body shows anything but the probe.
func mustShowOnlyProbe(t *testing.T, app *screentest.App) {
	t.Helper()
	for i, row := range strings.Split(ansi.Strip(app.UI().BodyView()), "\n") {
		if strings.Trim(row, probeMark) != "" {
			t.Fatalf("body row %d shows what is under the probe: %q", i, row)
		}
	}
}

// rootLayer is one of the root's layers: the key that opens it over the
// probe and what it shows.
type rootLayer struct {
	name, open, shows string
	// box says it is a box over the probe (the probe shows around it).
	box bool
}

func (l rootLayer) check(t *testing.T, app *screentest.App, p *probe) {
	t.Helper()
	got := len(p.got)
	app.Keys(l.open)
	top, _ := app.UI().TopLayer()
	if top == p {
		if l.name == "inspector" {
			return // this screen has no record to inspect now
		}
		t.Fatalf("%s did not open over the probe", l.name)
	}
	body := ansi.Strip(app.UI().BodyView())
	if !strings.Contains(app.Screen(), l.shows) {
		t.Fatalf("%s does not show %q:\n%s", l.name, l.shows, app.Screen())
	}
	if !l.box && strings.Contains(body, probeMark) {
		t.Fatalf("the probe shows through %s:\n%s", l.name, body)
	}
	if l.box {
		checkDialogRows(t, app.UI().BodyView(), l.name+" over the probe")
	}
	app.Keys("j", "k")
	if len(p.got) != got {
		t.Fatalf("keys under %s reached the probe: %q", l.name, p.got[got:])
	}
	app.Keys("esc")
	if now, _ := app.UI().TopLayer(); now != p {
		t.Fatalf("esc on %s left %T on top, not the probe", l.name, now)
	}
	if len(p.got) != got {
		t.Fatalf("esc on %s reached the probe too", l.name)
	}
}

var rootLayers = []rootLayer{
	{name: "help", open: "?", shows: "Global"},
	{name: "notices", open: "m", shows: "Notices"},
	{name: "go-to prompt", open: ":", shows: "go to:", box: true},
	{name: "sign-out dialog", open: "S", shows: "Sign out?", box: true},
	{name: "profile switcher", open: "ctrl+p", shows: "Switch profile", box: true},
	{name: "inspector", open: "i", shows: "JSON as the gateway sent it"},
}

// TestNoScreenKeepsALayerInAField scans every screen's struct, and the
// structs of its own package it holds, for a field whose type is a layer
// or a form (*form.Form): what is open belongs on the root's stack, and a
// second record of it is what this stack replaced. A form in a field is
// a layer in all but name: it takes the keys, draws over the screen and
// must be closed by hand, so it fails here as a layer would.
func TestNoScreenKeepsALayerInAField(t *testing.T) {
	app := allScreens(t)
	all := append(screens.All(app.Deps), signin.New(app.Deps), support.New(app.Deps, support.Options{}))
	for _, s := range all {
		for _, field := range fieldsOf(reflect.TypeOf(s), map[reflect.Type]bool{}) {
			if what := modalKind(field.typ); what != "" {
				t.Errorf("%s is %s kept in a field: open it with ui.OpenLayer", field.name, what)
			}
		}
	}
}

// A second record of what is open hides as well in a list, a map or a
// value as in a pointer: the field scan must see through each.
func TestModalKindSeesThroughContainers(t *testing.T) {
	for _, c := range []struct {
		typ  reflect.Type
		want string
	}{
		{reflect.TypeFor[*probe](), "a layer"},
		{reflect.TypeFor[probe](), "a layer"},
		{reflect.TypeFor[layer.Layer](), "a layer"},
		{reflect.TypeFor[[]layer.Layer](), "a layer"},
		{reflect.TypeFor[map[string]*probe](), "a layer"},
		{reflect.TypeFor[[2]*probe](), "a layer"},
		{reflect.TypeFor[*form.Form](), "a form"},
		{reflect.TypeFor[[]*form.Form](), "a form"},
		{reflect.TypeFor[map[string]form.Form](), "a form"},
		{reflect.TypeFor[string](), ""},
		{reflect.TypeFor[[]string](), ""},
		{reflect.TypeFor[*screenkit.Base](), ""},
	} {
		if got := modalKind(c.typ); got != c.want {
			t.Errorf("modalKind(%v) = %q, want %q", c.typ, got, c.want)
		}
	}
}

// modalKind says what t is when it is something modal (a layer or a
// form), else "". It looks inside pointers, slices, arrays, maps and
// channels, and takes a value whose pointer is a layer for a layer: a
// list of open layers is as much a second record as one of them.
func modalKind(t reflect.Type) string {
	for {
		switch {
		case t.Implements(reflect.TypeFor[layer.Layer]()),
			reflect.PointerTo(t).Implements(reflect.TypeFor[layer.Layer]()):
			return "a layer"
		case t == reflect.TypeFor[form.Form]():
			return "a form"
		}
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map, reflect.Chan:
			t = t.Elem()
		default:
			return ""
		}
	}
}

type field struct {
	name string
	typ  reflect.Type
}

// fieldsOf lists the fields of t's struct and, within t's package, of
// the structs it holds (by value, pointer, slice or map).
func fieldsOf(t reflect.Type, seen map[reflect.Type]bool) []field {
	t = innermost(t)
	if t.Kind() != reflect.Struct || seen[t] {
		return nil
	}
	seen[t] = true
	var out []field
	for i := range t.NumField() {
		f := t.Field(i)
		name := t.String() + "." + f.Name
		out = append(out, field{name: strings.TrimPrefix(name, "*"), typ: f.Type})
		if inner := innermost(f.Type); inner.PkgPath() == t.PkgPath() {
			out = append(out, fieldsOf(inner, seen)...)
		}
	}
	return out
}

// innermost is what t holds under its pointers, slices, arrays and maps.
func innermost(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	return t
}

// The support console's own layers (a look-up form, the audit trail, the
// timeline) are on the root's stack too: each takes the keys from the
// console, the help opens over it, and esc closes one layer at a time.
func TestTheSupportConsolesLayersAreOnTheStack(t *testing.T) {
	console := func(d screenkit.Deps) ui.Screen {
		return support.New(d, support.Options{ExportDir: t.TempDir()})
	}
	app := allScreens(t, screentest.WithSupport(console, true))
	alice := sandbox.DemoUserID("alice@demo.test")
	// The form opens with the key, before any command runs: what is typed
	// next goes into it.
	_, then := app.Root.Update(uitest.Key("u"))
	form, open := app.UI().TopLayer()
	app.Drive(uitest.Run(then)...)
	if !open || !strings.Contains(app.Screen(), "User id") {
		t.Fatalf("u opened no form layer:\n%s", app.Screen())
	}
	app.Keys("f1")
	if top, _ := app.UI().TopLayer(); top == form || !strings.Contains(app.Screen(), "Help") {
		t.Fatalf("f1 opened no help over the form:\n%s", app.Screen())
	}
	app.Keys("esc")
	if top, _ := app.UI().TopLayer(); top != form {
		t.Fatalf("esc on the help left %T on top, not the form", top)
	}
	app.Type(alice)
	app.Keys("enter")
	app.MustShow(t, "User "+alice)
	for _, open := range []struct{ key, shows string }{{"a", "Audit trail"}, {"t", "Timeline"}} {
		app.Keys(open.key)
		view, ok := app.UI().TopLayer()
		if !ok || !strings.Contains(app.Screen(), open.shows) {
			t.Fatalf("%s opened no layer showing %q:\n%s", open.key, open.shows, app.Screen())
		}
		app.Keys("?")
		if top, _ := app.UI().TopLayer(); top == view {
			t.Fatalf("? opened no help over %s", open.shows)
		}
		app.Keys("esc")
		if top, _ := app.UI().TopLayer(); top != view {
			t.Fatalf("esc on the help over %s left %T on top", open.shows, top)
		}
		app.Keys("esc")
		if top, ok := app.UI().TopLayer(); ok {
			t.Fatalf("esc on %s left %T open", open.shows, top)
		}
		app.MustShow(t, "User "+alice)
	}
}
