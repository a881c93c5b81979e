package apiclient

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"time"
)

// The debug log: one structured line per HTTP exchange with the gateway,
// for a user reporting a problem or a developer chasing one. It records
// what identifies a request (method, path, status, duration, request id,
// retry) and nothing that could be a secret: no header (tokens, keys), no
// body (passwords, codes, hosted-page and image URLs), and of the query
// only the names, never the values.

// attemptKey carries the retry number of an attempt to the logging
// transport.
type attemptKey struct{}

// withAttempt marks ctx as the n-th retry of a request (a resend after a
// 429, or after refreshing the session on a 401). 0 keeps the mark ctx
// already has.
func withAttempt(ctx context.Context, n int) context.Context {
	if n == 0 {
		return ctx
	}
	return context.WithValue(ctx, attemptKey{}, n)
}

// withDebugLog returns hc sending through a transport that logs each
// exchange to logger; hc itself when there is no logger. The caller's
// client is never changed.
func withDebugLog(hc *http.Client, logger *slog.Logger) *http.Client {
	if logger == nil {
		return hc
	}
	next := hc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	own := *hc
	own.Transport = &loggingTransport{next: next, log: logger}
	return &own
}

// loggingTransport writes one line per round trip.
type loggingTransport struct {
	next http.RoundTripper
	log  *slog.Logger
	seq  atomic.Int64
}

// requestIDHeaders are the headers a gateway may name its request id in;
// the first one present is logged.
var requestIDHeaders = []string{"X-Request-Id", "X-Correlation-Id", "X-Amzn-Requestid", "Traceparent"}

func (t *loggingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	start := time.Now()
	resp, err := t.next.RoundTrip(req)
	retry, _ := req.Context().Value(attemptKey{}).(int)
	attrs := []slog.Attr{
		slog.Int64("seq", t.seq.Add(1)),
		slog.String("method", req.Method),
		slog.String("path", req.URL.EscapedPath()),
	}
	if names := queryNames(req.URL); names != "" {
		attrs = append(attrs, slog.String("query", names))
	}
	if resp != nil {
		attrs = append(attrs, slog.Int("status", resp.StatusCode))
		for _, h := range requestIDHeaders {
			if v := resp.Header.Get(h); v != "" {
				attrs = append(attrs, slog.String("request_id", v))
				break
			}
		}
	}
	attrs = append(attrs, slog.Duration("duration", time.Since(start)), slog.Int("retry", retry))
	if err != nil {
		attrs = append(attrs, slog.String("error", transportProblem(err)))
	}
	t.log.LogAttrs(req.Context(), slog.LevelInfo, "gateway request", attrs...)
	return resp, err
}

// queryNames lists the query's parameter names, sorted, without values.
func queryNames(u *url.URL) string {
	q := u.Query()
	names := make([]string, 0, len(q))
	for k := range q {
		names = append(names, k)
	}
	slices.Sort(names)
	return strings.Join(names, ",")
}

// transportProblem describes a failed exchange without the URL (a
// *url.Error quotes the whole URL, query values included).
func transportProblem(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return err.Error()
}
