package e2e

import (
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
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

// The attack: a header whose \' ends fish's single quotes. The
// printed command, piped into each shell cardterm supports (with a curl
// that only records its arguments), gives curl the header as typed and
// runs nothing else.
func TestAPIDryRunIsSafeInEveryShell(t *testing.T) {
	header := `X-Fish: \'; touch CANARY; echo \' $(touch CANARY2) ` + "`touch CANARY3` (touch CANARY4)"
	command, notes, code := sealedRun(t, nil, "api", "/v1/user", "-H", header, "--dry-run")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, notes)
	}
	bin := t.TempDir()
	recorder := "#!/bin/sh\nfor arg in \"$@\"; do printf '%s\\n' \"$arg\"; done > \"$ARGS_FILE\"\n"
	if err := os.WriteFile(filepath.Join(bin, "curl"), []byte(recorder), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, shell := range []string{"bash", "zsh", "dash", "fish"} {
		path, err := exec.LookPath(shell)
		if err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is not installed (.ci/run installs it)", shell)
			}
			t.Skipf("%s is not installed", shell)
		}
		dir := t.TempDir()
		argsFile := filepath.Join(t.TempDir(), "args")
		run := exec.Command(path)
		run.Dir, run.Stdin = dir, strings.NewReader(command)
		run.Env = []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + t.TempDir(), "ARGS_FILE=" + argsFile}
		if out, err := run.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v %s\n%s", shell, err, out, command)
		}
		args, _ := os.ReadFile(argsFile)
		if !strings.Contains("\n"+string(args), "\n--header\n"+header+"\n") {
			t.Errorf("%s: curl got\n%s\nnot the header %q", shell, args, header)
		}
		if files, _ := os.ReadDir(dir); len(files) != 0 {
			t.Errorf("%s ran something: %v appeared\n%s", shell, files, command)
		}
	}
}
