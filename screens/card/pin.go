package card

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/keymap"
	"cardterm/ui/sanitize"
)

// cardOpenInBrowser opens u ($BROWSER first, then the system opener) and
// returns the notice it makes. Tests replace it. The single-use image
// links (view PIN, card details) open through a one-time loopback address
// (ui.OpenSecret), so the real URL never shows in a process argument.
var cardOpenInBrowser = func(label, u string) ui.NoticeMsg {
	open := ui.OpenLabeled(label, u)
	if strings.Contains(u, "/details-image") {
		open = ui.OpenSecret(label, u, 10*time.Minute)
	}
	if n, ok := open().(ui.NoticeMsg); ok {
		return n
	}
	return ui.NoticeMsg{Notice: ui.Notice{Tone: theme.ToneDanger, Text: "could not open " + label}}
}

// pinOpenedMsg says whether the set-PIN page opened in the browser.
type pinOpenedMsg struct {
	seq    int
	ok     bool
	notice ui.NoticeMsg
}

// pinTickMsg drives the set-PIN token's countdown, once a second.
type pinTickMsg struct{ seq int }

// imageOpened is the outcome of a view-PIN or card-details request: the
// image link itself never comes back to the model, only whether it opened.
type imageOpened struct {
	kind cardFormKind
	// fromForm says the colours form sent it: its 422 is said there.
	fromForm bool
	ok       bool
	notice   ui.NoticeMsg
}

// pinPanel is the set-PIN link on screen: opened, as a QR code, counting
// down the token's life.
type pinPanel struct {
	seq     int
	url     string // hostedPageUrl (sanitized when drawn)
	issued  time.Time
	opening bool
	opened  bool
	openErr string
	qr      string // half-block QR code, "" if it could not be made
	// back is where the hosted page returns the browser (nil when none
	// listens); usedAt is when it did: the link is used up.
	back   *pinReturn
	usedAt time.Time
}

// secretNote is what the screen says after a secret image opened.
type secretNote struct {
	kind cardFormKind
	ok   bool
	at   time.Time
	text string
}

// requestSetPIN asks for a set-PIN token with the remembered style.
func (c *Screen) requestSetPIN() tea.Cmd {
	client := c.Deps.Client
	req := apiclient.SetPINRequest{IsEmbedded: false}
	if !c.pinStyle.IsZero() {
		st := c.pinStyle
		req.CustomCSS = &st
	}
	c.pinBusy = true
	var cmd tea.Cmd
	c.pinReqID, cmd = ui.Go(c.Requests, func(ctx context.Context) (setPINLink, error) {
		// No return address (no loopback here): the link still works,
		// the panel just cannot tell when it is used.
		back, err := startPINReturn()
		if err == nil {
			req.RedirectURL = back.url
		}
		token, err := client.SetPINToken(ctx, req)
		if err != nil {
			back.Close()
		}
		return setPINLink{token: token, back: back}, err
	})
	return cmd
}

// gotSetPIN shows the new link and opens it.
func (c *Screen) gotSetPIN(msg ui.Result[setPINLink]) tea.Cmd {
	c.pinBusy = false
	if msg.Err != nil {
		return screenkit.Failed("set-PIN link", msg.Err)
	}
	var replaced *pinReturn // the old link's return address, no use now
	if c.pin != nil {
		replaced = c.pin.back
	}
	c.pinSeq++
	link := msg.Value.token.HostedPageURL
	c.pin = &pinPanel{seq: c.pinSeq, url: link, issued: c.Deps.Clock(), opening: true, back: msg.Value.back}
	c.pin.qr = screenkit.QRBlock(link, c.Deps.Styles)
	seq, u := c.pinSeq, link
	open := func() tea.Msg {
		n := cardOpenInBrowser("set-PIN page", u)
		n.Notice.Text = strings.ReplaceAll(n.Notice.Text, u, "[link]")
		return pinOpenedMsg{seq: seq, ok: n.Notice.Tone == theme.ToneOK, notice: n}
	}
	return tea.Batch(open, pinTick(seq), func() tea.Msg { replaced.Close(); return nil })
}

func pinTick(seq int) tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return pinTickMsg{seq: seq} })
}

// pinLeft is how long the set-PIN token has left: nothing once used.
func (c *Screen) pinLeft() time.Duration {
	if c.pin == nil || !c.pin.usedAt.IsZero() {
		return 0
	}
	return c.pin.issued.Add(apiclient.PINTokenLifetime * time.Second).Sub(c.Deps.Clock())
}

// requestImage asks for a view-PIN or card-details token with the form's
// colours and opens the image in the browser, all inside the command: the
// secret link never reaches the model, the screen or a notice.
func (c *Screen) requestImage(kind cardFormKind, fromForm bool) tea.Cmd {
	client := c.Deps.Client
	pinStyle, detStyle := c.viewStyle, c.detailsStyle
	label := "PIN image"
	if kind == formDetails {
		label = "card details image"
	}
	var cmd tea.Cmd
	c.imageBusy = true
	c.imageReqID, cmd = ui.Go(c.Requests, func(ctx context.Context) (imageOpened, error) {
		var tok apiclient.ImageToken
		var err error
		if kind == formViewPIN {
			tok, err = client.PINToken(ctx, &pinStyle)
		} else {
			tok, err = client.CardDetailsToken(ctx, &detStyle)
		}
		if err != nil {
			return imageOpened{kind: kind, fromForm: fromForm}, err
		}
		n := cardOpenInBrowser(label, tok.ImageURL)
		n.Notice.Text = scrubSecret(n.Notice.Text, tok.ImageURL, tok.Token)
		return imageOpened{kind: kind, fromForm: fromForm, ok: n.Notice.Tone == theme.ToneOK, notice: n}, nil
	})
	return cmd
}

// scrubSecret removes a secret link and its token from text.
func scrubSecret(text string, secrets ...string) string {
	for _, s := range secrets {
		if s != "" {
			text = strings.ReplaceAll(text, s, "[hidden]")
		}
	}
	return text
}

// openForm opens one of the card's style forms as a layer, drawn where
// the card's panels go (beside the card, or under it).
func (c *Screen) openForm(kind cardFormKind) tea.Cmd {
	const note = "an empty field uses the default"
	var f *form.Form
	switch kind {
	case formPINStyle:
		f = form.New(c.Deps.Styles, form.Spec{Title: "Set-PIN page style (customCss)", Submit: "save", Note: note,
			Lines: []string{"kept for this session; used by p (set PIN)"}, Fields: pinStyleSpecs(c.pinStyleTyped)})
	case formViewPIN:
		f = form.New(c.Deps.Styles, form.Spec{Title: "View PIN", Submit: "open the PIN image", Note: note,
			Lines: []string{apiclient.PINTokenCall(nil).Line(), "the image opens in the browser; its link is never shown"}, Fields: viewPINSpecs(c.viewStyle)})
	case formDetails:
		f = form.New(c.Deps.Styles, form.Spec{Title: "Card details", Submit: "open the details image", Note: note,
			Lines: []string{apiclient.CardDetailsTokenCall(nil).Line(), "the image opens in the browser; its link is never shown"}, Fields: detailsSpecs(c.detailsStyle)})
	}
	l := &screenkit.FormLayer{Form: f, Requests: c.Requests, Width: c.formWidth, Draw: c.viewWith,
		Submit: func(f *form.Form) (tea.Cmd, bool) { return c.submitForm(kind, f) },
		Answer: func(f *form.Form, msg tea.Msg) (tea.Cmd, bool) { return c.imageAnswered(kind, f, msg) },
	}
	// Every field has a default: the form opens with none chosen, so the
	// next printable key cannot land in a field (tab chooses one).
	return l.Open(f.FocusNothing())
}

// submitForm handles a checked submit of the form of kind; done closes it.
func (c *Screen) submitForm(kind cardFormKind, f *form.Form) (cmd tea.Cmd, done bool) {
	switch kind {
	case formPINStyle:
		c.pinStyleTyped = f.Typed()
		style, errs := pinStyleFromForm(f)
		if len(errs) > 0 {
			return f.SetErrors("", screenkit.FieldErrors(errs)), false
		}
		c.pinStyle = style
		what := "set-PIN page style saved for this session"
		if style.IsZero() {
			what = "set-PIN page style: gateway defaults"
		}
		return ui.Notify(theme.ToneOK, what+"; p requests a link with it"), true
	case formViewPIN:
		s := apiclient.PINImageStyle{BackgroundColor: f.Value("backgroundColor"), TextColor: f.Value("textColor")}
		c.viewStyle = s
		if errs := s.Validate(); len(errs) > 0 {
			return f.SetErrors("", screenkit.FieldErrors(errs)), false
		}
	case formDetails:
		s := apiclient.CardDetailsStyle{
			CardBackgroundColor: f.Value("cardBackgroundColor"), CardTextColor: f.Value("cardTextColor"),
			PanBackgroundColor: f.Value("panBackgroundColor"), PanTextColor: f.Value("panTextColor"),
		}
		c.detailsStyle = s
		if errs := s.Validate(); len(errs) > 0 {
			return f.SetErrors("", screenkit.FieldErrors(errs)), false
		}
	}
	if f.Busy() {
		return nil, false
	}
	f.SetBusy(true)
	return c.requestImage(kind, true), false
}

// imageAnswered is the image request's answer to the form that sent it:
// a 422 goes next to the fields it names and the form stays, with what
// was typed; a failure is said on the form; an image opened closes it.
func (c *Screen) imageAnswered(kind cardFormKind, f *form.Form, msg tea.Msg) (cmd tea.Cmd, done bool) {
	answer, ok := msg.(ui.Result[imageOpened])
	if !ok || answer.ID != c.imageReqID || !answer.Value.fromForm || answer.Value.kind != kind {
		return nil, false
	}
	f.SetBusy(false)
	if answer.Err == nil {
		return nil, true
	}
	var e *apiclient.Error
	if errors.As(answer.Err, &e) && e.Status == 422 {
		return f.SetErrors(sanitize.Text(e.Message)+" (422)", screenkit.FieldErrors(e.Fields)), false
	}
	if !apiclient.IsUnauthorized(answer.Err) {
		f.SetProblem(apiclient.ErrorMessage(answer.Err))
	}
	return nil, false
}

// gotImage handles the outcome of an image request: a 422 goes next to the
// fields it names and the form stays, anything else closes the form.
func (c *Screen) gotImage(msg ui.Result[imageOpened]) tea.Cmd {
	kind := msg.Value.kind
	c.imageBusy = false
	what := "view PIN"
	if kind == formDetails {
		what = "card details"
	}
	if msg.Err != nil {
		if msg.Value.fromForm && apiclient.IsStatus(msg.Err, 422) {
			return nil // said next to the form's fields (imageAnswered)
		}
		return screenkit.Failed(what, msg.Err)
	}
	note := &secretNote{kind: kind, ok: msg.Value.ok, at: c.Deps.Clock()}
	label := "PIN image"
	if kind == formDetails {
		label = "Card details image"
	}
	if msg.Value.ok {
		note.text = label + " opened in the browser. The link is single-use and is never shown here."
	} else {
		// The image link is a secret: no QR code, no copy, not on screen.
		why := msg.Value.notice.Notice.Text
		if _, after, ok := strings.Cut(why, ": "); ok && strings.HasPrefix(why, "could not open ") {
			why = after
		}
		again := map[bool]string{true: "d", false: "v"}[kind == formDetails]
		note.text = label + " not opened: " + why + ". The image cannot be shown in the terminal. " +
			"Its link is secret, so it is not shown or copied; where a browser can open (or with $BROWSER set), press " + again + " for a new one."
	}
	c.secret = note
	n := msg.Value.notice
	return func() tea.Msg { return n }
}

// pinPanelView draws the set-PIN panel in width cells; withQR false leaves
// the QR code out (no room for all of it), linkInside false leaves the
// link to a line of the screen's whole width (see cardWithPanels).
func (c *Screen) pinPanelView(width int, withQR, linkInside bool) string {
	if !c.pin.usedAt.IsZero() {
		return c.usedPanelView(width)
	}
	st := c.Deps.Styles
	p := c.pin
	var b strings.Builder
	b.WriteString(st.Subtitle.Render("Set PIN on the hosted page"))
	switch {
	case p.opening:
		b.WriteString("\n" + st.Muted.Render("opening the browser…"))
	case p.opened:
		b.WriteString("\n" + st.Text(theme.ToneOK).Render("✓ opened in the browser"))
	default:
		// No browser here (SSH, a recording, a headless box): the phone
		// and the clipboard are the ways left, and the panel says so.
		// The QR code is offered only where it is drawn: a terminal too
		// short for it gets the clipboard alone.
		why := strings.TrimPrefix(sanitize.Text(p.openErr), "could not open set-PIN page: ")
		ways := "Copy the link with " + keymap.Key("global.copy") + "."
		if withQR && p.qr != "" && c.pinLeft() > 0 {
			ways = "Scan the QR code with a phone, or copy the link with " + keymap.Key("global.copy") + "."
		}
		b.WriteString("\n" + st.Text(theme.ToneWarn).Render(ansi.Wrap("✗ The browser could not be opened: "+why+". "+ways, width, " ")))
	}
	left := c.pinLeft()
	if left > 0 {
		mins, secs := int(left.Minutes()), int(left.Seconds())%60
		b.WriteString("\n" + st.Label.Render("link valid for ") + st.Value.Render(fmt.Sprintf("%d:%02d", mins, secs)) +
			st.Muted.Render(" · single use"))
	} else {
		b.WriteString("\n" + st.Text(theme.ToneWarn).Render("link expired: press "+c.keys.SetPIN.Help().Key+" for a new one"))
	}
	if linkInside {
		b.WriteString("\n" + linkLine(st, p.url, width))
	} else {
		b.WriteString("\n" + st.Muted.Render("the link is under the card, whole"))
	}
	if p.qr != "" && left > 0 {
		if withQR {
			b.WriteString("\n" + st.Muted.Render("or scan it to continue on a phone:") + "\n" + p.qr)
		} else {
			b.WriteString("\n" + st.Muted.Render("(a taller terminal shows a QR code for a phone)"))
		}
	}
	b.WriteString("\n" + st.Muted.Render("4 digits, not all the same, typed twice"))
	b.WriteString("\n" + st.Muted.Render("s style · y copy link · p new link"))
	return b.String()
}

// secretView draws the note about the last secret image.
func (c *Screen) secretView(width int) string {
	st := c.Deps.Styles
	tone := theme.ToneOK
	if !c.secret.ok {
		tone = theme.ToneWarn
	}
	return st.Text(tone).Width(max(width, 20)).Render(c.secret.text)
}

// CopyValue lets y copy the set-PIN link (the one link allowed on screen);
// secret image links are never available to copy.
func (c *Screen) CopyValue() (label, value string, ok bool) {
	if c.pin == nil || c.pinLeft() <= 0 {
		return "", "", false
	}
	return "set-PIN link", c.pin.url, true
}

// OpenValue offers the live set-PIN link to the global open key, to reopen
// the hosted page after closing its tab.
func (c *Screen) OpenValue() (label, url string, ok bool) {
	if c.pin == nil || c.pinLeft() <= 0 {
		return "", "", false
	}
	return "set-PIN page", c.pin.url, true
}
