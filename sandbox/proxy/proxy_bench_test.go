package proxy

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkProxyCheck is what checking costs one exchange: find the
// operation, check headers, path and body, then the answer's shape.
func BenchmarkProxyCheck(b *testing.B) {
	sp, err := loadSpec()
	if err != nil {
		b.Fatal(err)
	}
	p := &Proxy{spec: sp}
	body := []byte(`{"name":"Receiver","url":"https://example.com/hooks","event_types":["card.frozen"],"is_active":true}`)
	answer := answer{status: 200, header: http.Header{"Content-Type": {"application/json"}},
		body: []byte(`{"success":true,"data":{"id":"6c1c5bd5-1b33-4c25-9a9e-3b1d2b1d5c11","tenant":"acme","name":"Receiver","url":"https://example.com/hooks","apiKey":"whsec_****abcd","eventTypes":["card.frozen"],"isActive":true,"metadata":{},"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"}}`)}
	b.ReportAllocs()
	for b.Loop() {
		r := httptest.NewRequest("PUT", "/v1/webhooks/6c1c5bd5-1b33-4c25-9a9e-3b1d2b1d5c11", io.NopCloser(bytes.NewReader(body)))
		r.Header.Set("Authorization", "Bearer token")
		r.Header.Set("Content-Type", "application/json")
		ex := Exchange{}
		if op := p.checkRequest(r, body, &ex); op != nil {
			p.checkAnswer(op, answer, &ex)
		}
		if len(ex.Violations) != 0 {
			b.Fatalf("%+v", ex.Violations)
		}
	}
}
