package apiclient

import (
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// Native fuzz targets for every decoder of gateway answers. `go test` runs
// their seeds (and testdata/fuzz) as plain tests; .ci/run fuzzes each for a
// few seconds. Each checks a property, not only "no panic".

var fuzzNow = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

// The error decoder reads any body into one readable Error: a message
// always, on one line, without our own secrets.
func FuzzDecodeError(f *testing.F) {
	for _, seed := range []string{
		`{"message":"Card is already frozen"}`,
		`{"message":"Validation failed","errors":[{"field":"customCss.backgroundColor","message":"invalid"}]}`,
		`{"error":"invalid_request","details":["userId is required"]}`,
		`{"error":"not_found","message":"No networks"}`,
		`{"error":"x","error_description":"y","details":{"code":"z"}}`,
		"<html>502</html>", "", `{"message":"\u001b]52;c;ZXZpbA==\u0007\r\u202eevil"}`, `{"message":`, `[1,2,3]`,
	} {
		f.Add(seed, 422, "3")
	}
	f.Fuzz(func(t *testing.T, body string, status int, retryAfter string) {
		if status < 100 || status > 999 {
			status = 500
		}
		resp := &http.Response{StatusCode: status, Header: http.Header{"Retry-After": {retryAfter}}}
		e := decodeError("Op", resp, []byte(body), fuzzNow)
		if e == nil || e.Status != status {
			t.Fatalf("no error for status %d", status)
		}
		msg := ErrorMessage(e)
		if msg == "" || strings.ContainsAny(msg, "\n") {
			t.Fatalf("message %q", msg)
		}
		if e.RetryAfter < 0 || e.RetryAfter > 365*24*time.Hour {
			t.Fatalf("retry after %v", e.RetryAfter)
		}
	})
}

// Retry-After, seconds or an HTTP date, is never negative and never more
// than a year.
func FuzzRetryAfter(f *testing.F) {
	for _, seed := range []string{"1", "120", "-5", "99999999999999999999", "Wed, 21 Oct 2015 07:28:00 GMT",
		"Fri, 01 Jan 9999 00:00:00 GMT", "soon", " 3 "} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if d := parseRetryAfter(v, fuzzNow); d < 0 || d > 365*24*time.Hour {
			t.Fatalf("parseRetryAfter(%q) = %v", v, d)
		}
	})
}

// Decimal amounts: what parses prints back as a decimal that compares
// equal to itself, and a + b - b == a.
func FuzzDecimal(f *testing.F) {
	for _, seed := range [][2]string{{"500.00", "0.45"}, {"0", "0"}, {"-1.5", "2"}, {"1e5", "1"}, {"12.3456789012345678901234567890", "0.1"}, {"", "."}} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		sum, err := AddDecimal(a, b)
		if err != nil {
			return
		}
		back, err := SubDecimal(sum, b)
		if err != nil {
			t.Fatalf("(%s + %s) - %s: %v", a, b, b, err)
		}
		if c, err := CompareDecimal(back, a); err != nil || c != 0 {
			t.Fatalf("(%s + %s) - %s = %s", a, b, b, back)
		}
	})
}

// The tolerant reader takes any JSON object into a record: what it cannot
// type stays readable, and nothing panics.
func FuzzTolerantRecords(f *testing.F) {
	for _, seed := range []string{
		`{"id":"u1","firstName":"Alice","verificationState":"VERIFIED","extra":{"a":[1,2]}}`,
		`{"id":42,"firstName":null,"unknown":"\u202e"}`,
		`{"status":"FROZEN","panLast4":"4242","network":"VISA"}`, `{}`, `{"id":`, `"str"`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data string) {
		var u User
		if err := u.UnmarshalJSON([]byte(data)); err == nil {
			for k, v := range u.Extra {
				if !utf8.ValidString(k) && k == "" || len(v) == 0 {
					t.Fatalf("extra %q = %q", k, v)
				}
			}
		}
		var c Card
		_ = c.UnmarshalJSON([]byte(data))
		var w WhitelistEntry
		_ = w.UnmarshalJSON([]byte(data))
	})
}
