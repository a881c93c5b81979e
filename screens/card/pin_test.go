package card

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

// rig is the card screen on a screentest.Rig, with the links it opened.
type rig struct {
	*screentest.Rig
	opened []string
}

func cardRig(t *testing.T, user string) *rig {
	return newRig(t, user, screentest.Of(New))
}

// newRig records the links the screen opens instead of opening them.
func newRig(t *testing.T, user string, build screentest.Build) *rig {
	r := &rig{}
	old := cardOpenInBrowser
	var mu sync.Mutex
	cardOpenInBrowser = func(label, u string) ui.NoticeMsg {
		mu.Lock()
		r.opened = append(r.opened, u)
		mu.Unlock()
		return ui.NoticeMsg{Notice: ui.Notice{Tone: theme.ToneOK, Text: "opened " + label + " in the browser"}}
	}
	t.Cleanup(func() { cardOpenInBrowser = old })
	r.Rig = screentest.NewRig(t, user, build)
	return r
}

func TestCardSetPINOpensLinkWithQRAndCountdown(t *testing.T) {
	r := cardRig(t, "alice@demo.test")
	r.Want("ACTIVE", "4242")
	r.Keys("p")
	if len(r.opened) != 1 || !strings.Contains(r.opened[0], "/pin-direct/set?token=") {
		t.Fatalf("opened %v", r.opened)
	}
	link := r.opened[0]
	v := r.Want("opened in the browser", "link valid for 10:00", "▀")
	if !strings.Contains(strings.ReplaceAll(v, "\n", ""), "/pin-direct/set?to") {
		t.Fatalf("the set-PIN link is shown:\n%s", v)
	}
	r.Now = r.Now.Add(3*time.Minute + 20*time.Second)
	r.Want("link valid for 6:40")
	if label, val, ok := r.Screen.(*Screen).CopyValue(); !ok || val != link || label == "" {
		t.Fatal("y copies the set-PIN link")
	}
	if label, val, ok := r.Screen.(*Screen).OpenValue(); !ok || val != link || label == "" {
		t.Fatal("o reopens the set-PIN page")
	}
	res, err := http.Get(link)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("the page opens: %v", err)
	}
	res.Body.Close()
	r.Now = r.Now.Add(7 * time.Minute)
	v = r.Want("link expired")
	if strings.Contains(v, "▀") {
		t.Fatal("no QR code for an expired link")
	}
	if _, _, ok := r.Screen.(*Screen).OpenValue(); ok {
		t.Fatal("o offers an expired link")
	}
}

func TestCardStyleFormValidatesAndIsUsed(t *testing.T) {
	r := cardRig(t, "alice@demo.test")
	r.Keys("s")
	r.Want("Set-PIN page style", "#EFEFEF", "#000000", "#FFFFFF", "= primary background")
	if !r.Front().CapturesKeys() {
		t.Fatal("the form takes the keys")
	}
	r.Keys("tab")     // no field is chosen when the form opens: tab chooses the first
	r.Type("red")     // background
	r.Keys("tab")     // text
	r.Type("#efefef") // the default background
	r.Keys("tab", "tab", "tab")
	r.Type("big") // button radius: not a number
	r.Keys("ctrl+s")
	v := r.Want("must be a hex colour", "must be a number of pixels", "red", "big")
	if strings.Count(v, "✗") != 2 {
		t.Fatalf("two field errors expected:\n%s", v)
	}
	// Focus is on the first field in error (background): empty it, so the
	// text colour is compared with the default background.
	r.Keys("ctrl+u", "ctrl+s")
	r.Want("must differ from", "backgroundColor (#EFEFEF)", "must be a number of pixels")
	// Focus moved to the text colour: fix it, then the radius.
	r.Keys("ctrl+u")
	r.Type("#FFFFFF")
	r.Keys("tab", "tab", "tab", "ctrl+u")
	r.Type("12")
	r.Keys("shift+tab", "shift+tab", "shift+tab", "shift+tab")
	r.Type("#102030")
	r.Keys("ctrl+s")
	if r.Front().CapturesKeys() {
		t.Fatalf("saved form closes:\n%s", r.View())
	}
	if !strings.Contains(r.Notices(), "style saved") {
		t.Fatal(r.Notices())
	}
	r.Keys("p")
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
	r.Keys("s")
	r.Want("#102030", "12")
	r.Keys("esc")
}

func TestCardViewPINNeverShowsTheImageLink(t *testing.T) {
	r := cardRig(t, "alice@demo.test")
	r.Keys("v") // nothing to choose: one key opens the image
	if len(r.opened) != 1 || !strings.Contains(r.opened[0], "/details-image?token=") {
		t.Fatalf("opened %v", r.opened)
	}
	secret := r.opened[0]
	tok := secret[strings.Index(secret, "token=")+6:]
	v := r.Want("PIN image opened in the browser")
	for _, s := range []string{v, r.Notices(), strings.ReplaceAll(v, "\n", "")} {
		if strings.Contains(s, tok) || strings.Contains(s, "details-image") {
			t.Fatalf("the image link leaked:\n%s", s)
		}
	}
	r.Keys("d")
	r.Want("Card details image opened")
	if len(r.opened) != 2 || strings.Contains(r.View(), "details-image") {
		t.Fatal("details")
	}
}

func TestCardViewPIN422NextToField(t *testing.T) {
	r := cardRig(t, "alice@demo.test")
	r.Keys("V", "tab") // the PIN image's colours, then the first field
	r.Fill("#abc", "#AABBCC")
	r.Keys("ctrl+s")
	v := r.Want("Validation failed (422)", "Must differ from backgroundColor", "#abc", "#AABBCC")
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
	r.Keys("ctrl+u")
	r.Type("nope")
	r.Keys("ctrl+s")
	r.Want("must be a hex colour")
}

func TestCardOrderReplacesBlockedCard(t *testing.T) {
	r := cardRig(t, "bruno@demo.test")
	r.Want("BLOCKED", "order a new card (n)")
	r.Keys("n")
	if d := r.Dialog(); d.Request[0] != "POST /v1/card/order" {
		t.Fatalf("the confirmation shows %q", d.Request)
	}
	r.Drive(nil, r.Dialog().OnConfirm)
	v := r.Want("ACTIVE")
	if strings.Contains(v, "BLOCKED") {
		t.Fatalf("still blocked:\n%s", v)
	}
}

func TestCardPINKeysRefusedReadOnly(t *testing.T) {
	r := newRig(t, "alice@demo.test", func(d screenkit.Deps) ui.Screen { d.ReadOnly = true; return New(d) })
	for _, k := range []string{"p", "v", "d", "s"} {
		r.Keys(k)
	}
	if len(r.opened) != 0 || r.Front().CapturesKeys() {
		t.Fatal("read-only must refuse PIN keys")
	}
	// The keys are disabled bindings: the help does not offer them, and the
	// root answers them with "read-only mode: … is disabled". g stays:
	// the guard rules only notify in read-only mode and their file is the
	// holder's own, not the gateway's.
	for _, group := range r.Front().KeyMap().FullHelp() {
		for _, b := range group {
			if b.Enabled() && b.Help().Key != "r" && b.Help().Key != "g" {
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

// noBrowserRig is the card screen where no browser can be opened: $BROWSER
// names a command that does not exist or one that fails, and the real
// opener runs.
func noBrowserRig(t *testing.T, browser string) *screentest.Rig {
	t.Setenv("BROWSER", browser)
	return screentest.NewRig(t, "alice@demo.test", screentest.Of(New))
}

// noBrowsers are the $BROWSER values that open nothing, and what the
// screen says of each.
var noBrowsers = map[string]string{
	"/nonexistent/nobrowser": "the browser command /nonexistent/nobrowser was not found",
	"/bin/false":             "the browser command /bin/false exited with status 1",
}

// prose is a view's words on one line: sentences wrapped in a panel read
// whole (the panel is under the card below 90 columns, so nothing
// interleaves).
func prose(v string) string { return strings.Join(strings.Fields(v), " ") }

// Without a browser the set-PIN panel says so and offers the phone and the
// clipboard: the QR code, the link on one line (and as OSC 8), y.
func TestCardSetPINWithoutBrowserOffersQRAndCopy(t *testing.T) {
	for browser, why := range noBrowsers {
		t.Run(browser, func(t *testing.T) { testSetPINWithoutBrowser(t, browser, why) })
	}
}

func testSetPINWithoutBrowser(t *testing.T, browser, why string) {
	r := noBrowserRig(t, browser)
	r.Want("ACTIVE")
	r.Keys("p")
	r.W, r.H = 89, 80
	v := r.Want("▀")
	screentest.MustShow(t, prose(v), "The browser could not be opened: "+why+". "+
		"Scan the QR code with a phone, or copy the link with y.")
	screentest.MustNotShow(t, v, "opened in the browser")
	_, link, ok := r.Screen.(*Screen).CopyValue()
	if !ok || !strings.Contains(link, "/pin-direct/set?token=") {
		t.Fatalf("y copies %q", link)
	}
	if !strings.Contains(r.Screen.View(), "\x1b]8;;"+link) {
		t.Fatal("the link is not an OSC 8 hyperlink carrying it whole")
	}
	// The link is drawn whole on one line of its own, beside the card too
	// (under it, the width of the screen), and never broken inside.
	for _, w := range []int{89, 240} {
		r.W = w
		v = r.View()
		lines := 0
		for l := range strings.SplitSeq(v, "\n") {
			if strings.Contains(l, "/pin-direct/") {
				lines++
				if strings.TrimSpace(l) != link {
					t.Fatalf("at %d columns the link line is %q, want %q", w, l, link)
				}
			}
		}
		if lines != 1 {
			t.Fatalf("at %d columns the link is on %d lines:\n%s", w, lines, v)
		}
	}
}

// The view-PIN and card-details image links are secrets: without a browser
// the screen says the image cannot be shown here, and offers no link.
func TestCardImageWithoutBrowserShowsNoLink(t *testing.T) {
	for browser, why := range noBrowsers {
		for _, key := range []string{"v", "d"} {
			t.Run(browser+"/"+key, func(t *testing.T) { testImageWithoutBrowser(t, browser, why, key) })
		}
	}
}

func testImageWithoutBrowser(t *testing.T, browser, why, key string) {
	r := noBrowserRig(t, browser)
	r.Want("ACTIVE")
	r.Keys(key, "ctrl+s")
	r.W = 89
	v := r.View()
	screentest.MustShow(t, prose(v), "not opened: "+why+". "+
		"The image cannot be shown in the terminal", "press "+key+" for a new one")
	screentest.MustNotShow(t, v, "http", "token", "▀")
	if _, _, ok := r.Screen.(*Screen).CopyValue(); ok {
		t.Fatal("y offers a secret image link")
	}
	if strings.Contains(r.Notices(), "http") {
		t.Fatalf("a notice shows the link: %s", r.Notices())
	}
}

// A terminal too short for the QR code is not told to scan one: the panel
// offers the clipboard alone, and says a taller terminal shows the code.
func TestCardSetPINWithoutBrowserTooShortForQROffersCopyOnly(t *testing.T) {
	r := noBrowserRig(t, "/nonexistent/nobrowser")
	r.Want("ACTIVE")
	r.W, r.H = 80, 22
	r.Keys("p")
	v := r.Want("Copy the link with y.")
	screentest.MustNotShow(t, v, "Scan the QR code", "▀")
	screentest.MustShow(t, v, "a taller terminal shows a QR code")
}

// A key that opens a form never leaves the next printable key to land in
// a field: d opens the details image at once and v then the PIN image;
// D opens the colours form with no field chosen, so a v typed next
// changes nothing, and enter opens the image with the colours shown.
func TestCardKeysDoOneThing(t *testing.T) {
	r := cardRig(t, "alice@demo.test")
	r.Keys("d", "v")
	if len(r.opened) != 2 || r.Front().CapturesKeys() {
		t.Fatalf("d then v: %d images opened, a form open: %v\n%s", len(r.opened), r.Front().CapturesKeys(), r.View())
	}
	r.Keys("D")
	r.Want("Card details", "POST /v1/card/details/token")
	if enter := r.Front().KeyMap().ShortHelp()[0].Help(); enter.Key != "enter" || enter.Desc != "open the details image" {
		t.Fatalf("the colours form offers %q %q first, want enter open the details image", enter.Key, enter.Desc)
	}
	r.Keys("v", "1")
	top, _ := r.TopLayer()
	if open, ok := top.(*screenkit.FormLayer); !ok || open.Form.Value("cardBackgroundColor") != "" || open.Form.Focused() != "" {
		t.Fatalf("v after D landed in a field:\n%s", r.View())
	}
	r.Keys("enter")
	if len(r.opened) != 3 || r.Front().CapturesKeys() {
		t.Fatalf("enter on the colours form: %d opened\n%s", len(r.opened), r.View())
	}
}

// v after p at 80x24 (the screen gets 66x22 of it): the PIN image's
// outcome is the newest, so it comes first; under the set-PIN panel it
// fell off the bottom of the screen.
func TestCardImageOutcomeAfterSetPINShowsAtEightyByTwentyFour(t *testing.T) {
	r := noBrowserRig(t, "/nonexistent/nobrowser")
	r.Want("ACTIVE")
	r.W, r.H = 66, 22
	r.Keys("p")
	r.Want("Copy the link with y.")
	r.Now = r.Now.Add(time.Second)
	r.Keys("v")
	screentest.MustShow(t, prose(r.View()), "PIN image not opened")
}
