package e2e

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestTheTestsAreSealedFromThisMachine is a test of the test harness: a
// developer with a default profile aimed at a gateway, CARDTERM_BASE_URL,
// CARDTERM_CLIENT_KEY and a secret key exported, a proxy and a browser
// runs some of the end-to-end tests (the embedded sandbox's sign-in, a
// profile switch, the look-ups). They pass, and the loopback listener
// standing for that gateway and proxy receives nothing, nor is the browser
// opened: uitest.Seal and uitest.TestEnv keep all of it from the app under
// test. (.ci/run runs the whole `go test ./...` the same way.) The first,
// third and fourth are here in e2e; the profile switch runs in cli.
func TestTheTestsAreSealedFromThisMachine(t *testing.T) {
	var mu sync.Mutex
	var received []string
	tripwire := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		received = append(received, r.Method+" "+r.Host+r.URL.String())
		mu.Unlock()
		http.Error(w, "no test may reach this gateway", http.StatusTeapot)
	}))
	defer tripwire.Close()

	home := t.TempDir()
	configDir := filepath.Join(home, ".config", "cardterm")
	if err := os.MkdirAll(configDir, 0o700); err != nil {
		t.Fatal(err)
	}
	config := "default: globex\nprofiles:\n  - name: globex\n    base_url: " + tripwire.URL + "\n    client_key: ck_live_globex\n"
	if err := os.WriteFile(filepath.Join(configDir, "config.yaml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	opened := filepath.Join(home, "browser-opened")
	browser := filepath.Join(home, "browser")
	if err := os.WriteFile(browser, []byte("#!/bin/sh\ntouch "+opened+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}

	tests := []string{"TestEmbeddedSandboxJourney", "TestWhatOutlastsASwitchOfProfile", "TestJSONLookups", "TestVersionAndHelp"}
	cmd := exec.Command("go", "test", "-count=1", "-v", "-run", "^("+strings.Join(tests, "|")+")$", ".", "../cli")
	cmd.Env = append(os.Environ(),
		"HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"CARDTERM_BASE_URL="+tripwire.URL, "CARDTERM_CLIENT_KEY=ck_live_globex",
		"CARDTERM_SECRET_KEY=sk_live_globex", "CARDTERM_PROFILE=globex",
		"HTTPS_PROXY="+tripwire.URL, "HTTP_PROXY="+tripwire.URL, "BROWSER="+browser,
		"GOPROXY=off", "GOFLAGS=-mod=readonly")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the tests failed with this machine's settings exported: %v\n%s", err, out)
	}
	// Each ran: a test moved away would otherwise pass as "no tests to run".
	for _, name := range tests {
		if !strings.Contains(string(out), "--- PASS: "+name+" ") {
			t.Errorf("%s did not run:\n%s", name, out)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(received) > 0 {
		t.Errorf("the tests reached the developer's gateway or proxy:\n%s", strings.Join(received, "\n"))
	}
	if _, err := os.Stat(opened); err == nil {
		t.Error("the tests opened the developer's browser")
	}
}
