package sandbox

import (
	"html/template"
	"net/http"
	"strconv"
)

// pinPageTmpl is the hosted set-PIN page. Colours and radii come from the
// token's validated customCss; html/template escapes everything else.
// It is parsed on the first page served, not at start-up: the app's first
// frame does not wait for it.
var pinPageTmpl = lazy[*template.Template]{build: func() *template.Template {
	return template.Must(template.New("pin").Parse(pinPageTmplSource))
}}

const pinPageTmplSource = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body{margin:0;font-family:system-ui,sans-serif;background:{{.CSS.BackgroundColor}};color:{{.CSS.TextColor}};display:flex;justify-content:center}
main{max-width:22rem;padding:2rem 1rem}
h1{font-size:1.3rem}
label{display:block;margin:1rem 0 .3rem}
input{font-size:1.6rem;letter-spacing:.6rem;width:8rem;text-align:center;padding:.4rem;background:{{.CSS.BackgroundColorPrimary}};color:{{.CSS.TextColorPrimary}};border:2px solid {{.CSS.PinBorderColor}};border-radius:{{.PinRadius}}}
button{margin-top:1.2rem;margin-right:.6rem;font-size:1rem;padding:.6rem 1.2rem;background:{{.CSS.BackgroundColorPrimary}};color:{{.CSS.TextColorPrimary}};border:0;border-radius:{{.ButtonRadius}}}
.error{font-weight:bold;border-left:4px solid;padding-left:.6rem}
.rules{font-size:.9rem;opacity:.8}
</style></head>
<body><main>
<h1>{{.Title}}</h1>
{{if .Message}}<p class="error" role="alert">{{.Message}}</p>{{end}}
{{if .Form}}
<p class="rules">Choose a PIN of exactly 4 digits (0-9), not all the same digit, and type it twice.</p>
<form method="post" action="/pin-direct/set" autocomplete="off">
<input type="hidden" name="session" value="{{.Session}}">
<label for="pin">New PIN</label>
<input id="pin" name="pin" type="password" inputmode="numeric" maxlength="4" pattern="[0-9]{4}" required autofocus>
<label for="confirm">Confirm PIN</label>
<input id="confirm" name="confirm" type="password" inputmode="numeric" maxlength="4" pattern="[0-9]{4}" required>
<div><button type="submit" name="action" value="set">Set PIN</button><button type="submit" name="action" value="cancel" formnovalidate>Cancel</button></div>
</form>
{{end}}
{{if .Info}}<p>{{.Info}}</p>{{end}}
{{if .PostAbort}}<script>window.parent.postMessage({type:"abort"}, "*");</script>{{end}}
</main></body></html>
`

// pinPageData fills pinPageTmpl.
type pinPageData struct {
	Title, Message, Info string
	Form                 bool
	Session              string
	PostAbort            bool
	CSS                  setPINCSS
	PinRadius            string
	ButtonRadius         string
}

// defaultPINCSS is the page style when no token says otherwise (error pages).
var defaultPINCSS = setPINCSS{
	BackgroundColor: "#EFEFEF", TextColor: "#000000", BackgroundColorPrimary: "#000000",
	TextColorPrimary: "#FFFFFF", ButtonBorderRadius: 8, PinBorderRadius: 4, PinBorderColor: "#000000",
}

func renderPINPage(w http.ResponseWriter, status int, d pinPageData) {
	if d.CSS == (setPINCSS{}) {
		d.CSS = defaultPINCSS
	}
	d.PinRadius = px(d.CSS.PinBorderRadius)
	d.ButtonRadius = px(d.CSS.ButtonBorderRadius)
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	// The token is in the URL: keep it out of caches and referrers.
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; base-uri 'none'")
	w.WriteHeader(status)
	_ = pinPageTmpl.get().Execute(w, d)
}

// px formats a validated radius for CSS.
func px(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64) + "px"
}

// pinPageGet: GET /pin-direct/set?token=. The first visit consumes the
// token and opens a form session; any later visit is refused.
func (s *Server) pinPageGet(w http.ResponseWriter, r *http.Request) {
	t, status, msg := s.takeToken(r.URL.Query().Get("token"), tokSetPIN)
	if t == nil {
		renderPINPage(w, status, pinPageData{Title: "Set your card PIN", Message: msg})
		return
	}
	id := randomToken()
	s.mu.Lock()
	s.pinStore().pages[id] = &pinPage{tok: t}
	s.mu.Unlock()
	renderPINPage(w, http.StatusOK, pinPageData{Title: "Set your card PIN", Form: true, Session: id, CSS: t.css})
}

// checkPIN applies the PIN rules server-side: exactly 4 digits 0-9, not all
// the same digit, and the confirmation equal.
func checkPIN(pin, confirm string) string {
	if len(pin) != 4 {
		return "The PIN must be exactly 4 digits."
	}
	for i := 0; i < len(pin); i++ {
		if pin[i] < '0' || pin[i] > '9' {
			return "The PIN must contain only the digits 0-9."
		}
	}
	if pin[0] == pin[1] && pin[1] == pin[2] && pin[2] == pin[3] {
		return "The PIN must not be the same digit four times."
	}
	if confirm != pin {
		return "The two PINs do not match."
	}
	return ""
}

// pinPagePost: POST /pin-direct/set (session, pin, confirm, action). A PIN
// that breaks the rules shows the form again with the reason (422); a good
// PIN or a cancel ends the page: redirect to redirectUrl, or in embedded
// mode post {type:"abort"} to the parent window.
func (s *Server) pinPagePost(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	if err := r.ParseForm(); err != nil {
		renderPINPage(w, http.StatusBadRequest, pinPageData{Title: "Set your card PIN", Message: "The form could not be read."})
		return
	}
	id := r.PostForm.Get("session")
	s.mu.Lock()
	st := s.pinStore()
	p := st.pages[id]
	if p != nil && p.tok.expired(s.now()) {
		delete(st.pages, id)
		p = nil
	}
	s.mu.Unlock()
	if p == nil {
		renderPINPage(w, http.StatusGone, pinPageData{Title: "Set your card PIN",
			Message: "This page is no longer valid. Ask the app for a new link."})
		return
	}
	t := p.tok
	if r.PostForm.Get("action") == "cancel" {
		s.mu.Lock()
		delete(st.pages, id)
		s.mu.Unlock()
		s.finishPINPage(w, r, t, "PIN not changed", "You cancelled; your PIN is unchanged.")
		return
	}
	if problem := checkPIN(r.PostForm.Get("pin"), r.PostForm.Get("confirm")); problem != "" {
		renderPINPage(w, http.StatusUnprocessableEntity, pinPageData{Title: "Set your card PIN", Message: problem,
			Form: true, Session: id, CSS: t.css})
		return
	}
	s.mu.Lock()
	delete(st.pages, id)
	// The card may have been replaced meanwhile: set the PIN of the card
	// the token was issued for, only if it is still the user's card.
	ok := false
	if u := t.be.users[t.userID]; u != nil && u.Card != nil && u.Card.ID == t.cardID {
		st.pins[t.cardID] = r.PostForm.Get("pin")
		s.keepPINLocked(t.cardID, st.pins[t.cardID])
		ok = true
	}
	s.mu.Unlock()
	if !ok {
		renderPINPage(w, http.StatusConflict, pinPageData{Title: "Set your card PIN", CSS: t.css,
			Message: "The card this link was issued for is no longer yours; nothing was changed."})
		return
	}
	s.finishPINPage(w, r, t, "PIN set", "Your new PIN is active. You can close this page.")
}

// finishPINPage ends the flow the way the token asked.
func (s *Server) finishPINPage(w http.ResponseWriter, r *http.Request, t *pinToken, title, info string) {
	switch {
	case t.embedded:
		renderPINPage(w, http.StatusOK, pinPageData{Title: title, Info: info, PostAbort: true, CSS: t.css})
	case t.redirectURL != "":
		http.Redirect(w, r, t.redirectURL, http.StatusSeeOther)
	default:
		renderPINPage(w, http.StatusOK, pinPageData{Title: title, Info: info, CSS: t.css})
	}
}
