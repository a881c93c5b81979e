package e2e

import (
	"bufio"
	"net/http"
	"strings"
	"testing"
	"time"
)

// startSandboxBinary runs `cardterm sandbox` (the built binary) on a free
// port with args and returns its base URL and what it printed up to it.
func startSandboxBinary(t *testing.T, args ...string) (baseURL, banner string) {
	t.Helper()
	cmd := binaryCommand(t, append([]string{"sandbox", "--addr", "127.0.0.1:0"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewScanner(stdout)
	var seen strings.Builder
	found := make(chan string, 1)
	go func() {
		for lines.Scan() {
			seen.WriteString(lines.Text() + "\n")
			if rest, ok := strings.CutPrefix(lines.Text(), "Faults"); ok {
				found <- strings.TrimSpace(rest)
				return
			}
			if url, ok := strings.CutPrefix(lines.Text(), "Base URL"); ok {
				baseURL = strings.TrimSpace(url)
			}
		}
		close(found)
	}()
	select {
	case faults, ok := <-found:
		if !ok {
			t.Fatalf("the sandbox stopped:\n%s", seen.String())
		}
		return baseURL, faults
	case <-time.After(e2eWait):
		t.Fatal("the sandbox printed no base URL")
	}
	return "", ""
}

func TestSandboxFaultFailsOneEndpoint(t *testing.T) {
	base, faults := startSandboxBinary(t, "--fault", "GET /v1/card/*=503", "--fault", "* /v1/user=latency=1ms")
	if faults != "GET /v1/card/*=503; * /v1/user=latency=1ms" {
		t.Fatalf("the banner says faults %q", faults)
	}
	status := func(method, path string) int {
		req, _ := http.NewRequest(method, base+path, nil)
		req.Header.Set("x-client-key", "ck_sandbox_acme")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := status("GET", "/v1/card/status"); got != 503 {
		t.Fatalf("GET /v1/card/status: %d", got)
	}
	if got := status("GET", "/v1/user"); got != 401 { // no token: the endpoint itself answers
		t.Fatalf("GET /v1/user: %d", got)
	}
}
