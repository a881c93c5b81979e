package shell

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/apiclient/curlcmd"
	"cardterm/sandbox"
	"cardterm/ui"
)

// runCurl runs a copied command in bash with the variables set, as a
// partner pastes it; it fails (never skips) without curl, which CI installs.
func runCurl(t *testing.T, command string, variables map[string]string) []byte {
	t.Helper()
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatal("curl is not installed (apt-get install -y curl): copy as curl is checked by running it")
	}
	cmd := exec.Command("bash", "-c", command)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	for k, v := range variables {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s\n%s", err, errOut.String(), command)
	}
	return out.Bytes()
}

func TestCopiedCurlGetsTheAnswerTheAppGot(t *testing.T) {
	gw := httptest.NewServer(sandbox.New(sandbox.Options{}))
	defer gw.Close()
	client := apiclient.New(apiclient.Config{BaseURL: gw.URL, ClientKey: sandbox.DemoClientKey, SecretKey: sandbox.DemoSecretKey})
	ctx := context.Background()
	if _, err := client.Login(ctx, "alice@demo.test", "demo-pass"); err != nil {
		t.Fatal(err)
	}
	token := client.Session().AccessToken
	copyAsCurl := curlOf(client)

	// A read: the Card screen's request.
	command, variables, err := copyAsCurl(ui.SentRequest{Method: "GET", Path: "/v1/card/status"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(command, token) || len(variables) != 1 || variables[0] != curlcmd.AccessTokenVariable {
		t.Fatalf("the token is not a variable: %v\n%s", variables, command)
	}
	app, err := client.Raw(ctx, apiclient.RawRequest{Method: "GET", Path: "/v1/card/status"})
	if err != nil {
		t.Fatal(err)
	}
	if got := runCurl(t, command, map[string]string{curlcmd.AccessTokenVariable: token}); !bytes.Equal(got, app.Body) {
		t.Fatalf("curl got\n%s\nthe app got\n%s", got, app.Body)
	}

	// A change from a confirmation: the freeze, copied, then run after the
	// app froze and unfroze the card, answers what the app's freeze did.
	command, _, err = copyAsCurl(ui.SentRequest{Method: "POST", Path: "/v1/card/freeze"}, false)
	if err != nil {
		t.Fatal(err)
	}
	appFreeze, err := client.Raw(ctx, apiclient.RawRequest{Method: "POST", Path: "/v1/card/freeze"})
	if err != nil {
		t.Fatal(err)
	}
	if err := client.UnfreezeCard(ctx); err != nil {
		t.Fatal(err)
	}
	if got := runCurl(t, command, map[string]string{curlcmd.AccessTokenVariable: token}); !bytes.Equal(got, appFreeze.Body) {
		t.Fatalf("curl's freeze got %s, the app's %s", got, appFreeze.Body)
	}
	if card, err := client.CardStatus(ctx); err != nil || card.Status != "FROZEN" {
		t.Fatalf("after curl's freeze the card is %+v (%v)", card, err)
	}

	// A secret-key request with a body: the secret key is a variable too.
	command, variables, err = copyAsCurl(ui.SentRequest{Method: "POST", Path: "/sandbox/kyc",
		Body: []byte(`{"user":"nora@demo.test","verificationState":"PENDING"}`)}, false)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(command, sandbox.DemoSecretKey) || !strings.Contains(strings.Join(variables, " "), curlcmd.SecretKeyVariable) {
		t.Fatalf("the secret key is not a variable: %v\n%s", variables, command)
	}
	got := runCurl(t, command, map[string]string{curlcmd.SecretKeyVariable: sandbox.DemoSecretKey})
	if !strings.Contains(string(got), `"verificationState":"PENDING"`) {
		t.Fatalf("curl's kyc change got %s", got)
	}

	// Asked for, the secrets are written out and no variable is needed.
	command, variables, _ = copyAsCurl(ui.SentRequest{Method: "GET", Path: "/v1/user"}, true)
	if len(variables) != 0 || !strings.Contains(command, token) {
		t.Fatalf("revealed: %v\n%s", variables, command)
	}
	if got := runCurl(t, command, nil); !strings.Contains(string(got), `"email":"alice@demo.test"`) {
		t.Fatalf("curl with the token written out got %s", got)
	}
}
