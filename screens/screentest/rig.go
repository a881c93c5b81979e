package screentest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/sandbox"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/layer"
	"cardterm/ui/uitest"
)

// Rig drives one screen on its own, without the root: signed in on its own
// sandbox, on a clock the test moves, every message it saw kept so tests
// can read its notices and confirmations.
type Rig struct {
	T      *testing.T
	Screen ui.Screen
	W, H   int
	Now    time.Time
	Client *apiclient.Client

	mu   sync.Mutex
	seen []tea.Msg
	// layers are the forms and panels the screen opened (ui.OpenLayer),
	// routed as the root routes them: input to the top one alone.
	layers layer.Stack
}

// NewRig signs user in and enters the screen at 100x38, under NO_COLOR.
// Of the options only the sandbox's count (WithAltShapes, WithSandbox,
// WithGateway).
func NewRig(t *testing.T, user string, build Build, opts ...Option) *Rig {
	t.Helper()
	var setup Setup
	for _, o := range opts {
		o(&setup)
	}
	var handler http.Handler = sandbox.New(setup.Sandbox)
	if setup.Wrap != nil {
		handler = setup.Wrap(handler)
	}
	hs := httptest.NewServer(handler)
	t.Cleanup(hs.Close)
	client := apiclient.New(apiclient.Config{BaseURL: hs.URL, ClientKey: sandbox.DemoClientKey, ClientID: demoClientID(), SecretKey: sandbox.DemoSecretKey})
	if _, err := client.Login(context.Background(), user, "demo-pass"); err != nil {
		t.Fatal(err)
	}
	styles := theme.New(true, true)
	r := &Rig{T: t, W: 100, H: 38, Now: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC), Client: client}
	deps := screenkit.Deps{Client: client, Requests: ui.NewRequests(), Styles: &styles, Now: func() time.Time { return r.Now }}
	r.Screen = build(deps)
	r.Screen.SetSize(r.W, r.H)
	r.Drive(r.Screen.Enter())
	return r
}

// rigModel runs the rig's screen as a tea.Model for uitest.Drive.
type rigModel struct{ r *Rig }

func (m rigModel) Init() tea.Cmd { return nil }

func (m rigModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.r.mu.Lock()
	m.r.seen = append(m.r.seen, msg)
	m.r.mu.Unlock()
	r := m.r
	switch msg := msg.(type) {
	case ui.OpenLayerMsg:
		r.layers.Push(msg.Layer, layer.Panel, "")
		r.layers.SetSize(r.W, r.H)
		return m, msg.Then
	case tea.KeyPressMsg, tea.PasteMsg, ui.BodyMouseMsg:
		if cmd, ok := r.layers.Update("", msg); ok {
			return m, cmd
		}
	}
	var cmd tea.Cmd
	r.Screen, cmd = r.Screen.Update(msg)
	if _, input := msg.(tea.KeyPressMsg); input {
		return m, cmd
	}
	return m, tea.Batch(cmd, r.layers.Broadcast(nil, msg))
}

func (m rigModel) View() tea.View { return tea.NewView(m.r.View()) }

// Drive feeds the messages a command produces, then msgs.
func (r *Rig) Drive(cmd tea.Cmd, msgs ...tea.Msg) {
	uitest.Drive(rigModel{r}, append(uitest.Run(cmd), msgs...)...)
}

// Keys presses keys by name; Type types text; Fill types values into a
// form's fields in turn (uitest.Fill).
func (r *Rig) Keys(names ...string)  { r.Drive(nil, uitest.Keys(names...)...) }
func (r *Rig) Type(text string)      { r.Drive(nil, uitest.Type(text)...) }
func (r *Rig) Fill(values ...string) { r.Drive(nil, uitest.Fill(values...)...) }

// View is the screen drawn at the rig's size, as plain text, or the top
// layer over it (the rig's layers draw the whole body).
func (r *Rig) View() string {
	r.Screen.SetSize(r.W, r.H)
	r.layers.SetSize(r.W, r.H)
	if shown := r.layers.Shown(""); len(shown) > 0 {
		return uitest.Plain(tea.NewView(shown[len(shown)-1].View()))
	}
	return uitest.Plain(tea.NewView(r.Screen.View()))
}

// Front is what has the keys: the top layer the screen opened, else the
// screen.
func (r *Rig) Front() Front {
	if top, _, ok := r.layers.Top(""); ok {
		return layerFront{top}
	}
	return r.Screen
}

// Notices is the text of every notice the screen produced.
func (r *Rig) Notices() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	for _, msg := range r.seen {
		if n, ok := msg.(ui.NoticeMsg); ok {
			b.WriteString(n.Notice.Text + "\n")
		}
	}
	return b.String()
}

// Want fails unless the view shows every text, and returns the view.
func (r *Rig) Want(texts ...string) string {
	r.T.Helper()
	v := r.View()
	for _, s := range texts {
		if !strings.Contains(v, s) {
			r.T.Fatalf("view lacks %q:\n%s\nnotices:\n%s", s, v, r.Notices())
		}
	}
	return v
}

// Dialog is the last confirmation the screen asked for.
func (r *Rig) Dialog() ui.ConfirmSpec {
	r.T.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.seen) - 1; i >= 0; i-- {
		if d, ok := r.seen[i].(ui.OpenDialogMsg); ok {
			return d.Spec
		}
	}
	r.T.Fatal("no confirmation was asked for")
	return ui.ConfirmSpec{}
}

// TopLayer is the top layer the screen opened, if one is open.
func (r *Rig) TopLayer() (layer.Layer, bool) {
	top, _, ok := r.layers.Top("")
	return top, ok
}
