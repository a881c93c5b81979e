package e2e

import (
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/apiclient/curlcmd"
	"cardterm/sandbox"
)

// TestAPIDryRunPrintsTheCurlThatGetsTheSameAnswer: `api --dry-run` sends
// nothing and prints a command that, run with real curl and the variables
// set, gets the answer `api` gets.
func TestAPIDryRunPrintsTheCurlThatGetsTheSameAnswer(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatal("curl is not installed (apt-get install -y curl): --dry-run is checked by running its command")
	}
	server := sandbox.New(sandbox.Options{})
	gw := httptest.NewServer(server)
	defer gw.Close()
	env := []string{"CARDTERM_USERNAME=alice@demo.test", "CARDTERM_PASSWORD=demo-pass"}
	before := len(server.Requests())
	command, notes, code := sealedRun(t, env, "api", "/v1/card/status", "--dry-run", "--base-url", gw.URL, "--client-key", sandbox.DemoClientKey)
	if code != 0 || !strings.HasPrefix(command, "curl ") || !strings.Contains(notes, "Set $"+curlcmd.AccessTokenVariable+" first") {
		t.Fatalf("exit %d\n%s\n%s", code, command, notes)
	}
	if after := len(server.Requests()); after != before {
		t.Fatalf("--dry-run sent %d requests", after-before)
	}
	answer, _, code := sealedRun(t, env, "api", "/v1/card/status", "--base-url", gw.URL, "--client-key", sandbox.DemoClientKey)
	if code != 0 {
		t.Fatalf("api: exit %d", code)
	}
	client := apiclient.New(apiclient.Config{BaseURL: gw.URL, ClientKey: sandbox.DemoClientKey})
	if _, err := client.Login(context.Background(), "alice@demo.test", "demo-pass"); err != nil {
		t.Fatal(err)
	}
	run := exec.Command("bash", "-c", command)
	run.Env = []string{"PATH=" + os.Getenv("PATH"), curlcmd.AccessTokenVariable + "=" + client.Session().AccessToken}
	got, err := run.Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, command)
	}
	if string(got) != answer {
		t.Fatalf("curl got\n%s\napi got\n%s", got, answer)
	}
}
