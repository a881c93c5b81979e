package screenkit

import (
	"errors"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"cardterm/apiclient"
	"cardterm/domain/lazy"
)

// CallbackPath is the path of the loopback redirect URI
// (http://127.0.0.1:PORT/callback, RFC 8252 section 7.3).
const CallbackPath = "/callback"

// Errors a loopback callback can end with.
var (
	// ErrStateMismatch is a callback whose state is not the sign-in's.
	ErrStateMismatch = errors.New("state mismatch")
	// ErrLoopbackGone is the wait's answer once the listener is closed.
	ErrLoopbackGone = errors.New("loopback listener closed")
)

// CallbackResult is what the browser brought back to the loopback listener.
type CallbackResult struct {
	Code string
	Err  error
	// Desc is the gateway's error description (error=... in the redirect).
	Desc string
	// Stray marks a request that was refused and ignored (a wrong state):
	// the sign-in goes on waiting for the real answer.
	Stray bool
}

// Loopback is the one-shot redirect listener of an OAuth sign-in: it takes
// exactly one answer, checks its state, and is closed afterwards.
type Loopback struct {
	state       string
	redirectURI string
	ln          net.Listener
	srv         *http.Server
	results     chan CallbackResult
	strays      chan CallbackResult
	done        chan struct{}
	deliver     sync.Once
	closeOnce   sync.Once
}

// StartLoopback listens on 127.0.0.1 on a free port. The literal IP, not
// "localhost", so that the redirect cannot resolve to another interface.
func StartLoopback(state string) (*Loopback, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("cannot listen on the loopback address: %w", err)
	}
	l := &Loopback{
		state:       state,
		redirectURI: "http://" + ln.Addr().String() + CallbackPath,
		ln:          ln,
		results:     make(chan CallbackResult, 1),
		strays:      make(chan CallbackResult, 8),
		done:        make(chan struct{}),
	}
	l.srv = &http.Server{Handler: l, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = l.srv.Serve(ln) }()
	return l, nil
}

// RedirectURI is the address the gateway sends the browser back to.
func (l *Loopback) RedirectURI() string { return l.redirectURI }

// Close stops the listener; safe to call more than once.
func (l *Loopback) Close() {
	l.closeOnce.Do(func() {
		close(l.done)
		// The listener itself too: Serve may not have started yet, and
		// then srv.Close would not know of it.
		_ = l.ln.Close()
		_ = l.srv.Close()
	})
}

// Closed reports whether the listener is closed, asking the listener
// itself (a dial could reach whatever socket the kernel gave the freed
// port to next); it waits up to wait for a close still under way.
func (l *Loopback) Closed(wait time.Duration) bool {
	select {
	case <-l.done:
	case <-time.After(wait):
		return false
	}
	if tl, ok := l.ln.(*net.TCPListener); ok {
		_ = tl.SetDeadline(time.Now().Add(200 * time.Millisecond))
	}
	_, err := l.ln.Accept()
	return errors.Is(err, net.ErrClosed)
}

// Wait blocks until the browser answered, a stray request was refused
// (reported so the screen can say so, then waited past), or the listener
// was closed.
func (l *Loopback) Wait() CallbackResult {
	select {
	case r := <-l.results:
		return r
	case r := <-l.strays:
		return r
	case <-l.done:
		select {
		case r := <-l.results:
			return r
		default:
			return CallbackResult{Err: ErrLoopbackGone}
		}
	}
}

// callbackPage is parsed at first use, not before main on every start.
var callbackPage = lazy.Value[*template.Template]{New: func() *template.Template {
	return template.Must(template.New("cb").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>cardterm</title>
<style>body{font-family:system-ui,sans-serif;margin:3rem auto;max-width:30rem;color:#111}</style></head>
<body><h1>{{.Title}}</h1><p>{{.Text}}</p></body></html>
`))
}}

// ServeHTTP answers the browser's redirect. The first answer with the right
// state is the only one taken. A request with a wrong state is refused and
// ignored: any local process could send one, and it must not end the
// sign-in the user is completing in the browser.
func (l *Loopback) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !LocalPageRequest(w, r, CallbackPath) {
		return
	}
	q := r.URL.Query()
	var res CallbackResult
	status, title, text := http.StatusOK, "Signed in to cardterm", "You can close this tab and return to cardterm."
	switch {
	case !apiclient.StateMatches(l.state, q.Get("state")):
		l.refuseStray(w)
		return
	case q.Get("error") != "":
		res.Err = errors.New(q.Get("error"))
		res.Desc = q.Get("error_description")
		status, title, text = http.StatusBadRequest, "Sign-in not completed",
			"The gateway ended the sign-in ("+q.Get("error")+"). Return to cardterm to try again."
	case strings.TrimSpace(q.Get("code")) == "":
		res.Err = errors.New("no code")
		status, title, text = http.StatusBadRequest, "Sign-in not completed",
			"The answer carried no authorization code. Return to cardterm to try again."
	default:
		res.Code = q.Get("code")
	}
	taken := false
	l.deliver.Do(func() { taken = true })
	if !taken {
		status, title, text = http.StatusConflict, "Already answered",
			"This sign-in was already answered; return to cardterm."
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer") // the code is in this page's URL
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	w.WriteHeader(status)
	_ = callbackPage.Get().Execute(w, struct{ Title, Text string }{title, text})
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	if taken {
		l.results <- res // buffered: never blocks
	}
}

// refuseStray answers a request whose state is not this sign-in's and
// reports it without ending the wait.
func (l *Loopback) refuseStray(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	w.WriteHeader(http.StatusBadRequest)
	_ = callbackPage.Get().Execute(w, struct{ Title, Text string }{"Sign-in refused",
		"This answer does not belong to the sign-in cardterm started (state mismatch), so it was ignored. cardterm is still waiting for the sign-in it started."})
	select {
	case l.strays <- CallbackResult{Err: ErrStateMismatch, Stray: true}:
	default: // a flood of strays: reporting some of them is enough
	}
}

// LocalPageRequest reports whether r is a GET of path, the one page a
// loopback listener of the app serves (the sign-in callback, the set-PIN
// return); anything else is answered here: 404 for another path, 405
// for another method.
func LocalPageRequest(w http.ResponseWriter, r *http.Request, path string) bool {
	if r.URL.Path != path {
		http.NotFound(w, r)
		return false
	}
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", http.MethodGet)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return false
	}
	return true
}
