package sandbox

import (
	"bytes"
	"html/template"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// The hosted OAuth sign-in page. Every value is escaped by html/template.
// It is parsed on the first page served, not at start-up: the app's first
// frame does not wait for it.
var pageTmpl = lazy[*template.Template]{build: func() *template.Template {
	return template.Must(template.New("page").Parse(pageTmplSource))
}}

const pageTmplSource = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} · Card Gateway sandbox</title>
<style>
body{font-family:system-ui,sans-serif;background:#f4f5f7;color:#111;margin:0;padding:2rem}
main{max-width:28rem;margin:auto;background:#fff;border-radius:8px;padding:1.5rem;box-shadow:0 1px 4px #0002}
label{display:block;margin:.8rem 0 .2rem}input[type=text],input[type=password]{width:100%;padding:.5rem;box-sizing:border-box}
button{margin-top:1rem;padding:.6rem 1.2rem}.err{color:#b00020}.code{font:700 2.4rem monospace;letter-spacing:.15em;text-align:center;padding:1rem;background:#eef}
small,li{color:#555}
</style></head><body><main>
<h1>{{.Title}}</h1>
{{if .Error}}<p class="err" role="alert">{{.Error}}</p>{{end}}
{{if .Code}}
<p>Type this code into cardterm to finish signing in:</p>
<p class="code" id="code">{{.Code}}</p>
<p><small>The code works once and expires in 10 minutes.</small></p>
{{else if .Session}}
<p>Sign in to <b>{{.Tenant}}</b> ({{.Env}}, {{.Region}}) to authorize cardterm.</p>
<form method="post" action="/oauth/sign-in">
<input type="hidden" name="session" value="{{.Session}}">
<label for="u">Username</label><input type="text" id="u" name="username" value="{{.Username}}" autocomplete="username" autofocus>
<label for="p">Password</label><input type="password" id="p" name="password" autocomplete="current-password">
{{if .Loopback}}<label><input type="checkbox" name="device" value="phone"{{if .Phone}} checked{{end}}> I'm on another device (show me a code to type into cardterm)</label>{{else}}<input type="hidden" name="device" value="phone">{{end}}
<button type="submit">Sign in</button>
</form>
{{if .Hints}}<h2>Demo accounts</h2><p><small>All passwords are <code>{{.Password}}</code>.</small></p>
<ul>{{range .Hints}}<li><code>{{.Username}}</code> – {{.Summary}}</li>{{end}}</ul>{{end}}
{{end}}
</main></body></html>
`

// pageData feeds pageTmpl.
type pageData struct {
	Title, Error, Code           string
	Session, Tenant, Env, Region string
	Username, Password           string
	Loopback, Phone              bool
	Hints                        []DemoUser
}

// renderPage answers an HTML page.
func renderPage(w http.ResponseWriter, status int, d pageData) {
	var b bytes.Buffer
	if err := pageTmpl.get().Execute(&b, d); err != nil {
		http.Error(w, "template error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'")
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
}

// isLoopback reports whether a redirect URI points at this machine (RFC 8252
// loopback redirect: 127.0.0.1, [::1] or localhost, any port).
func isLoopback(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && u.Scheme == "http" && loopbackHost(u)
}

// loopbackHost reports whether u's host is a loopback name or address
// (localhost, 127.0.0.0/8, ::1).
func loopbackHost(u *url.URL) bool {
	h := u.Hostname()
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// liveSession returns the usable sign-in session id. Caller holds s.mu.
func (s *Server) liveSession(id string) *oauthSession {
	ses := s.sessions[id]
	if ses == nil {
		return nil
	}
	if ses.used || !s.now().Before(ses.expires) {
		delete(s.sessions, id)
		return nil
	}
	return ses
}

// formData builds the sign-in form for a session. Caller holds s.mu.
func (s *Server) formData(id string, ses *oauthSession, phone bool) pageData {
	d := pageData{
		Title: "Sign in", Session: id, Tenant: ses.be.key.Tenant, Env: ses.be.key.Env, Region: strings.ToUpper(ses.be.key.Region),
		Password: demoPassword, Loopback: isLoopback(ses.redirectURI), Phone: phone,
	}
	for _, u := range ses.be.order {
		if d.Username == "" {
			d.Username = u.Username
		}
		d.Hints = append(d.Hints, DemoUser{Username: u.Username, Summary: seedSummary(u.Username)})
	}
	return d
}

// seedSummary is the seed table's summary of a username.
func seedSummary(username string) string {
	for _, su := range seedUsers.get() {
		if su.username == username {
			return su.summary
		}
	}
	return ""
}

// lockLiveSession takes the lock and returns the live sign-in session id
// names, the lock held; with none it answers the expired-link page and
// returns nil, the lock released.
func (s *Server) lockLiveSession(w http.ResponseWriter, id string) *oauthSession {
	s.mu.Lock()
	ses := s.liveSession(id)
	if ses == nil {
		s.mu.Unlock()
		renderPage(w, http.StatusBadRequest, expiredPage)
	}
	return ses
}

var expiredPage = pageData{Title: "Link expired", Error: "This sign-in link has expired or was already used. Start the sign-in again from cardterm."}

// signInPage: GET /oauth/sign-in?session=<id>[&device=phone].
func (s *Server) signInPage(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("session")
	ses := s.lockLiveSession(w, id)
	if ses == nil {
		return
	}
	d := s.formData(id, ses, r.URL.Query().Get("device") == "phone")
	s.mu.Unlock()
	renderPage(w, http.StatusOK, d)
}

// signInSubmit: POST /oauth/sign-in. Bad credentials show the form again;
// success redirects to a loopback redirect_uri with code and state, or shows
// the code to type in (another device, or a non-loopback redirect).
func (s *Server) signInSubmit(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		renderPage(w, http.StatusBadRequest, pageData{Title: "Sign in", Error: "The form could not be read."})
		return
	}
	id := r.PostForm.Get("session")
	phone := r.PostForm.Get("device") == "phone"
	username := strings.ToLower(strings.TrimSpace(r.PostForm.Get("username")))
	ses := s.lockLiveSession(w, id)
	if ses == nil {
		return
	}
	u := ses.be.byName[username]
	if u == nil || !secretEqual(r.PostForm.Get("password"), u.Password) {
		d := s.formData(id, ses, phone)
		d.Username, d.Error = r.PostForm.Get("username"), "Invalid username or password."
		s.mu.Unlock()
		renderPage(w, http.StatusOK, d)
		return
	}
	ses.used = true
	display, key := newCode()
	s.codes[key] = &authCode{
		be: ses.be, userID: u.ID, clientKey: ses.clientKey, redirectURI: ses.redirectURI,
		challenge: ses.challenge, expires: s.now().Add(codeTTL),
	}
	redirect, state := ses.redirectURI, ses.state
	s.mu.Unlock()

	if !phone && isLoopback(redirect) {
		ru, _ := url.Parse(redirect)
		q := ru.Query()
		q.Set("code", display)
		if state != "" {
			q.Set("state", state)
		}
		ru.RawQuery = q.Encode()
		http.Redirect(w, r, ru.String(), http.StatusFound)
		return
	}
	renderPage(w, http.StatusOK, pageData{Title: "Your sign-in code", Code: display})
}
