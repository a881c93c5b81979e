package apiclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"
)

// errorServer answers every request with status, the given headers and body.
func errorServer(t *testing.T, status int, header map[string]string, body string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestErrorShapes(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		body    string
		message string
		code    string
		details []string
		fields  []FieldError
		oneLine string
	}{
		{
			name: "message", status: 400,
			body:    `{"message":"Card is not frozen"}`,
			message: "Card is not frozen",
			oneLine: "Card is not frozen (400)",
		},
		{
			name: "message with errors", status: 422,
			body:    `{"message":"Validation failed","errors":[{"field":"customCss.backgroundColor","message":"Invalid hex color format"}]}`,
			message: "Validation failed",
			fields:  []FieldError{{Field: "customCss.backgroundColor", Message: "Invalid hex color format"}},
			oneLine: "Validation failed (422): customCss.backgroundColor: Invalid hex color format",
		},
		{
			name: "error with details list", status: 400,
			body:    `{"error":"Bad Request","details":["userId is required","userId must be a string"]}`,
			message: "Bad Request", code: "Bad Request",
			details: []string{"userId is required", "userId must be a string"},
			oneLine: "Bad Request (400): userId is required; userId must be a string",
		},
		{
			name: "consent 499", status: 499,
			body:    `{"error":"Missing client key","details":["x-client-key header is required"]}`,
			message: "Missing client key", code: "Missing client key",
			details: []string{"x-client-key header is required"},
			oneLine: "Missing client key (499): x-client-key header is required",
		},
		{
			name: "error with message", status: 404,
			body:    `{"error":"NOT_FOUND","message":"No networks found"}`,
			message: "No networks found", code: "NOT_FOUND",
			oneLine: "No networks found (404)",
		},
		{
			name: "general format", status: 400,
			body:    `{"error":"invalid_request","error_description":"The request is invalid","details":{"url":"must be HTTPS","name":"too long"}}`,
			message: "The request is invalid", code: "invalid_request",
			fields:  []FieldError{{Field: "name", Message: "too long"}, {Field: "url", Message: "must be HTTPS"}},
			oneLine: "The request is invalid (400): name: too long; url: must be HTTPS",
		},
		{
			name: "message as array", status: 400,
			body:    `{"message":["amount must be a string","amount is required"]}`,
			message: "amount must be a string; amount is required",
			oneLine: "amount must be a string; amount is required (400)",
		},
		{
			name: "details only", status: 400,
			body:    `{"details":["first","second"]}`,
			message: "first", details: []string{"second"},
			oneLine: "first (400): second",
		},
		{
			name: "empty object", status: 403,
			body:    `{}`,
			message: "Not authorized",
			oneLine: "Not authorized (403)",
		},
		{
			name: "non-JSON body", status: 502,
			body:    "<html><body>Bad Gateway</body></html>",
			message: "gateway answered 502 Bad Gateway with a non-JSON body",
			oneLine: "gateway answered 502 Bad Gateway with a non-JSON body (502)",
		},
		{
			name: "JSON array body", status: 500,
			body:    `["oops"]`,
			message: "gateway answered 500 Internal Server Error with a non-JSON body",
			oneLine: "gateway answered 500 Internal Server Error with a non-JSON body (500)",
		},
		{
			name: "empty body", status: 503,
			body:    "",
			message: "gateway answered 503 Service Unavailable with an empty body",
			oneLine: "gateway answered 503 Service Unavailable with an empty body (503)",
		},
		{
			name: "unnamed status, empty body", status: 498,
			body:    "",
			message: "gateway answered 498 with an empty body",
			oneLine: "gateway answered 498 with an empty body (498)",
		},
		{
			name: "odd shapes", status: 422,
			body:    `{"message":{"field":"amount","message":"too big"},"errors":{"amount":"too big"},"details":"see docs"}`,
			message: "too big", details: []string{"see docs"},
			fields:  []FieldError{{Field: "amount", Message: "too big"}},
			oneLine: "too big (422): amount: too big; see docs",
		},
		{
			name: "mixed lists", status: 400,
			body:    `{"error":"bad","errors":["plain",{"field":"f","message":"m"}],"details":[{"field":"g","message":"n"},"d",7]}`,
			message: "bad", code: "bad", details: []string{"d", "7"},
			fields:  []FieldError{{Message: "plain"}, {Field: "f", Message: "m"}, {Field: "g", Message: "n"}},
			oneLine: "bad (400): plain; f: m; g: n; d; 7",
		},
		{
			name: "numeric message", status: 500,
			body:    `{"message":42,"error":null}`,
			message: "42",
			oneLine: "42 (500)",
		},
		{
			name: "multi-line message", status: 500,
			body:    `{"message":"Internal\nserver   error"}`,
			message: "Internal\nserver   error",
			oneLine: "Internal server error (500)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := errorServer(t, tt.status, nil, tt.body)
			c := New(Config{BaseURL: srv.URL, ClientKey: "ck"})
			_, err := c.CardStatus(context.Background())
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T %v is not *Error", err, err)
			}
			if e.Op != "CardStatus" || e.Status != tt.status {
				t.Errorf("op, status = %q, %d", e.Op, e.Status)
			}
			if e.Message != tt.message {
				t.Errorf("Message = %q, want %q", e.Message, tt.message)
			}
			if e.Code != tt.code {
				t.Errorf("Code = %q, want %q", e.Code, tt.code)
			}
			if !reflect.DeepEqual(e.Details, tt.details) {
				t.Errorf("Details = %#v, want %#v", e.Details, tt.details)
			}
			if !reflect.DeepEqual(e.Fields, tt.fields) {
				t.Errorf("Fields = %#v, want %#v", e.Fields, tt.fields)
			}
			if got := ErrorMessage(err); got != tt.oneLine {
				t.Errorf("ErrorMessage = %q, want %q", got, tt.oneLine)
			}
			if got := err.Error(); got != "CardStatus: "+tt.oneLine {
				t.Errorf("Error() = %q", got)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Errorf("Error() is not one line: %q", err.Error())
			}
			if !IsStatus(err, tt.status) {
				t.Errorf("IsStatus(%d) = false", tt.status)
			}
		})
	}
}

func TestRetryAfterParsing(t *testing.T) {
	now := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"", 0},
		{"30", 30 * time.Second},
		{" 7 ", 7 * time.Second},
		{"0", 0},
		{"-5", 0},
		{"soon", 0},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{now.Add(-time.Minute).Format(http.TimeFormat), 0},
	}
	for _, tt := range tests {
		if got := parseRetryAfter(tt.in, now); got != tt.want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestErrorRetryAfterFromHeader(t *testing.T) {
	now := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	srv := errorServer(t, 429, map[string]string{"Retry-After": now.Add(2 * time.Minute).Format(http.TimeFormat)},
		`{"message":"Too many requests"}`)
	c := New(Config{BaseURL: srv.URL, ClientKey: "ck", Now: func() time.Time { return now }})
	err := c.FreezeCard(context.Background())
	var e *Error
	if !errors.As(err, &e) || e.RetryAfter != 2*time.Minute {
		t.Fatalf("err = %#v", err)
	}
	if got := ErrorMessage(err); got != "Too many requests (429), retry in 2m0s" {
		t.Errorf("ErrorMessage = %q", got)
	}
}

func TestErrorHelpers(t *testing.T) {
	nf := &Error{Op: "CardStatus", Status: 404, Message: "Card not found"}
	wrapped := fmt.Errorf("loading card: %w", nf)
	if !IsNotFound(wrapped) || IsUnauthorized(wrapped) || !IsStatus(wrapped, 404) {
		t.Error("helpers do not see through wrapping")
	}
	if !IsUnauthorized(&Error{Status: 401}) {
		t.Error("IsUnauthorized(401) = false")
	}
	if IsNotFound(errors.New("plain")) || IsNotFound(nil) {
		t.Error("IsNotFound on a non-*Error")
	}
	if ErrorMessage(nil) != "" {
		t.Error("ErrorMessage(nil) not empty")
	}
	if got := ErrorMessage(errors.New("a\nb")); got != "a b" {
		t.Errorf("ErrorMessage(plain) = %q", got)
	}
	if got := ErrorMessage(wrapped); got != "Card not found (404)" {
		t.Errorf("ErrorMessage(wrapped) = %q", got)
	}
	var nilErr *Error
	if nilErr.Error() != "<nil>" {
		t.Error("nil *Error")
	}
	tr := &Error{Op: "User", Message: "cannot reach the gateway", Err: errors.New("dial tcp: refused")}
	if got := tr.Error(); got != "User: cannot reach the gateway: dial tcp: refused" {
		t.Errorf("transport Error() = %q", got)
	}
	if got := ErrorMessage(tr); got != "cannot reach the gateway: dial tcp: refused" {
		t.Errorf("transport ErrorMessage = %q", got)
	}
	if !errors.Is(tr, tr.Err) {
		t.Error("Unwrap")
	}
}

// The gateway may echo what it was sent; our tokens and keys never reach
// an error text.
func TestErrorRedactsSecrets(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(400)
		fmt.Fprintf(w, `{"message":"bad token %s","errors":[{"field":"x","message":"secret %s"}]}`,
			r.Header.Get("Authorization"), r.Header.Get("x-secret-key"))
	}))
	defer srv.Close()
	c := New(Config{BaseURL: srv.URL, ClientKey: "ck", SecretKey: "sk_live_supersecret"})
	c.SetSession(Session{AccessToken: "at_0123456789abcdef", RefreshToken: "rt_0123456789abcdef"})
	err := c.FreezeCard(context.Background())
	if err == nil || strings.Contains(err.Error(), "at_0123456789abcdef") {
		t.Fatalf("token leaked: %v", err)
	}
	// x-secret-key is not sent on card endpoints at all.
	if strings.Contains(err.Error(), "sk_live") {
		t.Fatalf("secret leaked: %v", err)
	}
	if !strings.Contains(err.Error(), "[redacted]") {
		t.Errorf("Error() = %q", err.Error())
	}
}
