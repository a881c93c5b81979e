package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"cardterm/cli/clitest"
	"cardterm/sandbox"
	"cardterm/sandbox/proxy"
)

// cardterm proxy in front of a sandbox: a request without x-client-key
// comes out as a JSON line naming the rule; no secret shows.
func TestProxyCommandPrintsEachRequestAndItsBrokenRules(t *testing.T) {
	gw := httptest.NewServer(sandbox.New(sandbox.Options{}))
	defer gw.Close()
	stdout, stderr := &clitest.Buffer{}, &clitest.Buffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runProxy(ctx, stdout, stderr, gw.URL, "127.0.0.1:0", true) }()
	addr := waitFor(t, "stderr", stderr.String, regexp.MustCompile(`Proxying http://(\S+) →`))

	send := func(path string, header ...string) {
		req, _ := http.NewRequest("GET", "http://"+addr+path, nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	send("/v1/user", "Authorization", "Bearer secret-token-value")
	send("/v1/order/products/available", "X-Client-ID", sandbox.DemoClientKey, "Authorization", "Bearer another-secret-token")
	waitFor(t, "stdout", stdout.String, regexp.MustCompile(`(?s)(.*\n){2}`))
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	var first, second proxy.Exchange
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	_ = json.Unmarshal([]byte(lines[1]), &second)
	if first.Path != "/v1/user" || len(first.Violations) == 0 || !strings.Contains(first.Violations[0].Rule, "x-client-key (required): public client key") {
		t.Fatalf("first line: %s", lines[0])
	}
	if second.Status != 401 || second.Operation != "GET /v1/order/products/available" {
		t.Fatalf("second line: %s", lines[1])
	}
	if strings.Contains(stdout.String()+stderr.String(), "secret-token") {
		t.Fatalf("a token reached the output:\n%s%s", stdout.String(), stderr.String())
	}
	if !strings.Contains(stderr.String(), "Stopped: 2 request(s), 1 breaking the interface.") {
		t.Fatalf("stderr:\n%s", stderr.String())
	}
}
