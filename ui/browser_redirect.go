package ui

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
)

// OpenSecret opens a single-use hosted page (a PIN or card-details image)
// through a one-time loopback address that redirects to it, so the real
// URL never appears in a process argument (ps shows the browser's command
// line). The loopback address works once and closes after ttl.
func OpenSecret(label, target string, ttl time.Duration) tea.Cmd {
	return func() tea.Msg {
		err := CheckLink(target)
		if err == nil {
			var local string
			var closeRedirect func()
			if local, closeRedirect, err = oneTimeRedirect(target, ttl); err == nil {
				if err = openBrowser(local); err != nil {
					closeRedirect() // no browser will come for it
				}
			}
		}
		return openedNotice(label, err)
	}
}

// oneTimeRedirect listens on 127.0.0.1 and answers the first request for a
// random path with a redirect to target, then closes; it also closes after
// ttl, or when closeNow is called. Other paths get 404 and do not use it up.
func oneTimeRedirect(target string, ttl time.Duration) (local string, closeNow func(), err error) {
	if p, err := url.Parse(target); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return "", nil, errScheme
	}
	var secret [16]byte
	if _, err := rand.Read(secret[:]); err != nil {
		return "", nil, err
	}
	path := "/open/" + hex.EncodeToString(secret[:])
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, errors.New("cannot listen on the loopback address")
	}
	srv := &http.Server{ReadHeaderTimeout: 5 * time.Second}
	var once sync.Once
	closeAll := func() { once.Do(func() { go func() { _ = srv.Close() }() }) }
	var mu sync.Mutex
	used := false
	srv.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != path {
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		first := !used
		used = true
		mu.Unlock()
		if !first {
			http.Error(w, "this link was used already", http.StatusGone)
			return
		}
		h := w.Header()
		h.Set("Cache-Control", "no-store")
		h.Set("Referrer-Policy", "no-referrer")
		http.Redirect(w, r, target, http.StatusSeeOther)
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		closeAll()
	})
	time.AfterFunc(ttl, closeAll)
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String() + path, closeAll, nil
}
