package webhookreceiver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// forwardTimeout bounds one forwarded delivery.
const forwardTimeout = 10 * time.Second

// ForwardResult is what the partner's server answered a forwarded delivery.
type ForwardResult struct {
	URL      string
	Status   int           // the server's HTTP status; 0 when none came
	Duration time.Duration // from sending to the answer's headers
	Error    string        // why no status came
}

// hopHeaders are the connection-level headers a forward must not copy
// (RFC 9110, section 7.6.1); every other header goes through unchanged.
var hopHeaders = []string{"Connection", "Keep-Alive", "Proxy-Connection", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

// forwarder re-posts verified deliveries to the partner's server.
type forwarder struct {
	target string
	client *http.Client
}

func newForwarder(target string, client *http.Client) (*forwarder, error) {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("webhookreceiver: forward-to %q is not an http(s) URL", target)
	}
	if client == nil {
		// No compression: the transport would otherwise add an
		// Accept-Encoding header the sender did not send.
		transport := http.DefaultTransport.(*http.Transport).Clone()
		transport.DisableCompression = true
		client = &http.Client{
			Transport:     transport,
			Timeout:       forwardTimeout,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	}
	return &forwarder{target: target, client: client}, nil
}

// send posts body with header to the target and reports the answer.
func (f *forwarder) send(ctx context.Context, header http.Header, body []byte) ForwardResult {
	res := ForwardResult{URL: f.target}
	// The sender may hang up once answered; the forward still completes.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), forwardTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.target, bytes.NewReader(body))
	if err != nil {
		res.Error = err.Error()
		return res
	}
	req.Header = header.Clone()
	for _, h := range hopHeaders {
		req.Header.Del(h)
	}
	if _, ok := header["User-Agent"]; !ok {
		req.Header["User-Agent"] = []string{""} // send none rather than Go's default
	}
	req.Header.Del("Content-Length") // set from the body
	start := time.Now()
	resp, err := f.client.Do(req)
	res.Duration = time.Since(start)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		res.Error = err.Error()
		return res
	}
	resp.Body.Close()
	res.Status = resp.StatusCode
	return res
}
