package card

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/domain/lazy"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
)

// pinReturn is where the hosted set-PIN page sends the browser once the
// user set the PIN or cancelled (the token's redirectUrl): a loopback
// address with a random path. Its first visit says the link was used,
// which nothing else tells: the token dies on its first use, and a panel
// counting down a dead link misleads.
type pinReturn struct {
	url   string
	path  string
	srv   *http.Server
	ln    net.Listener
	used  atomic.Bool
	close sync.Once
}

// pinReturnLife is how long the return address listens: the token's life,
// and time to type the PIN on a page opened at its last second.
const pinReturnLife = apiclient.PINTokenLifetime*time.Second + 5*time.Minute

// startPINReturn listens on 127.0.0.1 (the literal address, so that the
// redirect cannot resolve elsewhere) until the link's life is over.
func startPINReturn() (*pinReturn, error) {
	var secret [16]byte
	if _, err := rand.Read(secret[:]); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("cannot listen on the loopback address: %w", err)
	}
	p := &pinReturn{path: "/pin-done/" + hex.EncodeToString(secret[:]), ln: ln}
	p.url = "http://" + ln.Addr().String() + p.path
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = p.srv.Serve(ln) }()
	time.AfterFunc(pinReturnLife, p.Close)
	return p, nil
}

// Used reports whether the browser came back from the hosted page.
func (p *pinReturn) Used() bool { return p != nil && p.used.Load() }

// Close stops listening; safe to call more than once, and on nil.
func (p *pinReturn) Close() {
	if p == nil {
		return
	}
	p.close.Do(func() {
		_ = p.ln.Close()
		_ = p.srv.Close()
	})
}

// pinReturnPage is what the browser shows back from the hosted page; it
// cannot say whether the PIN was set or the change cancelled: the
// redirect is the same for both. Parsed at first use, not before main.
var pinReturnPage = lazy.Value[*template.Template]{New: func() *template.Template {
	return template.Must(template.New("pin-done").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>cardterm</title>
<style>body{font-family:system-ui,sans-serif;margin:3rem auto;max-width:30rem;color:#111}</style></head>
<body><h1>Back to cardterm</h1><p>The set-PIN page is finished and its link is used up.
You can close this tab; cardterm shows the outcome.</p></body></html>
`))
}}

// ServeHTTP takes the browser's return: the random path alone, by GET.
func (p *pinReturn) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !screenkit.LocalPageRequest(w, r, p.path) {
		return
	}
	p.used.Store(true)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_ = pinReturnPage.Get().Execute(w, nil)
}

// setPINLink is a set-PIN token and the address its page returns to (nil
// when none could listen: the link then counts down as before).
type setPINLink struct {
	token apiclient.SetPINToken
	back  *pinReturn
}

// pinTicked moves the set-PIN panel on a second: the browser came back
// from the hosted page (the link is used: said with its time, the
// countdown stops), the link expired, or it ticks on.
func (c *Screen) pinTicked(msg pinTickMsg) tea.Cmd {
	p := c.pin
	if p == nil || msg.seq != p.seq || !p.usedAt.IsZero() || c.pinLeft() <= 0 {
		return nil
	}
	if !p.back.Used() {
		return pinTick(msg.seq)
	}
	p.usedAt = c.Deps.Clock()
	back := p.back
	return tea.Batch(func() tea.Msg { back.Close(); return nil },
		ui.Notify(theme.ToneOK, "set-PIN link used: the hosted page finished"))
}

// usedPanelView draws the set-PIN panel once its link was used: when, and
// how to get another (the link works once).
func (c *Screen) usedPanelView(width int) string {
	st := c.Deps.Styles
	var b strings.Builder
	b.WriteString(st.Subtitle.Render("Set PIN on the hosted page"))
	b.WriteString("\n" + st.Text(theme.ToneOK).Render(fmt.Sprintf("✓ link used at %s", c.pin.usedAt.Local().Format("15:04:05"))))
	b.WriteString("\n" + st.Muted.Render(ansi.Wrap("The hosted page finished: the PIN was set, or the change cancelled there.", max(width, 20), " ")))
	b.WriteString("\n" + st.Muted.Render("The link works once: "+c.keys.SetPIN.Help().Key+" requests a new one."))
	return b.String()
}
