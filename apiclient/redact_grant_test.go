package apiclient_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"cardterm/apiclient"
)

// A gateway that echoes the token grant it refuses (the OAuth code, the
// PKCE verifier, the refresh token) has them redacted from the message
// and the answer kept for the inspector, so neither the console nor the
// notice log ever shows them.
func TestTokenGrantSecretsAreRedactedFromEchoedErrors(t *testing.T) {
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		quoted := strings.ReplaceAll(string(body), `"`, `'`)
		_, _ = io.WriteString(w, `{"error":"invalid_grant","error_description":"refused `+quoted+`","details":{"code":"`+quoted+`"}}`)
	}))
	t.Cleanup(echo.Close)
	c := apiclient.New(apiclient.Config{BaseURL: echo.URL, ClientKey: "ck_test", SecretKey: "sk_test_0123456789"})
	code, verifier := "QWERT-YUIOP", strings.Repeat("v3rifier", 6)
	_, err := c.ExchangeCode(context.Background(), code, verifier, "http://127.0.0.1:1/callback")
	if err == nil {
		t.Fatal("the refused exchange succeeded")
	}
	var e *apiclient.Error
	if !errors.As(err, &e) {
		t.Fatalf("%T is not an *apiclient.Error", err)
	}
	shown := apiclient.ErrorMessage(err) + " " + err.Error() + " " + string(e.Body)
	for _, secret := range []string{code, verifier} {
		if strings.Contains(shown, secret) {
			t.Errorf("the error shows %q: %s", secret, shown)
		}
	}
	if !strings.Contains(shown, "[redacted]") {
		t.Errorf("nothing was redacted: %s", shown)
	}
}

// `cardterm api` reads an answer up to the documented 16 MiB, no further.
func TestRawAnswersStopAt16MiB(t *testing.T) {
	for _, size := range []int{16 << 20, 16<<20 + 1} {
		big := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `"`+strings.Repeat("x", size-2)+`"`)
		}))
		c := apiclient.New(apiclient.Config{BaseURL: big.URL, ClientKey: "ck_test"})
		answer, err := c.Raw(context.Background(), apiclient.RawRequest{Path: "/v2/consent/user/u1"})
		big.Close()
		switch {
		case size == 16<<20 && (err != nil || len(answer.Body) != size):
			t.Errorf("an answer of 16 MiB: %d bytes, %v", len(answer.Body), err)
		case size > 16<<20 && (err == nil || !strings.Contains(err.Error(), "16 MiB")):
			t.Errorf("an answer past 16 MiB: %d bytes, %v; want the limit", len(answer.Body), err)
		}
	}
}
