package cli

import (
	"bytes"
	"errors"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/zalando/go-keyring"
)

// runCLI runs the command line as main does, with buffers for streams.
func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Run(args, nil, &out, &errOut)
	return out.String(), errOut.String(), code
}

func TestProfileSecretKeyLivesInTheKeyringNeverTheFile(t *testing.T) {
	mockKeyring(t)
	path := useConfigDir(t)
	t.Setenv(secretKeyEnv, "sk_live_from_env")
	out, errOut, code := runCLI(t, "profile", "add", "acme", "--base-url", "https://gw.example.com", "--client-key", "ck_live_acme")
	if code != 0 || !strings.Contains(out, "OS keyring") {
		t.Fatalf("profile add: %d %q %q", code, out, errOut)
	}
	if v, err := keyring.Get(keyringService, "acme"); err != nil || v != "sk_live_from_env" {
		t.Fatalf("keyring entry: %q %v", v, err)
	}
	text, _ := os.ReadFile(path)
	if strings.Contains(string(text), "sk_live") {
		t.Fatalf("the secret key is in the config file:\n%s", text)
	}
	out, _, _ = runCLI(t, "profile", "show", "acme")
	if !strings.Contains(out, "secret key:  in the OS keyring") || strings.Contains(out, "sk_live") {
		t.Fatalf("profile show: %q", out)
	}

	// The app finds it in the keyring; $CARDTERM_SECRET_KEY still wins.
	o := options{profile: "acme", profileInUse: true, secrets: &secretStore{}}
	t.Setenv(secretKeyEnv, "sk_env_wins")
	if got := secretKey(o, nil, &bytes.Buffer{}, true); got != "sk_env_wins" {
		t.Fatalf("with the variable set: %q", got)
	}
	os.Unsetenv(secretKeyEnv)
	if got := secretKey(o, nil, &bytes.Buffer{}, true); got != "sk_live_from_env" {
		t.Fatalf("from the keyring: %q", got)
	}

	// Removing the profile removes its entry.
	if _, errOut, code := runCLI(t, "profile", "remove", "acme"); code != 0 {
		t.Fatalf("profile remove: %d %q", code, errOut)
	}
	if _, err := keyring.Get(keyringService, "acme"); !errors.Is(err, keyring.ErrNotFound) {
		t.Fatalf("the entry outlives its profile: %v", err)
	}
}

func TestProfileAddAsksWithAMaskedPrompt(t *testing.T) {
	mockKeyring(t)
	useConfigDir(t)
	t.Setenv(secretKeyEnv, "")
	os.Unsetenv(secretKeyEnv)
	old := promptSecret
	t.Cleanup(func() { promptSecret = old })
	var asked string
	promptSecret = func(_ *cobra.Command, prompt string) (string, error) { asked = prompt; return "sk_typed", nil }
	if _, errOut, code := runCLI(t, "profile", "add", "acme", "--base-url", "https://gw.example.com"); code != 0 {
		t.Fatalf("%d %q", code, errOut)
	}
	if !strings.Contains(asked, "Secret key") {
		t.Fatalf("prompt %q", asked)
	}
	if v, _ := keyring.Get(keyringService, "acme"); v != "sk_typed" {
		t.Fatalf("keyring entry %q", v)
	}
	// An embedded-sandbox profile has the sandbox's own key: no prompt.
	asked = ""
	if _, _, code := runCLI(t, "profile", "add", "demo-b", "--client-key", "ck_sandbox_globex"); code != 0 || asked != "" {
		t.Fatalf("%d, asked %q", code, asked)
	}
}

func TestNoKeyringSaysSoOnceAndNeverWritesTheSecret(t *testing.T) {
	mockKeyringWithError(t, errors.New("The name org.freedesktop.secrets was not provided by any .service files"))
	path := useConfigDir(t)
	t.Setenv(secretKeyEnv, "sk_live_nowhere")
	out, errOut, code := runCLI(t, "profile", "add", "acme", "--base-url", "https://gw.example.com")
	if code != 0 {
		t.Fatalf("profile add fails without a keyring: %d %q", code, errOut)
	}
	if n := strings.Count(errOut, "the OS keyring is not available"); n != 1 || strings.Contains(out+errOut, "sk_live") {
		t.Fatalf("want one notice and no secret: stdout %q stderr %q", out, errOut)
	}
	text, _ := os.ReadFile(path)
	if strings.Contains(string(text), "sk_live") {
		t.Fatalf("the secret key fell back to the config file:\n%s", text)
	}
	// The app then has no stored key: without a terminal it has none, and
	// says once why.
	os.Unsetenv(secretKeyEnv)
	var warn bytes.Buffer
	store := &secretStore{warn: &warn}
	o := options{profile: "acme", profileInUse: true, secrets: store}
	if got := secretKey(o, nil, &warn, true); got != "" {
		t.Fatalf("secret %q", got)
	}
	secretKey(o, nil, &warn, true)
	if n := strings.Count(warn.String(), "the OS keyring is not available"); n != 1 {
		t.Fatalf("said %d times: %q", n, warn.String())
	}
}

func TestWebhookSigningKeyFromTheProfilesKeyringEntry(t *testing.T) {
	mockKeyring(t)
	useConfigDir(t)
	t.Setenv(webhookKeyEnv, "whsec_kept")
	if out, errOut, code := runCLI(t, "profile", "add", "hooks", "--webhook-key", "--default"); code != 0 || !strings.Contains(out, "webhook signing key is in the OS keyring") {
		t.Fatalf("%d %q %q", code, out, errOut)
	}
	os.Unsetenv(webhookKeyEnv)
	old := promptSecret
	t.Cleanup(func() { promptSecret = old })
	promptSecret = func(*cobra.Command, string) (string, error) { return "", errors.New("no terminal to ask on") }
	// The default profile's entry, without the variable or a prompt.
	o, err := resolveCommandOptions(nil, streams{stderr: io.Discard})
	if err != nil || o.profile != "hooks" {
		t.Fatalf("the settings name profile %q: %v", o.profile, err)
	}
	if key, err := webhookKey(&cobra.Command{}, false, o.profile); err != nil || key != "whsec_kept" {
		t.Fatalf("webhook key %q %v", key, err)
	}
	if out, _, _ := runCLI(t, "profile", "show"); !strings.Contains(out, "webhook key: in the OS keyring") || strings.Contains(out, "whsec_kept") {
		t.Fatalf("profile show: %q", out)
	}
	// The variable still wins; --key still asks.
	t.Setenv(webhookKeyEnv, "whsec_env")
	if key, _ := webhookKey(&cobra.Command{}, false, o.profile); key != "whsec_env" {
		t.Fatalf("with the variable: %q", key)
	}
	if _, err := webhookKey(&cobra.Command{}, true, o.profile); err == nil {
		t.Fatal("--key did not ask")
	}
	runCLI(t, "profile", "remove", "hooks")
	if _, err := keyring.Get(keyringService, webhookAccount("hooks")); !errors.Is(err, keyring.ErrNotFound) {
		t.Fatalf("the webhook entry outlives its profile: %v", err)
	}
}

// mockKeyring puts go-keyring's in-memory keyring in place of the OS's,
// reachable whatever the session bus.
func mockKeyring(t *testing.T) {
	t.Helper()
	keyring.MockInit()
	noSessionBusNeeded(t)
}

// mockKeyringWithError is a keyring whose every call fails with err.
func mockKeyringWithError(t *testing.T, err error) {
	t.Helper()
	keyring.MockInitWithError(err)
	noSessionBusNeeded(t)
}

func noSessionBusNeeded(t *testing.T) {
	required := sessionBusRequired
	sessionBusRequired = false
	t.Cleanup(func() { sessionBusRequired = required })
}

// Without a session bus the keyring is never asked (the D-Bus library
// would start a bus and a keyring daemon that outlive cardterm): every
// call says there is no keyring, once, without reaching go-keyring,
// whose mock here would have answered.
func TestNoSessionBusNoKeyring(t *testing.T) {
	if !sessionBusRequired {
		t.Skipf("%s's keyring needs no session bus", runtime.GOOS)
	}
	keyring.MockInit()
	if err := keyring.Set(keyringService, "acme", "sk_in_the_mock"); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	var warned bytes.Buffer
	store := &secretStore{warn: &warned}
	if v, err := store.get("acme"); !errors.Is(err, errNoKeyring) || v != "" {
		t.Errorf("get without a session bus: %q, %v; want no keyring", v, err)
	}
	if err := store.set("acme", "sk_new"); !errors.Is(err, errNoKeyring) {
		t.Errorf("set without a session bus: %v", err)
	}
	if err := store.remove("acme"); !errors.Is(err, errNoKeyring) {
		t.Errorf("remove without a session bus: %v", err)
	}
	if v, _ := keyring.Get(keyringService, "acme"); v != "sk_in_the_mock" {
		t.Errorf("the keyring was changed without a session bus: %q", v)
	}
	if n := strings.Count(warned.String(), "is not available"); n != 1 || !strings.Contains(warned.String(), "DBUS_SESSION_BUS_ADDRESS") {
		t.Errorf("want one warning naming the bus, got %q", warned.String())
	}
}
