package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"cardterm/sandbox"
)

// gatewayReader fetches what the gateway answers to a request, with the
// test's own session, to compare with what the look-ups print.
type gatewayReader struct {
	t     *testing.T
	base  string
	token string
}

func (g gatewayReader) do(method, path string, body any, headers ...string) []byte {
	g.t.Helper()
	status, out := g.answer(method, path, body, headers...)
	if status/100 != 2 {
		g.t.Fatalf("%s %s: %d %s", method, path, status, out)
	}
	return out
}

// answer is the gateway's status and body, an error answer's too.
func (g gatewayReader) answer(method, path string, body any, headers ...string) (int, []byte) {
	g.t.Helper()
	var in io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		in = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, g.base+path, in)
	if err != nil {
		g.t.Fatal(err)
	}
	req.Header.Set("x-client-key", sandbox.DemoClientKey)
	req.Header.Set("X-Client-ID", sandbox.DemoClientKey)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if g.token != "" {
		req.Header.Set("Authorization", "Bearer "+g.token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		g.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// jsonValue parses JSON text into a comparable value.
func jsonValue(t *testing.T, what string, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s is not JSON: %v\n%s", what, err, b)
	}
	return v
}

// writeConfig writes a config file the binary then reads, owner-only as
// the app writes it.
func writeConfig(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}
