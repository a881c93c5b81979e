package screenkit

import (
	"cardterm/ui/keymap"

	"context"
	"strings"
	"sync"
	"sync/atomic"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// The OAuth/PKCE sign-in through a browser, shared by the sign-in screen
// (a user signs in) and the support console (a customer approves a
// read-only session): PKCE and state made and the loopback listener
// started in a command, the initiate call, the link opened in the browser
// and drawn as a QR code, the loopback's answer or a typed code, and the
// code exchange. The screen that holds a flow keeps its own state machine
// around it; the flow only knows the sign-in.

// OAuthFlow is one OAuth sign-in in progress.
type OAuthFlow struct {
	// ID tells the flow's messages apart from any other flow's, on any
	// screen: the root broadcasts them to every screen.
	ID       int
	PKCE     apiclient.PKCE
	State    string
	Loopback *Loopback
	Link     string
	QR       [][]bool // the symbol's modules, without quiet zone; nil if too long
	// FromCallback says the code being exchanged came from the loopback.
	FromCallback bool
	Exchanging   bool
	Problem      string
	// Browser is what became of opening the link: unknown until tried.
	Browser BrowserState

	// done is closed when the flow ends, so that a listener started for
	// it closes even if the start's answer comes after the end.
	done      chan struct{}
	closeOnce *sync.Once
}

// BrowserState is whether the sign-in page opened in a browser here.
type BrowserState int

const (
	BrowserOpening BrowserState = iota
	BrowserOpened
	BrowserMissing
)

var flowIDs atomic.Int64

// NewOAuthFlow is a flow with an id no other flow of the process has.
func NewOAuthFlow() *OAuthFlow {
	return &OAuthFlow{ID: int(flowIDs.Add(1)), done: make(chan struct{}), closeOnce: &sync.Once{}}
}

// OAuthOpenedMsg says whether the browser opened the link of a flow.
type OAuthOpenedMsg struct {
	Flow   int
	OK     bool
	Notice ui.NoticeMsg
}

// OAuthStarted is the answer of the command that starts a flow.
type OAuthStarted struct {
	PKCE     apiclient.PKCE
	State    string
	Loopback *Loopback
	Link     string
}

// OAuthCallbackMsg carries the loopback's answer to the model.
type OAuthCallbackMsg struct {
	Flow   int
	Result CallbackResult
}

// Start makes PKCE and state, starts the loopback listener and asks the
// gateway for the sign-in link, all in a command, off the update loop.
// The listener closes when the flow does, even one closed while starting.
func (f *OAuthFlow) Start(owner ui.Owner, client *apiclient.Client) (ui.RequestID, tea.Cmd) {
	done := f.done
	return ui.Go(owner, func(ctx context.Context) (OAuthStarted, error) {
		pk, err := apiclient.NewPKCE()
		if err != nil {
			return OAuthStarted{}, err
		}
		state, err := apiclient.NewState()
		if err != nil {
			return OAuthStarted{}, err
		}
		lb, err := StartLoopback(state)
		if err != nil {
			return OAuthStarted{}, err
		}
		go func() {
			select {
			case <-done:
				lb.Close()
			case <-lb.done:
			}
		}()
		select {
		case <-done:
			lb.Close()
			return OAuthStarted{}, context.Canceled
		default:
		}
		link, err := client.AuthorizeInitiate(ctx, apiclient.AuthorizeRequest{
			RedirectURI: lb.RedirectURI(), State: state, Challenge: pk.Challenge})
		if err != nil {
			lb.Close()
			return OAuthStarted{}, err
		}
		return OAuthStarted{PKCE: pk, State: state, Loopback: lb, Link: link}, nil
	})
}

// Started takes the started flow's parts and returns the commands that
// wait for the loopback and open the link in the browser.
func (f *OAuthFlow) Started(v OAuthStarted) tea.Cmd {
	f.PKCE, f.State, f.Loopback, f.Link = v.PKCE, v.State, v.Loopback, v.Link
	f.QR = QRBits(f.Link)
	return tea.Batch(f.WaitCallback(), OpenOAuthLink(f.ID, f.Link))
}

// WaitCallback waits, in a command, for the loopback's next answer.
func (f *OAuthFlow) WaitCallback() tea.Cmd {
	lb, id := f.Loopback, f.ID
	return func() tea.Msg { return OAuthCallbackMsg{Flow: id, Result: lb.Wait()} }
}

// Opened records whether the browser opened the link.
func (f *OAuthFlow) Opened(msg OAuthOpenedMsg) {
	if f != nil && msg.Flow == f.ID {
		f.Browser = BrowserMissing
		if msg.OK {
			f.Browser = BrowserOpened
		}
	}
}

// Close ends the flow and its listener, one started or still starting;
// safe to call more than once.
func (f *OAuthFlow) Close() {
	if f == nil {
		return
	}
	if f.closeOnce != nil {
		f.closeOnce.Do(func() { close(f.done) })
	}
	if f.Loopback != nil {
		f.Loopback.Close()
	}
}

// Ready reports whether the link is there and no exchange is running:
// the keys that copy, reopen or send a code work.
func (f *OAuthFlow) Ready() bool { return f != nil && f.Loopback != nil && !f.Exchanging }

// Exchange trades code for a session of client in a command.
func (f *OAuthFlow) Exchange(owner ui.Owner, client *apiclient.Client, code string) (ui.RequestID, tea.Cmd) {
	f.Exchanging, f.Problem = true, ""
	verifier, redirect := f.PKCE.Verifier, f.Loopback.RedirectURI()
	return ui.Go(owner, func(ctx context.Context) (apiclient.Session, error) {
		return client.ExchangeCode(ctx, code, verifier, redirect)
	})
}

// OpenOAuthLink opens a flow's link and reports whether a browser took
// it, so the panel can say what to do when none can (SSH, a headless box).
func OpenOAuthLink(flow int, link string) tea.Cmd {
	open := ui.OpenLabeled("the sign-in page", link)
	return func() tea.Msg {
		n, _ := open().(ui.NoticeMsg)
		return OAuthOpenedMsg{Flow: flow, OK: n.Notice.Tone == theme.ToneOK, Notice: n}
	}
}

// OAuthKeys are the OAuth panel's bindings.
type OAuthKeys struct {
	Submit, Reopen, Copy, Cancel key.Binding
}

// NewOAuthKeys are the panel's keys; cancel says where esc goes.
func NewOAuthKeys(cancel string) OAuthKeys {
	return OAuthKeys{
		Submit: keymap.Bind("screenkit.submit"),
		Reopen: keymap.Bind("screenkit.reopen"),
		// y would type into the code field: ctrl+y copies the link.
		Copy:   keymap.Bind("screenkit.copy"),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", cancel)),
	}
}

func (k OAuthKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Submit, k.Copy, k.Reopen, k.Cancel}
}
func (k OAuthKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Submit, k.Copy, k.Reopen}, {k.Cancel}}
}

// NewCodeInput is the field the code shown on the phone is typed into.
func NewCodeInput(st *theme.Styles) textinput.Model {
	in := NewInput(st)
	in.Prompt = ""
	in.Placeholder = "XXXXX-XXXXX"
	in.CharLimit = 64
	return in
}

// OAuthWords are what a panel says: its title, what to do once the
// browser opened (or did not) here, and the code field's label.
type OAuthWords struct {
	Title, Opening, Opened, Missing, Code string
	// Copied is the notice of a copied link; NoCode the problem of enter
	// on an empty code field.
	Copied, NoCode string
}

// OAuthPanelKey is what a key press on an OAuth panel asks of the screen
// that holds it: nothing more (the panel handled it: a reopened or copied
// link, a key typed into the code field), to cancel the flow, or to
// exchange Code.
type OAuthPanelKey struct {
	Cancel bool
	Code   string // the typed code to exchange; "" for none
	Cmd    tea.Cmd
}

// HandleOAuthKey is the one way an OAuth panel takes a key: esc cancels
// (the caller ends the flow its own way), ctrl+o reopens the link, ctrl+y
// copies it, enter asks for the typed code's exchange (an empty field is a
// problem on the panel), anything else types into the code field. Only
// esc works while the flow starts or exchanges.
func HandleOAuthKey(f *OAuthFlow, keys OAuthKeys, code *textinput.Model, words OAuthWords, msg tea.KeyPressMsg) OAuthPanelKey {
	switch {
	case key.Matches(msg, keys.Cancel):
		return OAuthPanelKey{Cancel: true}
	case !f.Ready():
		return OAuthPanelKey{}
	case key.Matches(msg, keys.Reopen):
		return OAuthPanelKey{Cmd: OpenOAuthLink(f.ID, f.Link)}
	case key.Matches(msg, keys.Copy):
		// The link carries no secret: the PKCE verifier never leaves here.
		return OAuthPanelKey{Cmd: tea.Batch(tea.SetClipboard(f.Link), ui.Notify(theme.ToneOK, words.Copied))}
	case key.Matches(msg, keys.Submit):
		typed := strings.TrimSpace(code.Value())
		if typed == "" {
			f.Problem = words.NoCode
			return OAuthPanelKey{}
		}
		f.FromCallback = false
		return OAuthPanelKey{Code: typed}
	}
	var cmd tea.Cmd
	*code, cmd = code.Update(msg)
	return OAuthPanelKey{Cmd: cmd}
}

// OAuthPanel draws a flow's panel in width x height: the QR code beside
// (or above) the text when it fits, the link, the code field and the
// flow's state. The link is shown once: whole on its line when it fits,
// else under the panel on a line of the whole width, cut only when even
// that is too narrow (the OSC 8 link and ctrl+y carry it whole).
func OAuthPanel(st *theme.Styles, f *OAuthFlow, code *textinput.Model, words OAuthWords, width, height int) string {
	var qr []string
	if f != nil && f.QR != nil {
		qr = QRLines(f.QR, st)
	}
	qrW := 0
	if len(qr) > 0 {
		qrW = lipgloss.Width(qr[0])
	}
	side := len(qr) > 0 && width-qrW-3 >= 34 && len(qr) <= height
	textW, linkW := width-2, width-2
	if side {
		textW, linkW = width-qrW-4, width-qrW-4
	}
	textW = max(min(textW, 60), 20)
	// A link too long for the column beside the code goes under it, on a
	// line of the whole width, and the column says so. The column has as
	// many lines either way (the link's line or the note's), so it is
	// built once with the link or the note; only when the block then
	// leaves no room for the link below does the link go back in it.
	columnLinkW := linkW
	linkBelow := side && ansi.StringWidth(sanitize.Text(f.Link)) > linkW
	if linkBelow {
		columnLinkW = 0
	}
	text := oauthText(st, f, code, words, textW, columnLinkW, "")
	textLines := strings.Count(text, "\n") + 1
	if linkBelow && max(len(qr), textLines)+2 > height {
		linkBelow = false
		text = oauthText(st, f, code, words, textW, linkW, "")
	}
	switch {
	case side:
		block := SideBySide(" "+strings.Join(qr, "\n "), text, qrW+1, "  ")
		if linkBelow {
			block += "\n\n " + oauthLink(st, f, width-2)
		}
		return Place(block, width, height)
	case len(qr) > 0 && len(qr)+textLines+1 <= height && qrW+1 <= width:
		return Place(" "+strings.Join(qr, "\n ")+"\n"+text, width, height)
	case f != nil && f.Link != "":
		note := "(the QR code needs a larger terminal)"
		if f.QR == nil {
			note = "(the link is too long for a QR code)"
		}
		text = oauthText(st, f, code, words, textW, linkW, note)
	}
	return Place(" "+strings.ReplaceAll(text, "\n", "\n "), width, height)
}

// oauthLink is the flow's link in at most w cells, as a terminal
// hyperlink when it is a clean web link.
func oauthLink(st *theme.Styles, f *OAuthFlow, w int) string {
	// The link carries no secret (the PKCE verifier never leaves cardterm):
	// showing it lets users copy it when no browser opens.
	link := sanitize.Text(f.Link)
	ls := st.Link
	if link == f.Link && (strings.HasPrefix(link, "https://") || strings.HasPrefix(link, "http://")) {
		// The OSC 8 sequence carries the link as it is: only a clean web
		// link goes into it, or a hostile one could close the sequence and
		// write its own (OSC 52 to the clipboard, say).
		ls = ls.Hyperlink(f.Link)
	}
	// One line, never broken inside: the OSC 8 link and ctrl+y carry it
	// whole even where the terminal is too narrow to show all of it.
	return ls.Render(ui.Shorten(link, w))
}

// oauthText is the panel's text column, w cells wide: what to do (and
// note, when the QR code cannot be shown), the link in linkW cells (0: it
// is drawn under the panel), the code input and the current state.
func oauthText(st *theme.Styles, f *OAuthFlow, code *textinput.Model, words OAuthWords, w, linkW int, note string) string {
	var b strings.Builder
	b.WriteString(st.Title.Render(words.Title))
	b.WriteString("\n")
	if f == nil || f.Loopback == nil {
		b.WriteString(st.Text(theme.ToneInfo).Render("Preparing the sign-in link… (esc cancels)"))
		return b.String()
	}
	switch f.Browser {
	case BrowserOpened:
		b.WriteString(st.Muted.Render(ansi.Wrap(words.Opened, w, " ")))
	case BrowserMissing:
		b.WriteString(st.Text(theme.ToneWarn).Render(ansi.Wrap(words.Missing, w, " ")))
	default:
		b.WriteString(st.Muted.Render(ansi.Wrap(words.Opening, w, " ")))
	}
	if note != "" {
		b.WriteString("\n" + st.Text(theme.ToneWarn).Render(ansi.Wrap(note, w, " ")))
	}
	b.WriteString("\n\n")
	if linkW > 0 {
		b.WriteString(oauthLink(st, f, linkW) + "\n")
	} else {
		b.WriteString(st.Muted.Render("The link is below.") + "\n")
	}
	b.WriteString("\n" + st.Label.Render(words.Code) + "\n")
	box := st.InputFocused
	if f.Exchanging {
		box = st.Input
	}
	code.SetWidth(max(min(w-4, 24), 11))
	b.WriteString(box.Render(sanitize.ShowInvisible(code.View())) + "\n")
	switch {
	case f.Exchanging:
		b.WriteString(st.Text(theme.ToneInfo).Render("Exchanging the code… (esc cancels)"))
	case f.Problem != "":
		b.WriteString(st.Text(theme.ToneDanger).Render(ansi.Wrap(sanitize.Text(f.Problem), w, " ")))
	default:
		b.WriteString(st.Muted.Render(ansi.Wrap("Waiting for the browser on "+strings.TrimPrefix(f.Loopback.RedirectURI(), "http://")+"…", w, " ")))
	}
	b.WriteString("\n" + st.Muted.Render(ansi.Wrap(keymap.Key("screenkit.submit")+" uses the code · "+
		keymap.Key("screenkit.copy")+" copies the link · esc cancels", w, " ")))
	return b.String()
}
