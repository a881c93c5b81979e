package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"cardterm/ui/uitest"
)

// The end-to-end journeys of profiles, the OS keyring and completion,
// driven through the real binary (main_test.go builds it).

// noKeyring points go-keyring at a D-Bus that is not there, as on a
// headless Linux box: every keyring call fails.
const noKeyring = uitest.NoKeyring

// profileEnv is a private config and state directory without a keyring.
func profileEnv(t *testing.T) []string {
	t.Helper()
	return []string{"XDG_CONFIG_HOME=" + t.TempDir(), "XDG_STATE_HOME=" + t.TempDir(), noKeyring}
}

// cardterm runs the binary with env added and returns its combined output;
// a non-zero exit fails the test.
func cardterm(t *testing.T, env []string, args ...string) string {
	t.Helper()
	cmd := binaryCommand(t, args...)
	cmd.Env = append(append(os.Environ(), uitest.TestEnv(t)...), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("cardterm %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func TestProfilesSwitchTenantInTheApp(t *testing.T) {
	env := profileEnv(t)
	cardterm(t, env, "profile", "add", "acme-demo")
	cardterm(t, env, "profile", "add", "globex-demo", "--client-key", "ck_sandbox_globex")
	if list := cardterm(t, env, "profile", "list"); !strings.Contains(list, "*  acme-demo") || !strings.Contains(list, "globex-demo") {
		t.Fatalf("profile list:\n%s", list)
	}
	debugLog := filepath.Join(t.TempDir(), "debug.log")
	tm := startTerm(t, env, "--profile", "acme-demo", "--debug", debugLog)
	tm.waitFor("profile acme-demo", "alice@demo.test")

	// Signed in, the switch signs out first.
	tm.send("Enter")
	tm.waitFor("Alice", "VERIFIED")
	tm.send("C-p")
	tm.waitFor("Switch profile", "acme-demo (in use)", "globex-demo")
	tm.send("Down", "Enter")
	s := tm.waitFor("profile globex-demo", "gus@globex.test", "Sign in to the Card and Wallet Gateway")
	if strings.Contains(s, "alice@demo.test") || strings.Contains(s, "profile acme-demo") {
		t.Fatalf("the other tenant's users must replace the first one's:\n%s", s)
	}
	log, err := os.ReadFile(debugLog)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), "path=/v1/auth/logout") {
		t.Fatalf("no sign-out before the switch; the debug log:\n%s", log)
	}

	// And back, signed out: the list opens from the sign-in form too.
	tm.send("C-p")
	tm.waitFor("Switch profile", "globex-demo (in use)")
	tm.send("Up", "Enter")
	tm.waitFor("profile acme-demo", "alice@demo.test")
}

func TestProfileWithoutAKeyringAsksForTheSecretKey(t *testing.T) {
	remote := newNotTheSandbox(t, "http://"+startSandbox(t).addr).url
	env := profileEnv(t)
	cmd := binaryCommand(t, "profile", "add", "remote", "--base-url", remote,
		"--client-key", "ck_sandbox_acme", "--environment", "sandbox")
	cmd.Env = append(append(append(os.Environ(), uitest.TestEnv(t)...), env...), "CARDTERM_SECRET_KEY=sk_sandbox_acme")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("profile add: %v\n%s", err, out)
	}
	if n := strings.Count(string(out), "the OS keyring is not available"); n != 1 || strings.Contains(string(out), "sk_sandbox_acme") {
		t.Fatalf("want the keyring's absence said once and no secret:\n%s", out)
	}
	config, err := os.ReadFile(filepath.Join(strings.TrimPrefix(env[0], "XDG_CONFIG_HOME="), "cardterm", "config.yaml"))
	if err != nil || strings.Contains(string(config), "sk_") {
		t.Fatalf("config file: %v\n%s", err, config)
	}

	// The app says the keyring is absent and asks, masked.
	tm := startTerm(t, env, "--profile", "remote")
	tm.waitFor("the OS keyring is not available", "Secret key (x-secret-key")
	tm.typeText("sk_sandbox_acme")
	s := tm.screen()
	if strings.Contains(s, "sk_sandbox_acme") {
		t.Fatalf("the secret key echoes:\n%s", s)
	}
	tm.send("Enter")
	s = tm.waitFor("profile remote", "Sign in to the Card and Wallet Gateway", strings.TrimPrefix(remote, "http://"))
	if strings.Contains(s, "SANDBOX") || strings.Contains(s, "PRODUCTION") {
		t.Fatalf("a remote sandbox environment is labelled wrongly:\n%s", s)
	}
}

func TestMalformedConfigStillStartsOnTheSandbox(t *testing.T) {
	env := profileEnv(t)
	path := filepath.Join(strings.TrimPrefix(env[0], "XDG_CONFIG_HOME="), "cardterm", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("default: acme\nprofiles:\n  - name: acme\n    timeout: soon\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tm := startTerm(t, env)
	// The first screen says it too, as a warning above the status bar,
	// wrapped when the path is long (a long TMPDIR, as on macOS).
	s := tm.waitForUnwrapped("SANDBOX", "alice@demo.test", "config.yaml:4: profiles[0].timeout")
	if strings.Contains(s, "profile acme") {
		t.Fatalf("a profile of a malformed file was used:\n%s", s)
	}
	// What it said before the app took the screen.
	cmd := binaryCommand(t, "get", "consent", "nobody")
	cmd.Env = append(append(os.Environ(), uitest.TestEnv(t)...), env...)
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), path+":4: profiles[0].timeout: \"soon\" is not a positive duration") {
		t.Fatalf("the message does not name the file, line and field:\n%s", out)
	}
}

func TestBashCompletionCompletesProfileNames(t *testing.T) {
	env := profileEnv(t)
	cardterm(t, env, "profile", "add", "acme-live", "--base-url", "https://gw.example.com", "--no-secret")
	cardterm(t, env, "profile", "add", "globex-demo", "--client-key", "ck_sandbox_globex")
	script := filepath.Join(t.TempDir(), "cardterm.bash")
	if err := os.WriteFile(script, []byte(cardterm(t, env, "completion", "bash")), 0o600); err != nil {
		t.Fatal(err)
	}
	// The script relies on the bash-completion package for
	// _get_comp_words_by_ref; this is the part of it the script uses.
	const shim = `_get_comp_words_by_ref() { cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}; words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; }`
	complete := func(words ...string) []string {
		t.Helper()
		line := strings.Join(words, " ")
		prog := shim + "\nsource " + script + "\n" +
			"COMP_WORDS=(" + binary + " " + strings.Join(quoteAll(words[1:]), " ") + ")\n" +
			"COMP_CWORD=" + strconv.Itoa(len(words)-1) + "\n" +
			"COMP_LINE='" + binary + " " + strings.Join(words[1:], " ") + "'\nCOMP_POINT=${#COMP_LINE}\n" +
			"__start_cardterm\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
		cmd := exec.Command("bash", "--norc", "--noprofile", "-c", prog)
		cmd.Env = append(append(os.Environ(), uitest.TestEnv(t)...), env...)
		// stdout only: outside a real completion, compopt complains on
		// stderr.
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("bash completing %q: %v\n%s", line, err, out)
		}
		return strings.Fields(string(out))
	}
	if got := complete("cardterm", "--profile", ""); strings.Join(got, " ") != "acme-live globex-demo" {
		t.Fatalf("cardterm --profile <tab>: %q", got)
	}
	if got := complete("cardterm", "profile", "use", "glo"); strings.Join(got, " ") != "globex-demo" {
		t.Fatalf("cardterm profile use glo<tab>: %q", got)
	}
	if got := complete("cardterm", "get", "con"); strings.Join(got, " ") != "consent consent-set" {
		t.Fatalf("cardterm get con<tab>: %q", got)
	}
}

// quoteAll quotes words for a bash array; "" stays an empty word.
func quoteAll(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = "'" + w + "'"
	}
	return out
}

func TestLookUpsNeverAskForTheSecretKey(t *testing.T) {
	sb := startSandbox(t)
	env := profileEnv(t)
	// On a terminal, with no secret key anywhere: the answer comes, no
	// prompt (the README's own `--json audit` once stopped at one).
	tm := startShell(t, env, binary+" --base-url http://"+sb.addr+" --client-key ck_sandbox_acme --json audit nobody; echo AUDIT-EXIT=$?; "+
		binary+" get consent nobody --base-url http://"+sb.addr+" --client-key ck_sandbox_acme; echo CONSENT-EXIT=$?; sleep 60")
	// Wait for what is asserted on: both exit statuses, printed after
	// their messages (waiting for the messages alone raced the second
	// echo).
	s := tm.waitFor("cardterm: audit: No consent set found (404)", "cardterm: consent: No consent set found (404)", "AUDIT-EXIT=", "CONSENT-EXIT=")
	if !strings.Contains(s, "AUDIT-EXIT=1") || !strings.Contains(s, "CONSENT-EXIT=1") || strings.Contains(s, "Secret key") {
		t.Fatalf("a look-up asked for the secret key:\n%s", s)
	}
}

func TestProfileStartsInTheSupportConsole(t *testing.T) {
	env := profileEnv(t)
	cardterm(t, env, "profile", "add", "agent", "--start", "support", "--read-only")
	cardterm(t, env, "profile", "add", "demo")
	tm := startTerm(t, env, "--profile", "agent")
	s := tm.waitFor("Support console", "profile agent", "READ-ONLY")
	if strings.Contains(s, "Sign in to the Card and Wallet Gateway") {
		t.Fatalf("a start: support profile opened the sign-in screen:\n%s", s)
	}
	// The switcher works from the console too; the other profile starts
	// on the sign-in screen, and --read-only came from the profile only.
	tm.send("C-p")
	tm.waitFor("Switch profile", "agent (in use)")
	tm.send("Down", "Enter")
	s = tm.waitFor("profile demo", "Sign in to the Card and Wallet Gateway")
	if strings.Contains(s, "READ-ONLY") {
		t.Fatalf("the first profile's read-only mode followed the switch:\n%s", s)
	}
}

func TestReadOnlyFromTheCommandLineOutlastsASwitch(t *testing.T) {
	env := profileEnv(t)
	cardterm(t, env, "profile", "add", "one")
	cardterm(t, env, "profile", "add", "two", "--client-key", "ck_sandbox_globex")
	tm := startTerm(t, env, "--profile", "one", "--read-only")
	tm.waitFor("profile one", "READ-ONLY")
	tm.send("C-p")
	tm.waitFor("Switch profile")
	tm.send("Down", "Enter")
	tm.waitFor("profile two", "gus@globex.test", "READ-ONLY")
}

func TestCtrlCInterruptsTheSecretKeyPrompt(t *testing.T) {
	remote := newNotTheSandbox(t, "http://"+startSandbox(t).addr).url
	env := profileEnv(t)
	cardterm(t, env, "profile", "add", "remote", "--base-url", remote, "--no-secret")
	for _, tc := range []struct {
		args   []string
		prompt string
	}{
		{[]string{"--profile", "remote"}, "Secret key (x-secret-key"},
		{[]string{"profile", "add", "other", "--base-url", remote}, "Secret key of \"other\""},
	} {
		tm := startTerm(t, env, tc.args...)
		if tc.args[0] == "profile" {
			// On a terminal profile add first asks about the default.
			tm.waitFor(`Make "other" the default profile instead of "remote"? [y/N]`)
			tm.send("Enter")
		}
		tm.waitFor(tc.prompt)
		tm.send("C-c")
		deadline := time.Now().Add(e2eWait)
		for exec.Command("tmux", "-S", tm.socket, "has-session").Run() == nil {
			if time.Now().After(deadline) {
				t.Fatalf("cardterm %v: ctrl+c did not end the prompt:\n%s", tc.args, tm.screen())
			}
			time.Sleep(40 * time.Millisecond)
		}
	}
}
