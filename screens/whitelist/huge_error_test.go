package whitelist

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/ui/uitest"
)

// hostileWhitelist is a transport that sends every request to the sandbox
// except the whitelist's, which goes to a gateway answering 500 with a
// message of size bytes, written as it is sent (the server holds none of
// it). Both are real HTTP servers.
func hostileWhitelist(t *testing.T, size int) *http.Client {
	hostile := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, `{"message":"the disk is full `)
		chunk := bytes.Repeat([]byte("x"), 64<<10)
		for left := size; left > 0; left -= len(chunk) {
			if _, err := w.Write(chunk[:min(left, len(chunk))]); err != nil {
				return
			}
		}
		_, _ = io.WriteString(w, `"}`)
	}))
	t.Cleanup(hostile.Close)
	to, _ := url.Parse(hostile.URL)
	return &http.Client{Transport: reroute{to: to, whitelist: http.DefaultTransport}}
}

type reroute struct {
	to        *url.URL
	whitelist http.RoundTripper
}

func (r reroute) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Path == "/v1/wallet/whitelist" {
		req = req.Clone(req.Context())
		req.URL.Host = r.to.Host
	}
	return r.whitelist.RoundTrip(req)
}

// peakHeap runs fn while sampling the bytes of heap objects (live and not
// yet collected) every millisecond; it returns the most seen.
func peakHeap(fn func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	stop, done := make(chan struct{}), make(chan uint64)
	go func() {
		most := read()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				done <- max(most, read())
				return
			case <-tick.C:
				most = max(most, read())
			}
		}
	}()
	fn()
	close(stop)
	return <-done
}

// A 500 whose message is 50 MB: the whitelist screen draws its failure
// within a second, the message cut with "…" on the status bar, the heap
// never near the 50 MB, and i opens the answer's head in the inspector.
func TestWhitelistErrorWithA50MBMessage(t *testing.T) {
	a := newWhitelistApp(t, "alice@demo.test", screentest.WithConfig(func(c *apiclient.Config) {
		c.HTTPClient = hostileWhitelist(t, 50<<20)
	}))
	var took time.Duration
	var screen string
	peak := peakHeap(func() {
		start := time.Now()
		a.Open(screenkit.WhitelistScreen)
		screen = a.Screen()
		took = time.Since(start)
	})
	t.Logf("50 MB error message: the whitelist screen drawn in %v; heap peak %.1f MiB", took.Round(time.Millisecond), float64(peak)/(1<<20))
	screentest.MustShow(t, screen, "Could not load the whitelist: the disk is full xxx", "…", "· i shows the")
	if took > time.Second {
		t.Fatalf("the screen took %v", took)
	}
	if peak > 120<<20 {
		t.Fatalf("the heap peaked at %.1f MiB", float64(peak)/(1<<20))
	}
	// A frame with that error costs what any frame costs.
	start := time.Now()
	for range 100 {
		_ = a.Root.View()
	}
	if per := time.Since(start) / 100; per > 20*time.Millisecond {
		t.Fatalf("a frame takes %v", per)
	}
	a.Keys("i")
	screen = a.Screen()
	screentest.MustShow(t, screen, "the gateway's answer, its first 64 KiB", `{"message":"the disk is full xxx`, "lines 1–")
	if strings.Contains(screen, "i shows the") {
		t.Fatal("the notice stayed over the inspector")
	}
	a.Keys("esc")
	screentest.MustNotShow(t, uitest.Plain(a.Root.View()), "the gateway's answer")
}
