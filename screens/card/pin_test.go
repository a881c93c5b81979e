package card

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/apiclient/sandbox"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

// screenModel runs a ui.Screen as a tea.Model for uitest.Drive and keeps
// every message it saw, so tests can read the notices.
type screenModel struct {
	s    ui.Screen
	w, h int
	mu   *sync.Mutex
	seen *[]tea.Msg
}

// dialog is the last confirmation the screen asked for.
func (r *rig) dialog() ui.ConfirmSpec {
	r.t.Helper()
	r.m.mu.Lock()
	defer r.m.mu.Unlock()
	for i := len(*r.m.seen) - 1; i >= 0; i-- {
		if d, ok := (*r.m.seen)[i].(ui.OpenDialogMsg); ok {
			return d.Spec
		}
	}
	r.t.Fatal("no confirmation was asked for")
	return ui.ConfirmSpec{}
}

func (m screenModel) Init() tea.Cmd { return nil }

func (m screenModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.mu.Lock()
	*m.seen = append(*m.seen, msg)
	m.mu.Unlock()
	var cmd tea.Cmd
	m.s, cmd = m.s.Update(msg)
	return m, cmd
}

func (m screenModel) View() tea.View { m.s.SetSize(m.w, m.h); return tea.NewView(m.s.View()) }

// rig is a screen on a real sandbox gateway, signed in as a demo user, on
// a clock the test moves.
type rig struct {
	t      *testing.T
	m      screenModel
	now    time.Time
	opened []string
	client *apiclient.Client
}

func newRig(t *testing.T, user string, build func(screenkit.Deps) ui.Screen) *rig {
	t.Helper()
	hs := httptest.NewServer(sandbox.New(sandbox.Options{}))
	t.Cleanup(hs.Close)
	client := apiclient.New(apiclient.Config{BaseURL: hs.URL, ClientKey: sandbox.DemoClientKey, SecretKey: sandbox.DemoSecretKey})
	if _, err := client.Login(context.Background(), user, "demo-pass"); err != nil {
		t.Fatal(err)
	}
	styles := theme.New(true, true)
	r := &rig{t: t, now: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC), client: client}
	deps := screenkit.Deps{Client: client, Requests: ui.NewRequests(), Styles: &styles, Now: func() time.Time { return r.now }}
	var seen []tea.Msg
	r.m = screenModel{s: build(deps), w: 100, h: 38, mu: &sync.Mutex{}, seen: &seen}
	r.m.s.SetSize(r.m.w, r.m.h)
	old := cardOpenInBrowser
	var mu sync.Mutex
	cardOpenInBrowser = func(label, u string) ui.NoticeMsg {
		mu.Lock()
		r.opened = append(r.opened, u)
		mu.Unlock()
		return ui.NoticeMsg{Notice: ui.Notice{Tone: theme.ToneOK, Text: "opened " + label + " in the browser"}}
	}
	t.Cleanup(func() { cardOpenInBrowser = old })
	r.drive(r.m.s.Enter())
	return r
}

// drive feeds the messages a command produces, then msgs.
func (r *rig) drive(cmd tea.Cmd, msgs ...tea.Msg) {
	in := uitest.Run(cmd)
	r.m = uitest.Drive(r.m, append(in, msgs...)...).(screenModel)
}

func (r *rig) keys(names ...string) { r.drive(nil, uitest.Keys(names...)...) }
func (r *rig) typ(text string)      { r.drive(nil, uitest.Type(text)...) }
func (r *rig) view() string         { r.m.s.SetSize(r.m.w, r.m.h); return uitest.Plain(r.m.s.View()) }

// notices is the text of every notice the screen produced.
func (r *rig) notices() string {
	r.m.mu.Lock()
	defer r.m.mu.Unlock()
	var b strings.Builder
	for _, msg := range *r.m.seen {
		if n, ok := msg.(ui.NoticeMsg); ok {
			b.WriteString(n.Notice.Text + "\n")
		}
	}
	return b.String()
}

func (r *rig) want(texts ...string) string {
	r.t.Helper()
	v := r.view()
	for _, s := range texts {
		if !strings.Contains(v, s) {
			r.t.Fatalf("view lacks %q:\n%s\nnotices:\n%s", s, v, r.notices())
		}
	}
	return v
}

func cardRig(t *testing.T, user string) *rig {
	return newRig(t, user, func(d screenkit.Deps) ui.Screen { return New(d) })
}

func TestCardSetPINOpensLinkWithQRAndCountdown(t *testing.T) {
	r := cardRig(t, "alice@demo.test")
	r.want("ACTIVE", "4242")
	r.keys("p")
	if len(r.opened) != 1 || !strings.Contains(r.opened[0], "/pin-direct/set?token=") {
		t.Fatalf("opened %v", r.opened)
	}
	link := r.opened[0]
	v := r.want("opened in the browser", "link valid for 10:00", "▀")
	if !strings.Contains(strings.ReplaceAll(v, "\n", ""), "/pin-direct/set?to") {
		t.Fatalf("the set-PIN link is shown:\n%s", v)
	}
	r.now = r.now.Add(3*time.Minute + 20*time.Second)
	r.want("link valid for 6:40")
	if label, val, ok := r.m.s.(*Screen).CopyValue(); !ok || val != link || label == "" {
		t.Fatal("y copies the set-PIN link")
	}
	if label, val, ok := r.m.s.(*Screen).OpenValue(); !ok || val != link || label == "" {
		t.Fatal("o reopens the set-PIN page")
	}
	res, err := http.Get(link)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("the page opens: %v", err)
	}
	res.Body.Close()
	r.now = r.now.Add(7 * time.Minute)
	v = r.want("link expired")
	if strings.Contains(v, "▀") {
		t.Fatal("no QR code for an expired link")
	}
	if _, _, ok := r.m.s.(*Screen).OpenValue(); ok {
		t.Fatal("o offers an expired link")
	}
}

func TestCardStyleFormValidatesAndIsUsed(t *testing.T) {
	r := cardRig(t, "alice@demo.test")
	r.keys("s")
	r.want("Set-PIN page style", "#EFEFEF", "#000000", "#FFFFFF", "= primary background")
	if !r.m.s.CapturesKeys() {
		t.Fatal("the form takes the keys")
	}
	r.typ("red")     // background
	r.keys("tab")    // text
	r.typ("#efefef") // the default background
	r.keys("tab", "tab", "tab")
	r.typ("big") // button radius: not a number
	r.keys("ctrl+s")
	v := r.want("must be a hex colour", "must be a number of pixels", "red", "big")
	if strings.Count(v, "✗") != 2 {
		t.Fatalf("two field errors expected:\n%s", v)
	}
	// Focus is on the first field in error (background): empty it, so the
	// text colour is compared with the default background.
	r.keys("ctrl+u", "ctrl+s")
	r.want("must differ from", "backgroundColor (#EFEFEF)", "must be a number of pixels")
	// Focus moved to the text colour: fix it, then the radius.
	r.keys("ctrl+u")
	r.typ("#FFFFFF")
	r.keys("tab", "tab", "tab", "ctrl+u")
	r.typ("12")
	r.keys("shift+tab", "shift+tab", "shift+tab", "shift+tab")
	r.typ("#102030")
	r.keys("ctrl+s")
	if r.m.s.CapturesKeys() {
		t.Fatalf("saved form closes:\n%s", r.view())
	}
	if !strings.Contains(r.notices(), "style saved") {
		t.Fatal(r.notices())
	}
	r.keys("p")
	res, err := http.Get(r.opened[0])
	if err != nil {
		t.Fatal(err)
	}
	body := make([]byte, 4096)
	n, _ := res.Body.Read(body)
	res.Body.Close()
	if !strings.Contains(string(body[:n]), "#102030") || !strings.Contains(string(body[:n]), "12px") {
		t.Fatalf("the page does not use the style:\n%s", body[:n])
	}
	// Kept for the session: the form opens with what was typed.
	r.keys("s")
	r.want("#102030", "12")
	r.keys("esc")
}

func TestCardViewPINNeverShowsTheImageLink(t *testing.T) {
	r := cardRig(t, "alice@demo.test")
	r.keys("v")
	r.want("View PIN", "POST /v1/card/pin/token")
	r.keys("ctrl+s")
	if len(r.opened) != 1 || !strings.Contains(r.opened[0], "/details-image?token=") {
		t.Fatalf("opened %v", r.opened)
	}
	secret := r.opened[0]
	tok := secret[strings.Index(secret, "token=")+6:]
	v := r.want("PIN image opened in the browser")
	for _, s := range []string{v, r.notices(), strings.ReplaceAll(v, "\n", "")} {
		if strings.Contains(s, tok) || strings.Contains(s, "details-image") {
			t.Fatalf("the image link leaked:\n%s", s)
		}
	}
	r.keys("d", "ctrl+s")
	r.want("Card details image opened")
	if len(r.opened) != 2 || strings.Contains(r.view(), "details-image") {
		t.Fatal("details")
	}
}

func TestCardViewPIN422NextToField(t *testing.T) {
	r := cardRig(t, "alice@demo.test")
	r.keys("v")
	r.typ("#abc")
	r.keys("tab")
	r.typ("#AABBCC")
	r.keys("ctrl+s")
	v := r.want("Validation failed (422)", "Must differ from backgroundColor", "#abc", "#AABBCC")
	lines := strings.Split(v, "\n")
	for i, l := range lines {
		if strings.Contains(l, "Must differ") && !strings.Contains(lines[i-1], "Text") {
			t.Fatalf("the error is not under the Text field:\n%s", v)
		}
	}
	if len(r.opened) != 0 {
		t.Fatal("nothing opens on a 422")
	}
	// A client-side hex check stops bad input before it is sent.
	r.keys("ctrl+u")
	r.typ("nope")
	r.keys("ctrl+s")
	r.want("must be a hex colour")
}

func TestCardOrderReplacesBlockedCard(t *testing.T) {
	r := cardRig(t, "bruno@demo.test")
	r.want("BLOCKED", "order a new card (n)")
	r.keys("n")
	if d := r.dialog(); d.Request[0] != "POST /v1/card/order" {
		t.Fatalf("the confirmation shows %q", d.Request)
	}
	r.drive(nil, r.dialog().OnConfirm)
	v := r.want("ACTIVE")
	if strings.Contains(v, "BLOCKED") {
		t.Fatalf("still blocked:\n%s", v)
	}
}

func TestCardPINKeysRefusedReadOnly(t *testing.T) {
	r := newRig(t, "alice@demo.test", func(d screenkit.Deps) ui.Screen { d.ReadOnly = true; return New(d) })
	for _, k := range []string{"p", "v", "d", "s"} {
		r.keys(k)
	}
	if len(r.opened) != 0 || r.m.s.CapturesKeys() {
		t.Fatal("read-only must refuse PIN keys")
	}
	// The keys are disabled bindings: the help does not offer them, and the
	// root answers them with "read-only mode: … is disabled".
	for _, group := range r.m.s.KeyMap().FullHelp() {
		for _, b := range group {
			if b.Enabled() && b.Help().Key != "r" {
				t.Fatalf("read-only offers %s %s", b.Help().Key, b.Help().Desc)
			}
		}
	}
}

func TestSetPINLinkQRDecodesToTheLink(t *testing.T) {
	link := "http://127.0.0.1:41234/pin-direct/set?token=0b1c2d3e-4f50-4617-8899-aabbccddeeff"
	for _, noColor := range []bool{false, true} {
		st := theme.New(true, noColor)
		lines := strings.Split(ansi.Strip(screenkit.QRBlock(link, &st)), "\n")
		w := ansi.StringWidth(lines[0])
		if w < 25 || w > 50 || len(lines) != (w+1)/2 {
			t.Fatalf("size %dx%d", w, len(lines))
		}
		if got := uitest.DecodeHalfBlocks(lines); uitest.SameBits(got, screenkit.QRBits(link)) == noColor {
			t.Fatalf("no-colour %v: the drawn code is not the link's", noColor)
		}
	}
}
