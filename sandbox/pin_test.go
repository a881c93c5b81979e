package sandbox

import (
	"bytes"
	"image/png"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

var sessionRe = regexp.MustCompile(`name="session" value="([^"]+)"`)

// openPINPage requests a set-PIN token for tok's user with body and visits
// the hosted page once; it returns the page's form session.
func openPINPage(t *testing.T, e *env, tok string, body any) string {
	t.Helper()
	r := e.do("POST", "/v1/card/set-pin/token", bearer(tok), body)
	want(t, r, 200, "")
	u, err := url.Parse(r.str("hostedPageUrl"))
	if err != nil || u.Path != "/pin-direct/set" || u.Query().Get("token") != r.str("token") {
		t.Fatalf("hostedPageUrl %q, token %q", r.str("hostedPageUrl"), r.str("token"))
	}
	page := e.do("GET", u.RequestURI(), nil, nil)
	want(t, page, 200, "")
	m := sessionRe.FindSubmatch(page.Raw)
	if m == nil {
		t.Fatalf("no form on the page:\n%s", page.Raw)
	}
	return string(m[1])
}

func postPIN(e *env, session, pin, confirm, action string) resp {
	form := url.Values{"session": {session}, "pin": {pin}, "confirm": {confirm}, "action": {action}}
	return e.do("POST", "/pin-direct/set", hdr("Content-Type", "application/x-www-form-urlencoded"), form.Encode())
}

func TestSetPINTokenSingleUseAndExpiry(t *testing.T) {
	e := newEnv(t, Options{})
	tok, _ := e.login("alice@demo.test")
	r := e.do("POST", "/v1/card/set-pin/token", bearer(tok), map[string]any{})
	want(t, r, 200, "")
	page := strings.TrimPrefix(r.str("hostedPageUrl"), e.ts.URL)
	want(t, e.do("GET", page, nil, nil), 200, "")
	second := e.do("GET", page, nil, nil)
	if second.Status != http.StatusGone || !strings.Contains(string(second.Raw), "already been used") {
		t.Fatalf("second visit: %d %s", second.Status, second.Raw)
	}

	// A fresh token visited after 10 minutes is refused.
	r = e.do("POST", "/v1/card/set-pin/token", bearer(tok), nil)
	page = strings.TrimPrefix(r.str("hostedPageUrl"), e.ts.URL)
	e.clock.Advance(10*time.Minute + time.Second)
	late := e.do("GET", page, nil, nil)
	if late.Status != http.StatusGone || !strings.Contains(string(late.Raw), "expired") {
		t.Fatalf("late visit: %d %s", late.Status, late.Raw)
	}
	if r := e.do("GET", "/pin-direct/set?token=nope", nil, nil); r.Status != 404 {
		t.Fatalf("unknown token: %d", r.Status)
	}

	// A page opened in time cannot be posted after the token's lifetime.
	session := openPINPage(t, e, tok, nil)
	e.clock.Advance(9 * time.Minute)
	if r := postPIN(e, session, "12", "12", "set"); r.Status != 422 {
		t.Fatalf("within lifetime a bad PIN shows the form again: %d", r.Status)
	}
	e.clock.Advance(2 * time.Minute)
	if r := postPIN(e, session, "2580", "2580", "set"); r.Status != http.StatusGone {
		t.Fatalf("after lifetime: %d %s", r.Status, r.Raw)
	}
}

func TestSetPINRulesServerSide(t *testing.T) {
	e := newEnv(t, Options{})
	tok, _ := e.login("alice@demo.test")
	session := openPINPage(t, e, tok, map[string]any{"customCss": map[string]any{"backgroundColor": "#102030", "textColor": "#fff", "pinBorderRadius": 12}})
	for _, tc := range []struct{ pin, confirm, want string }{
		{"1111", "1111", "same digit"},
		{"123", "123", "exactly 4 digits"},
		{"12a4", "12a4", "only the digits"},
		{"12345", "12345", "exactly 4 digits"},
		{"1234", "1243", "do not match"},
		{"", "", "exactly 4 digits"},
	} {
		r := postPIN(e, session, tc.pin, tc.confirm, "set")
		if r.Status != 422 || !strings.Contains(string(r.Raw), tc.want) {
			t.Errorf("PIN %q/%q: %d, want 422 %q", tc.pin, tc.confirm, r.Status, tc.want)
		}
		if !strings.Contains(string(r.Raw), "#102030") || !strings.Contains(string(r.Raw), "12px") {
			t.Errorf("the page must keep honouring customCss")
		}
	}
	r := postPIN(e, session, "2580", "2580", "set")
	if r.Status != 200 || !strings.Contains(string(r.Raw), "PIN set") {
		t.Fatalf("good PIN: %d %s", r.Status, r.Raw)
	}
	if strings.Contains(string(r.Raw), "postMessage") {
		t.Fatal("not embedded: no postMessage")
	}
	if r := postPIN(e, session, "2580", "2580", "set"); r.Status != http.StatusGone {
		t.Fatalf("the page is done after success: %d", r.Status)
	}
	// The PIN set is the one the view-PIN image shows.
	s := e.s
	s.mu.Lock()
	got := s.pinStore().pins[uuidFrom("card", "alice@demo.test", "0")]
	s.mu.Unlock()
	if got != "2580" {
		t.Fatalf("stored PIN %q", got)
	}
}

func TestSetPINRedirectAndEmbedded(t *testing.T) {
	e := newEnv(t, Options{})
	tok, _ := e.login("alice@demo.test")
	session := openPINPage(t, e, tok, map[string]any{"redirectUrl": "https://partner.example/done", "isEmbedded": false})
	r := postPIN(e, session, "4826", "4826", "set")
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "https://partner.example/done" {
		t.Fatalf("redirect: %d %v", r.Status, r.Header)
	}
	session = openPINPage(t, e, tok, map[string]any{"redirectUrl": "https://partner.example/done", "isEmbedded": true})
	r = postPIN(e, session, "", "", "cancel")
	if r.Status != 200 || !strings.Contains(string(r.Raw), `window.parent.postMessage({type:"abort"}`) {
		t.Fatalf("embedded cancel: %d %s", r.Status, r.Raw)
	}
}

func TestPINTokenValidationShapes(t *testing.T) {
	e := newEnv(t, Options{})
	tok, _ := e.login("alice@demo.test")
	r := e.do("POST", "/v1/card/pin/token", bearer(tok), map[string]any{"customCss": map[string]any{"backgroundColor": "red", "textColor": 12}})
	want(t, r, 422, "Validation failed")
	errs, _ := r.JSON["errors"].([]any)
	fields := map[string]bool{}
	for _, it := range errs {
		m := it.(map[string]any)
		fields[m["field"].(string)] = m["message"].(string) != ""
	}
	if !fields["customCss.backgroundColor"] || !fields["customCss.textColor"] || len(fields) != 2 {
		t.Fatalf("fields %v in %s", fields, r.Raw)
	}
	r = e.do("POST", "/v1/card/pin/token", bearer(tok), map[string]any{"customCss": map[string]any{"backgroundColor": "#abc", "textColor": "#AABBCC"}})
	want(t, r, 422, "")
	if !strings.Contains(string(r.Raw), `"field":"customCss.textColor"`) {
		t.Fatalf("same colours: %s", r.Raw)
	}
	r = e.do("POST", "/v1/card/details/token", bearer(tok), map[string]any{"customCss": map[string]any{"panTextColor": "#12345"}})
	want(t, r, 422, "")
	if !strings.Contains(string(r.Raw), `"field":"customCss.panTextColor"`) {
		t.Fatalf("details: %s", r.Raw)
	}
	// The interface lists no 422 for set-PIN: bad values fall back to the
	// defaults and the page stays readable.
	session := openPINPage(t, e, tok, map[string]any{"customCss": map[string]any{"textColorPrimary": "#000", "buttonBorderRadius": -1, "backgroundColor": "nope"}})
	page := postPIN(e, session, "1", "1", "set")
	for _, want := range []string{"background:#EFEFEF", "color:#FFFFFF", "border-radius:8px"} {
		if !strings.Contains(string(page.Raw), want) {
			t.Errorf("page lacks %s", want)
		}
	}
}

func TestImagesSingleUseAndColours(t *testing.T) {
	e := newEnv(t, Options{})
	tok, _ := e.login("alice@demo.test")
	for _, tc := range []struct {
		path string
		css  map[string]any
		bg   [3]uint8
	}{
		{"/v1/card/pin/token", map[string]any{"backgroundColor": "#102030", "textColor": "#FFEEDD"}, [3]uint8{0x10, 0x20, 0x30}},
		{"/v1/card/details/token", map[string]any{"cardBackgroundColor": "#334455"}, [3]uint8{0x33, 0x44, 0x55}},
	} {
		r := e.do("POST", tc.path, bearer(tok), map[string]any{"customCss": tc.css})
		want(t, r, 200, "")
		img := strings.TrimPrefix(r.str("imageUrl"), e.ts.URL)
		if !strings.HasPrefix(img, "/details-image?token=") {
			t.Fatalf("imageUrl %q", r.str("imageUrl"))
		}
		first := e.do("GET", img, nil, nil)
		if first.Status != 200 || first.Header.Get("Content-Type") != "image/png" {
			t.Fatalf("%s image: %d %v", tc.path, first.Status, first.Header)
		}
		pic, err := png.Decode(bytes.NewReader(first.Raw))
		if err != nil {
			t.Fatal(err)
		}
		cr, cg, cb, _ := pic.At(1, 1).RGBA()
		if [3]uint8{uint8(cr >> 8), uint8(cg >> 8), uint8(cb >> 8)} != tc.bg {
			t.Fatalf("%s background %x %x %x", tc.path, cr>>8, cg>>8, cb>>8)
		}
		if again := e.do("GET", img, nil, nil); again.Status != http.StatusGone {
			t.Fatalf("second fetch: %d", again.Status)
		}
	}
	// Expiry on the manual clock.
	r := e.do("POST", "/v1/card/pin/token", bearer(tok), nil)
	e.clock.Advance(11 * time.Minute)
	if late := e.do("GET", strings.TrimPrefix(r.str("imageUrl"), e.ts.URL), nil, nil); late.Status != http.StatusGone {
		t.Fatalf("late image: %d", late.Status)
	}
	// A set-PIN token does not open an image, nor the reverse.
	r = e.do("POST", "/v1/card/set-pin/token", bearer(tok), nil)
	if x := e.do("GET", "/details-image?token="+r.str("token"), nil, nil); x.Status != 404 {
		t.Fatalf("set-PIN token on the image: %d", x.Status)
	}
}

func TestPINTokensNeedACardAndVerification(t *testing.T) {
	e := newEnv(t, Options{})
	nora, _ := e.login("nora@demo.test")
	umar, _ := e.login("umar@demo.test")
	for _, p := range []string{"/v1/card/set-pin/token", "/v1/card/pin/token", "/v1/card/details/token"} {
		want(t, e.do("POST", p, bearer(nora), nil), 404, "Card not found")
		want(t, e.do("POST", p, bearer(umar), nil), 403, "Not authorized")
		want(t, e.do("POST", p, ck(), nil), 401, "Not authenticated")
	}
}

func TestCardPANIsLuhnValid(t *testing.T) {
	pan := cardPAN("some-card", "4242")
	if len(pan) != 16 || !strings.HasSuffix(pan, "4242") || !luhnValid([]byte(pan)) {
		t.Fatalf("pan %s", pan)
	}
	if p := (&Server{}).cardPIN("x"); len(p) != 4 || strings.Count(p, p[:1]) == 4 {
		t.Fatalf("seeded pin %q", p)
	}
}
