package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	qrcode "github.com/skip2/go-qrcode"

	"cardterm/ui/uitest"
)

// The end-to-end tests build the real binary and drive it in tmux the way a
// user would: type keys, read the screen.

var binary string

// termSeq numbers the tmux servers of a run.
var termSeq atomic.Int64

// e2eWait bounds every wait for the screen, a listener or a file. It only
// matters when something is wrong, so it is generous: a loaded 2-core CI
// machine running the other packages' tests at the same time is slow, and
// some journeys wait seconds of gateway time (latency, order polling).
const e2eWait = 30 * time.Second

func TestMain(m *testing.M) {
	// Nothing of this machine's settings (a default profile, CARDTERM_*,
	// a proxy, a browser) reaches the app under test.
	unseal, err := uitest.Seal()
	if err != nil {
		fmt.Fprintln(os.Stderr, "sealing the tests:", err)
		os.Exit(1)
	}
	dir, err := os.MkdirTemp("", "cardterm-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "cardterm")
	build := exec.Command("go", "build", "-o", binary, "cardterm")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building cardterm:", err)
		_ = os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	unseal()
	os.Exit(code)
}

// tmuxTerm is one tmux session running cardterm on a private tmux server.
type tmuxTerm struct {
	t      *testing.T
	socket string
}

// binaryCommand runs the built binary with the test's own HOME and XDG
// folders (uitest.TestEnv); a test that sets cmd.Env keeps them first.
func binaryCommand(t testing.TB, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), uitest.TestEnv(t)...)
	return cmd
}

// runPiped runs the built binary with args, sealed (binaryCommand) and
// with env added, stdin as given (nil: none) and its output piped: what
// a script sees. It returns stdout, stderr and the exit code.
func runPiped(t *testing.T, env []string, stdin io.Reader, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := binaryCommand(t, args...)
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin = stdin
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

// sealedRun is runPiped with no stdin.
func sealedRun(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runPiped(t, env, nil, args...)
}

// startTerm runs the command line in a fresh 120x40 tmux session.
func startTerm(t *testing.T, env []string, args ...string) *tmuxTerm {
	t.Helper()
	return startTmux(t, env, append([]string{binary}, args...)...)
}

// startShell runs a shell command line in a fresh 120x40 tmux session, for
// commands that end (startTerm's session ends with its program).
func startShell(t *testing.T, env []string, line string) *tmuxTerm {
	t.Helper()
	return startTmux(t, env, "sh", "-c", line)
}

// startTmux runs argv with env in a fresh 120x40 tmux session on a private
// tmux server, killed when the test ends.
func startTmux(t *testing.T, env []string, argv ...string) *tmuxTerm {
	t.Helper()
	return startTmuxSized(t, "120", "40", env, argv...)
}

// startTermSized runs the command line in a fresh tmux session of
// width x height: a test of another size starts at it rather than
// resizing a terminal the app may still be starting in.
func startTermSized(t *testing.T, width, height string, env []string, args ...string) *tmuxTerm {
	t.Helper()
	return startTmuxSized(t, width, height, env, append([]string{binary}, args...)...)
}

// startTmuxSized is startTmux at width x height.
func startTmuxSized(t *testing.T, width, height string, env []string, argv ...string) *tmuxTerm {
	t.Helper()
	env = append(uitest.TestEnv(t), env...)
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatalf("tmux is required for the end-to-end tests: %v", err)
	}
	// The server's socket lives in the run's temp dir (tmux leaves socket
	// files behind in /tmp/tmux-UID otherwise, one per test); -f /dev/null:
	// the user's ~/.tmux.conf must not change what the tests see.
	tm := &tmuxTerm{t: t, socket: filepath.Join(filepath.Dir(binary), fmt.Sprintf("tmux-%d", termSeq.Add(1)))}
	cmdArgs := []string{"-f", "/dev/null", "-S", tm.socket, "new-session", "-d", "-x", width, "-y", height, "-e", "TERM=xterm-256color"}
	for _, e := range env {
		cmdArgs = append(cmdArgs, "-e", e)
	}
	cmdArgs = append(cmdArgs, argv...)
	if out, err := exec.Command("tmux", cmdArgs...).CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	t.Cleanup(func() {
		_ = exec.Command("tmux", "-S", tm.socket, "kill-server").Run()
		_ = os.Remove(tm.socket)
	})
	return tm
}

// send types tmux key names ("Enter", "Tab", "f", "C-c") or literal text.
func (tm *tmuxTerm) send(keys ...string) {
	tm.t.Helper()
	args := append([]string{"-S", tm.socket, "send-keys", "-t", "0"}, keys...)
	if out, err := exec.Command("tmux", args...).CombinedOutput(); err != nil {
		tm.t.Fatalf("tmux send-keys %v: %v: %s", keys, err, out)
	}
}

// open opens a screen by its name through the go-to prompt (:), so no
// test depends on the screen's place in the navigation.
func (tm *tmuxTerm) open(screen string) {
	tm.t.Helper()
	tm.send(":")
	tm.typeText(screen)
	tm.send("Enter")
}

// typeText types text literally (no key-name lookup).
func (tm *tmuxTerm) typeText(text string) {
	tm.t.Helper()
	tm.send("-l", text)
}

func (tm *tmuxTerm) screen() string {
	out, err := exec.Command("tmux", "-S", tm.socket, "capture-pane", "-p", "-t", "0").CombinedOutput()
	if err != nil {
		return ""
	}
	return string(out)
}

// waitFor waits until every text is on screen and returns the screen.
func (tm *tmuxTerm) waitFor(texts ...string) string {
	tm.t.Helper()
	deadline := time.Now().Add(e2eWait)
	for {
		s := tm.screen()
		missing := ""
		for _, text := range texts {
			if !strings.Contains(s, text) {
				missing = text
				break
			}
		}
		if missing == "" {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("waiting for %q; the screen shows:\n%s", missing, s)
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// signInAndCheckCard runs the journey both gateways share once the
// sign-in form holds alice's credentials: account, card, freeze, unfreeze,
// sign out.
func signInAndCheckCard(t *testing.T, tm *tmuxTerm) {
	tm.send("Enter")
	tm.waitFor("Alice", "VERIFIED", "alice@demo.test")

	tm.open("Card")
	tm.waitFor("ACTIVE", "4242", "ALICE MARTIN")

	tm.send("f")
	tm.waitFor("Freeze the card", "POST /v1/card/freeze", "declined")
	tm.send("f") // a second press while confirming sends nothing more
	tm.send("y")
	s := tm.waitFor("FROZEN")
	if strings.Contains(s, "Freeze the card") {
		t.Fatalf("dialog still open after confirming:\n%s", s)
	}

	tm.confirm("f", "Unfreeze the card", "authorizations resume")
	tm.waitFor("ACTIVE", "card unfrozen")

	tm.confirm("S", "Sign out?")
	tm.waitFor("Sign in to the Card and Wallet Gateway", "Signed out")
}

func TestEmbeddedSandboxJourney(t *testing.T) {
	tm := startTerm(t, nil)
	s := tm.waitFor("SANDBOX", "Sandbox demo accounts", "alice@demo.test")
	if !strings.Contains(s, "•••••••••") {
		t.Fatalf("the prefilled password should show masked:\n%s", s)
	}
	signInAndCheckCard(t, tm)
}

func TestSeparateSandboxThroughBaseURL(t *testing.T) {
	sb := startSandbox(t)
	addr := sb.addr
	for _, want := range []string{"http://" + addr, "ck_sandbox_acme", "alice@demo.test"} {
		if !strings.Contains(sb.described, want) {
			t.Fatalf("cardterm sandbox output lacks %q:\n%s", want, sb.described)
		}
	}

	// Nothing is asked at start; the first answer (a refused sign-in)
	// announces the sandbox: SANDBOX, no longer PRODUCTION, although it
	// is reached through --base-url without an environment.
	tm := startTerm(t, []string{"CARDTERM_SECRET_KEY=sk_sandbox_acme"},
		"--base-url", "http://"+addr, "--client-key", "ck_sandbox_acme")
	tm.waitFor("Sign in to the Card and Wallet Gateway", "Not asked anything yet")
	tm.signInWithForm("alice@demo.test", "wrong-password")
	s := tm.waitFor("Sign-in refused", "It announced itself as the cardterm sandbox", "SANDBOX")
	if !strings.Contains(s, "alice@demo.test") || strings.Contains(s, "PRODUCTION") {
		t.Fatalf("after a failed sign-in: the username typed must stay, and an announced sandbox is no production:\n%s", s)
	}
	// Clear the wrong password and type the right one.
	tm.send("C-u")
	tm.typeText("demo-pass")
	signInAndCheckCard(t, tm)
}

func TestRejectedClientKeys(t *testing.T) {
	remote := newNotTheSandbox(t, "http://"+startSandbox(t).addr).url

	for _, tc := range []struct {
		name, key, want string
	}{
		{"unknown key", "ck_nobody", "does not recognise this client key"},
		// Caught before sending, naming the setting to change.
		{"missing key", "", "no client key is configured: set --client-key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tm := startTerm(t, []string{"CARDTERM_SECRET_KEY=", "CARDTERM_CLIENT_KEY="},
				"--base-url", remote, "--client-key="+tc.key)
			tm.waitFor("Sign in to the Card and Wallet Gateway")
			tm.signInWithForm("alice@demo.test", "demo-pass")
			s := tm.waitFor(tc.want)
			if !strings.Contains(s, "alice@demo.test") {
				t.Fatalf("the username typed must stay:\n%s", s)
			}
		})
	}
}

func TestVersionAndHelp(t *testing.T) {
	out, err := binaryCommand(t, "--version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "cardterm ") {
		t.Fatalf("--version: %v %q", err, out)
	}
	out, err = binaryCommand(t, "--help").CombinedOutput()
	if err != nil {
		t.Fatalf("--help exits non-zero: %v", err)
	}
	for _, want := range []string{"--base-url", "--client-key", "--us", "--read-only", "CARDTERM_SECRET_KEY", "cardterm sandbox"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("--help lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "--secret-key") {
		t.Errorf("the secret key must never be a flag:\n%s", out)
	}
	out, err = binaryCommand(t, "--no-such-flag").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "no-such-flag") {
		t.Fatalf("an unknown flag must fail and say which: %v %q", err, out)
	}
	out, err = binaryCommand(t, "frobnicate").CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(string(out), "frobnicate") {
		t.Fatalf("an unknown command must fail with 2 and say which: %v %q", err, out)
	}
}

// BenchmarkStartToFirstFrame measures what happens between start and the
// first frame: starting the embedded sandbox gateway, wiring the client and
// screens, Init, the first window size and View. Budget: 100 ms.
func BenchmarkStartToFirstFrame(b *testing.B) {
	for b.Loop() {
		app, err := newApp(options{timeout: time.Second}, nil, io.Discard)
		if err != nil {
			b.Fatal(err)
		}
		m := app.root
		_ = m.Init()
		m, _ = m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		if !strings.Contains(m.View().Content, "SANDBOX") {
			b.Fatal("the first frame does not show the sandbox sign-in")
		}
		app.close()
	}
}

// TestEscCancelsSlowRequests runs against a gateway that takes 3 s to
// answer: the screen says it is working at once, and esc cancels.
func TestEscCancelsSlowRequests(t *testing.T) {
	addr := startSandbox(t, "--latency", "3s").addr

	tm := startTerm(t, []string{"CARDTERM_SECRET_KEY=sk_sandbox_acme"},
		"--base-url", "http://"+addr, "--client-key", "ck_sandbox_acme")
	tm.waitFor("Sign in to the Card and Wallet Gateway")
	tm.signInWithForm("alice@demo.test", "demo-pass")
	tm.waitFor("Signing in")
	tm.send("Escape")
	s := tm.waitFor("Sign-in cancelled")
	if !strings.Contains(s, "alice@demo.test") {
		t.Fatalf("the form must keep what was typed:\n%s", s)
	}

	tm.send("Enter")
	tm.waitFor("Alice Martin") // the slow sign-in and profile, uncancelled
	tm.open("Card")
	tm.waitFor("Loading card")
	tm.send("Escape")
	tm.waitFor("cancelled")
}

// sandboxProc is a `cardterm sandbox` process of one test.
type sandboxProc struct {
	cmd       *exec.Cmd
	addr      string        // host:port it listens on
	described string        // what it printed on start
	done      chan struct{} // closed once it has exited
	out       *syncBuffer   // stdout and stderr
	err       error         // Wait's answer, once done is closed
}

var baseURLRE = regexp.MustCompile(`Base URL\s+http://(\S+)`)

// startSandbox runs `cardterm sandbox` on a port the kernel picks (no race
// for a port chosen in advance) and waits until it says where it listens;
// the process is killed and reaped when the test ends.
func startSandbox(t *testing.T, args ...string) *sandboxProc {
	t.Helper()
	sb := &sandboxProc{
		cmd:  binaryCommand(t, append([]string{"sandbox", "--addr", "127.0.0.1:0"}, args...)...),
		done: make(chan struct{}),
		out:  &syncBuffer{},
	}
	sb.cmd.Stdout, sb.cmd.Stderr = sb.out, sb.out
	if err := sb.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { sb.err = sb.cmd.Wait(); close(sb.done) }()
	t.Cleanup(func() { _ = sb.cmd.Process.Kill(); <-sb.done })
	deadline := time.After(e2eWait)
	for {
		out := sb.out.String()
		if strings.Contains(out, "ctrl+c") {
			m := baseURLRE.FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("cardterm sandbox printed no base URL:\n%s", out)
			}
			sb.addr, sb.described = m[1], out
			return sb
		}
		select {
		case <-sb.done:
			t.Fatalf("cardterm sandbox exited: %v\n%s", sb.err, sb.out.String())
		case <-deadline:
			t.Fatalf("cardterm sandbox did not start:\n%s", out)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func TestSandboxStopsCleanlyOnSIGTERM(t *testing.T) {
	sb := startSandbox(t)
	if c, err := net.DialTimeout("tcp", sb.addr, 5*time.Second); err != nil {
		t.Fatalf("nothing listens on %s: %v", sb.addr, err)
	} else {
		_ = c.Close()
	}
	if err := sb.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-sb.done:
	case <-time.After(e2eWait):
		t.Fatalf("cardterm sandbox did not stop on SIGTERM:\n%s", sb.out.String())
	}
	if sb.err != nil {
		t.Fatalf("cardterm sandbox on SIGTERM: %v (want exit 0)\n%s", sb.err, sb.out.String())
	}

	out, err := binaryCommand(t, "sandbox", "--addr", "127.0.0.1:0", "extra").CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(string(out), "extra") {
		t.Fatalf("cardterm sandbox with a stray argument: %v %q", err, out)
	}
}

// browserRecorder writes a $BROWSER script that appends the URL it is given
// to a file, and returns the env entry and a function reading the URLs.
func browserRecorder(t *testing.T) (string, func() []string) {
	t.Helper()
	dir := t.TempDir()
	log := filepath.Join(dir, "opened.txt")
	script := filepath.Join(dir, "browser.sh")
	body := "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '" + log + "'\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return "BROWSER=" + script, func() []string {
		b, _ := os.ReadFile(log)
		return strings.Fields(string(b))
	}
}

// waitOpened waits until the browser script has recorded n URLs.
func waitOpened(t *testing.T, opened func() []string, n int) []string {
	t.Helper()
	deadline := time.Now().Add(e2eWait)
	for {
		if got := opened(); len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("the browser was not opened %d times: %v", n, opened())
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// httpStatus fetches an http:// URL with a plain HTTP/1.0 request and
// returns the status code.
func httpStatus(t *testing.T, raw string) int {
	t.Helper()
	rest, ok := strings.CutPrefix(raw, "http://")
	if !ok {
		t.Fatalf("not an http URL: %q", raw)
	}
	host, path, _ := strings.Cut(rest, "/")
	conn, err := net.DialTimeout("tcp", host, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprintf(conn, "GET /%s HTTP/1.0\r\nHost: %s\r\n\r\n", path, host)
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	var code int
	if _, err := fmt.Sscanf(line, "HTTP/1.%d %d", new(int), &code); err != nil {
		t.Fatalf("status line %q: %v", line, err)
	}
	_, _ = io.Copy(io.Discard, conn)
	return code
}

func TestE2ESetPINAndViewPIN(t *testing.T) {
	env, opened := browserRecorder(t)
	tm := startTerm(t, []string{env})
	tm.waitFor("Sandbox demo accounts", "alice@demo.test")
	tm.send("Enter")
	tm.waitFor("Alice", "VERIFIED")
	tm.open("Card")
	tm.waitFor("ACTIVE", "4242")

	tm.send("p")
	tm.waitFor("opened in the browser", "link valid for", "single use")
	urls := waitOpened(t, opened, 1)
	page := urls[0]
	if !strings.Contains(page, "/pin-direct/set?token=") {
		t.Fatalf("set-PIN opened %q", page)
	}
	if code := httpStatus(t, page); code != 200 {
		t.Fatalf("first visit: %d", code)
	}
	if code := httpStatus(t, page); code != 410 {
		t.Fatalf("second visit must be refused: %d", code)
	}

	tm.send("v") // nothing to choose: the PIN image opens at once
	s := tm.waitFor("PIN image opened in the browser")
	urls = waitOpened(t, opened, 2)
	img := urls[1]
	// The browser got a one-time loopback address, not the single-use image
	// URL: that never shows in a process argument.
	if !strings.Contains(img, "127.0.0.1") || !strings.Contains(img, "/open/") || strings.Contains(img, "token=") {
		t.Fatalf("view PIN opened %q", img)
	}
	for i := 0; i < 5; i++ {
		if strings.Contains(s, "details-image") || strings.Contains(s, "/open/") {
			t.Fatalf("a PIN image link is on screen:\n%s", s)
		}
		time.Sleep(100 * time.Millisecond)
		s = tm.screen()
	}
	if code := httpStatus(t, img); code != 303 {
		t.Fatalf("the one-time address answered %d, want a redirect", code)
	}
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	if resp, err := noFollow.Get(img); err == nil {
		resp.Body.Close()
		if resp.StatusCode == http.StatusSeeOther {
			t.Fatal("the one-time address redirected twice")
		}
	}
}

func TestE2EOrderCardReplacesBlocked(t *testing.T) {
	tm := startTerm(t, nil)
	signInAs(tm, "bruno@demo.test")
	tm.waitFor("Bruno", "VERIFIED")
	tm.open("Card")
	tm.waitFor("BLOCKED", "0005")
	tm.confirm("n", "Order a new virtual card?", "POST /v1/card/order")
	s := tm.waitFor("ACTIVE", "new card ordered")
	if strings.Contains(s, "BLOCKED") {
		t.Fatalf("the BLOCKED card is still shown:\n%s", s)
	}
}

func TestE2ETransactionsFilterAndPage(t *testing.T) {
	tm := startTerm(t, nil)
	tm.waitFor("Sandbox demo accounts", "alice@demo.test")
	tm.send("Enter")
	tm.waitFor("Alice", "VERIFIED")
	tm.open("Transactions")
	tm.waitFor("Transactions", "page 1", "row 1 of 50", "Selected transaction")
	tm.send("f")
	tm.waitFor("Filter transactions", "Category")
	tm.send("Tab", "Tab", "Tab")
	tm.typeText("groceries,restaurants")
	tm.send("Enter")
	s := tm.waitFor("category GROCERIES,RESTAURANTS", "page 1", "row 1 of 50")
	for _, other := range []string{"TRAVEL", "SHOPPING", "TRANSPORT", "UTILITIES"} {
		if strings.Contains(s, other) {
			t.Fatalf("filtered list shows %s:\n%s", other, s)
		}
	}
	tm.send("n")
	s = tm.waitFor("page 2", "category GROCERIES,RESTAURANTS")
	if strings.Contains(s, "TRAVEL") || strings.Contains(s, "no more transactions") {
		t.Fatalf("page 2 lost the filter:\n%s", s)
	}
	tm.send("p")
	tm.waitFor("page 1", "category GROCERIES,RESTAURANTS")
}

// signInAs replaces the prefilled demo username with user and signs in (all
// demo accounts share the prefilled password).
func signInAs(tm *tmuxTerm, user string) {
	tm.waitFor("Sandbox demo accounts")
	tm.send("Tab") // the keys start on the demo accounts: tab to the username
	tm.send("C-u")
	tm.typeText(user)
	tm.send("C-s")                // ctrl+s signs in from any field
	tm.waitFor(user, "1 Account") // the navigation: signed in
}

func TestWalletsLinkUntilFiveAndSixthRefused(t *testing.T) {
	tm := startTerm(t, nil)
	signInAs(tm, "lena@demo.test")
	tm.open("Wallets")
	tm.waitFor("5 of 5 linked to the card", "linked #5")
	tm.confirm("u", "Unlink the USDC wallet from the card?", "DELETE /v1/wallet/internal/card_linked")
	tm.waitFor("4 of 5 linked to the card", "unlinked")
	tm.confirm("l", "Link the USDC wallet to the card?", "POST /v1/wallet/internal/card_linked")
	tm.waitFor("5 of 5 linked to the card", "linked to the card")
	tm.send("G")
	tm.send("l")
	tm.waitFor("cannot link another wallet: 5 of 5 are linked", "unlink one first (u)")
}

func TestWhitelistAddTwoBadAddressDeleteBoth(t *testing.T) {
	tm := startTerm(t, nil)
	signInAs(tm, "alice@demo.test")
	tm.open("Whitelist")
	tm.waitFor("2 approved withdrawal addresses", "Savings")

	entry := func(name, first, last, addr string) {
		tm.typeText(name)
		tm.send("Tab")
		tm.typeText(first)
		tm.send("Tab")
		tm.typeText(last)
		tm.send("Tab")
		tm.typeText(addr)
	}
	tm.send("a")
	tm.waitFor("Add whitelist entries")
	entry("Rent", "Ann", "Lee", "0x00000000219ab540356cBB839Cbe05303d7705Fa")
	tm.send("C-n")
	tm.waitFor("Entry 2")
	entry("Gym", "Bo", "Ek", "0xBE0eB53F46cd790Cd13851d5EFf43D12404d33E8")
	tm.confirm("C-s", "Add 2 whitelist entries?", "POST /v1/wallet/whitelist")
	tm.waitFor("4 approved withdrawal addresses", "Rent", "Ann Lee", "Gym", "Bo Ek", "added 2 whitelist entries")

	// A bad address: nothing is sent, the form stays filled, the entry is marked.
	tm.send("a")
	tm.waitFor("Add whitelist entries")
	entry("Broken", "Cy", "Do", "0x123")
	tm.send("C-s")
	tm.waitFor("Fix the marked fields", "✗ Entry 1", "invalid address format", "Broken", "0x123")
	tm.send("Escape")
	tm.waitFor("4 approved withdrawal addresses")

	// Mark both new entries (rows 3 and 4) and delete them.
	tm.send("j", "j", "Space", "j", "Space")
	tm.waitFor("2 marked")
	tm.confirm("x", "Delete 2 whitelist entries?", "Rent", "Gym")
	s := tm.waitFor("2 approved withdrawal addresses", "deleted 2 whitelist entries")
	if strings.Contains(s, "Ann Lee") || strings.Contains(s, "Bo Ek") {
		t.Fatalf("deleted entries still listed:\n%s", s)
	}
}

func TestWithdrawShowsTxHashAndNewBalance(t *testing.T) {
	tm := startTerm(t, nil)
	signInAs(tm, "alice@demo.test")
	tm.open("Wallets")
	tm.waitFor("500.00 USDC", "WITHDRAWABLE")
	tm.send("w")
	tm.waitFor("Withdraw from the credit wallet", "0.45 USDC")
	tm.typeText("100")
	tm.waitFor("will arrive: 99.55 USDC")
	tm.confirm("Enter", "Withdraw 100 USDC?", "Network fee:  0.45 USDC", "Will arrive:  99.55 USDC")
	tm.waitFor("Tx hash  0x", "400.00 USDC", "Arrives  99.55 USDC", "withdrawal sent")
}

// A wallet reorder asks first, says what the gateway forces, and leaves
// every wallet linked.
func TestWalletReorderAsksFirstAndKeepsAllLinked(t *testing.T) {
	tm := startTerm(t, nil)
	signInAs(tm, "lena@demo.test")
	tm.open("Wallets")
	tm.waitFor("5 of 5 linked to the card")
	tm.send("j", "J")
	tm.waitFor("Move the USDT wallet to priority #3?", "unlinked and linked again")
	tm.send("y")
	tm.waitFor("USDT wallet is now priority #3", "5 of 5 linked to the card", "#3 USDT")
}

// --- OAuth sign-in (issue 4) ---
//
// The browser of these tests is the test binary itself: BROWSER points to a
// script that re-executes it with CARDTERM_TEST_BROWSER=1, and init below
// then plays the user in the browser with net/http instead of running tests.

func init() {
	if os.Getenv("CARDTERM_TEST_BROWSER") == "1" {
		os.Exit(testBrowser(os.Args[len(os.Args)-1], os.Getenv("CARDTERM_TEST_BROWSER_OUT"), os.Getenv("CARDTERM_TEST_BROWSER_MODE")))
	}
}

// testBrowser follows the sign-in link: it records the link, opens the
// hosted page, posts alice's credentials and, in loopback mode, follows the
// redirect to cardterm's callback; in phone mode it records the code shown.
func testBrowser(link, out, mode string) int {
	save := func(name, data string) {
		tmp := filepath.Join(out, name+".tmp")
		_ = os.WriteFile(tmp, []byte(data), 0o600)
		_ = os.Rename(tmp, filepath.Join(out, name))
	}
	fail := func(err error) int { save("error", err.Error()); return 1 }
	save("url", link)
	hc := &http.Client{Timeout: 10 * time.Second}
	resp, err := hc.Get(link)
	if err != nil {
		return fail(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := regexp.MustCompile(`name="session" value="([^"]+)"`).FindSubmatch(page)
	if m == nil {
		return fail(fmt.Errorf("no sign-in form at %s:\n%s", link, page))
	}
	u, _ := url.Parse(link)
	form := url.Values{"session": {string(m[1])}, "username": {"alice@demo.test"}, "password": {"demo-pass"}}
	if mode == "phone" {
		form.Set("device", "phone")
	}
	resp, err = hc.PostForm(u.Scheme+"://"+u.Host+"/oauth/sign-in", form) // follows the redirect to the loopback
	if err != nil {
		return fail(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if mode == "phone" {
		c := regexp.MustCompile(`id="code">([A-Z0-9]{5}-[A-Z0-9]{5})<`).FindSubmatch(body)
		if c == nil {
			return fail(fmt.Errorf("no code on the page:\n%s", body))
		}
		save("code", string(c[1]))
		return 0
	}
	save("callback", resp.Request.URL.Host+"\n"+string(body))
	return 0
}

// testBinaryAsBrowser writes a BROWSER script into a temp dir that runs
// this test binary with marker=1 set (its init then plays the browser),
// and returns the script and the dir.
func testBinaryAsBrowser(t *testing.T, marker string) (script, dir string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	script = filepath.Join(dir, "browser")
	body := fmt.Sprintf("#!/bin/sh\n%s=1 exec '%s' \"$@\"\n", marker, exe)
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		t.Fatal(err)
	}
	return script, dir
}

// browserEnv writes the BROWSER script into a temp dir and returns the
// environment for startTerm and the dir the browser reports into.
func browserEnv(t *testing.T, mode string) ([]string, string) {
	t.Helper()
	script, dir := testBinaryAsBrowser(t, "CARDTERM_TEST_BROWSER")
	return []string{"BROWSER=" + script, "CARDTERM_TEST_BROWSER_OUT=" + dir, "CARDTERM_TEST_BROWSER_MODE=" + mode}, dir
}

// waitFile waits for the browser to write name and returns its content.
func waitFile(t *testing.T, dir, name string) string {
	t.Helper()
	deadline := time.Now().Add(e2eWait)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			return string(b)
		}
		if b, err := os.ReadFile(filepath.Join(dir, "error")); err == nil {
			t.Fatalf("the test browser failed: %s", b)
		}
		time.Sleep(40 * time.Millisecond)
	}
	t.Fatalf("the test browser wrote no %s", name)
	return ""
}

// startOAuth starts the app with a $BROWSER that plays the user's part of
// an OAuth sign-in in mode (browserEnv) and presses ctrl+o on the sign-in
// form; dir holds what that browser saw.
func startOAuth(t *testing.T, mode string) (tm *tmuxTerm, dir string) {
	t.Helper()
	env, dir := browserEnv(t, mode)
	tm = startTerm(t, env)
	tm.waitFor("Sign in to the Card and Wallet Gateway", "ctrl+o")
	tm.send("C-o")
	return tm, dir
}

func TestOAuthSignInThroughBrowserE2E(t *testing.T) {
	tm, dir := startOAuth(t, "loopback")
	// No key press after ctrl+o: the browser comes back to the loopback.
	tm.waitFor("Alice", "VERIFIED", "alice@demo.test")
	cb := waitFile(t, dir, "callback")
	if !strings.HasPrefix(cb, "127.0.0.1:") || !strings.Contains(cb, "You can close this tab") {
		t.Fatalf("the browser's callback page:\n%s", cb)
	}
	// The listener is closed afterwards.
	host := strings.SplitN(cb, "\n", 2)[0]
	if c, err := net.DialTimeout("tcp", host, time.Second); err == nil {
		same := c.LocalAddr().String() == c.RemoteAddr().String()
		c.Close()
		if !same {
			t.Fatalf("the loopback listener %s is still open", host)
		}
	}
	// Signing out of an OAuth session revokes it.
	tm.confirm("S", "Sign out?")
	tm.waitFor("Sign in to the Card and Wallet Gateway", "revoked")
}

func TestOAuthPhoneCodeAndQRCodeE2E(t *testing.T) {
	tm, dir := startOAuth(t, "phone")
	tm.waitFor("Sign in with browser / phone", "Code shown on the phone")
	link := waitFile(t, dir, "url")
	code := waitFile(t, dir, "code")

	want := qrBits(t, link)
	screen := tm.waitFor("Waiting for the browser")
	if got := decodeScreenQR(screen); !uitest.SameBits(got, want) {
		t.Fatalf("the QR code on screen is not the sign-in link %s:\n%s", link, screen)
	}
	// It fits an 80x24 terminal too.
	if out, err := exec.Command("tmux", "-S", tm.socket, "resize-window", "-t", "0", "-x", "80", "-y", "24").CombinedOutput(); err != nil {
		t.Fatalf("resize: %v %s", err, out)
	}
	deadline := time.Now().Add(e2eWait)
	for {
		s := tm.screen()
		if len(strings.Split(strings.TrimRight(s, "\n"), "\n")) <= 24 && uitest.SameBits(decodeScreenQR(s), want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no whole QR code at 80x24:\n%s", s)
		}
		time.Sleep(50 * time.Millisecond)
	}
	tm.typeText(strings.ToLower(code))
	tm.send("Enter")
	tm.waitFor("Alice", "VERIFIED")
}

func TestOAuthCancelAndSecretKeyE2E(t *testing.T) {
	tm, _ := startOAuth(t, "phone")
	tm.waitFor("Code shown on the phone")
	tm.send("Escape")
	tm.waitFor("Sign-in with the browser cancelled", "Username")
	// the form still works
	tm.send("Enter")
	tm.waitFor("Alice", "VERIFIED")

	// a remote gateway without the secret key says what is missing
	remote := newNotTheSandbox(t, "http://"+startSandbox(t).addr).url
	tm2 := startTerm(t, []string{"CARDTERM_SECRET_KEY="}, "--base-url", remote, "--client-key", "ck_sandbox_acme")
	tm2.waitFor("Sign in to the Card and Wallet Gateway")
	tm2.send("C-o")
	tm2.waitFor("CARDTERM_SECRET_KEY")
}

func TestOAuthAgainstBaseURLE2E(t *testing.T) {
	addr := startSandbox(t).addr
	env, _ := browserEnv(t, "loopback")
	tm := startTerm(t, append(env, "CARDTERM_SECRET_KEY=sk_sandbox_acme"), "--base-url", "http://"+addr, "--client-key", "ck_sandbox_acme")
	tm.waitFor("Sign in to the Card and Wallet Gateway", addr)
	tm.send("C-o")
	tm.waitFor("Alice", "VERIFIED")
}

// qrBits is the module matrix go-qrcode makes for link, as the app does.
func qrBits(t *testing.T, link string) [][]bool {
	t.Helper()
	q, err := qrcode.New(link, qrcode.Low)
	if err != nil {
		t.Fatal(err)
	}
	q.DisableBorder = true
	return q.Bitmap()
}

// decodeScreenQR reads the half-block QR code off a captured screen: the
// consecutive lines holding block characters.
func decodeScreenQR(screen string) [][]bool {
	var lines []string
	for _, line := range strings.Split(screen, "\n") {
		if strings.ContainsAny(line, "█▀▄") {
			lines = append(lines, line)
		} else if len(lines) > 0 {
			break
		}
	}
	return uitest.DecodeHalfBlocks(lines)
}

// TestDelegationFaucetAndChainConfigE2E: alice asks for a token with gas on
// linea and sees it confirmed with the token masked; faye, who used the
// faucet already, sees the 207 explained; the chain configuration browses.
func TestDelegationFaucetAndChainConfigE2E(t *testing.T) {
	const addr = "0x52908400098527886E0F7030069857D2E4169EE7"
	tm := startTerm(t, nil)
	signInAs(tm, "alice@demo.test")
	tm.open("Delegation")
	tm.waitFor("Delegation lets a non-custodial wallet pay with the card")
	tm.send("t")
	tm.waitFor("Request a delegation token", "Network", "linea")
	tm.send("Tab", "Tab") // the form opens with no field chosen: to the network, then the address
	tm.typeText(addr)
	tm.send("Enter") // enter on the last field sends
	tm.waitFor("Request a delegation token with gas?", "faucet=true&network=linea")
	tm.send("y")
	s := tm.waitFor("CONFIRMED", "200 OK", "dlgt_", "(secret; y copies it)", "valid for")
	for _, line := range strings.Split(s, "\n") {
		if i := strings.Index(line, "dlgt_"); i >= 0 {
			if rest := []rune(line[i:]); len(rest) < 7 || rest[6] != '…' {
				t.Fatalf("the token is not masked: %q", line)
			}
		}
	}
	tm.send("c")
	tm.waitFor("Chain configuration", "4 networks", "etherlink", "59141")
	tm.send("j", "Enter")
	tm.waitFor("Decimals", "Contract", "musd", "usdt")
	tm.send("Escape")
	tm.waitFor("enter tokens · n one network")
	tm.send("Escape")
	tm.waitFor("Registered external wallets")

	tm.confirm("S", "Sign out?")
	signInAs(tm, "faye@demo.test")
	tm.open("Delegation")
	tm.send("t", "Tab", "Tab")
	tm.typeText(addr)
	tm.confirm("Enter", "Request a delegation token with gas?")
	tm.waitFor("207 Multi-Status", "DECLINED", "Token issued; the faucet did not pay", "already received")
}

// webhookKeyRE matches a full webhook signing key (never a masked one).
var webhookKeyRE = regexp.MustCompile(`whsec_[0-9a-f]{64}`)

// webhookAdd fills the add form: name, url, card.activated ticked, then saves.
func webhookAdd(tm *tmuxTerm, name, url string) {
	tm.send("a")
	tm.waitFor("Add webhook")
	tm.typeText(name)
	tm.send("Tab")
	tm.typeText(url)
	tm.send("Tab", "Tab", "Space")
	tm.waitFor("[x] card.activated")
	tm.send("C-s")
	tm.waitFor("Add webhook", "POST /v1/webhooks") // every change confirms first
	tm.send("y")
}

func TestWebhooksAddKeyOnceToggleRotateDeleteE2E(t *testing.T) {
	tm := startTerm(t, nil)
	signInAs(tm, "alice@demo.test")
	tm.open("Webhooks")
	tm.waitFor("2 of 5 endpoints", "Ledger sync", "CRM (paused)")
	webhookAdd(tm, "Ops", "https://example.test/hooks")
	s := tm.waitFor(`Signing key of the new webhook "Ops"`, "will not be shown again")
	key := webhookKeyRE.FindString(s)
	if key == "" {
		t.Fatalf("the full key is not shown once:\n%s", s)
	}
	tm.send("Enter")
	s = tm.waitFor("3 of 5 endpoints", "Ops", "example.test/hooks", "● active")
	if strings.Contains(s, key) {
		t.Fatalf("the key is still on screen:\n%s", s)
	}
	tm.send("j", "j", "Enter")
	s = tm.waitFor("Webhook Ops", "whsec_********"+key[len(key)-4:])
	if webhookKeyRE.MatchString(s) {
		t.Fatalf("details show a full key:\n%s", s)
	}
	tm.send("Escape")
	tm.waitFor("row 3 of 3")
	tm.confirm("t", "Turn deliveries to", `{"is_active":false}`)
	tm.waitFor(`PUT {"is_active":false}`, "○ inactive 2")
	tm.confirm("R", `Rotate the signing key of "Ops"?`, "/rotate-key")
	s = tm.waitFor(`New signing key of "Ops"`, "will not be shown again")
	if nk := webhookKeyRE.FindString(s); nk == "" || nk == key {
		t.Fatalf("rotation did not show a new key:\n%s", s)
	}
	tm.send("Escape")
	tm.waitFor("row 3 of 3")
	tm.confirm("x", `Delete webhook "Ops"?`, "Name: Ops", "URL:  https://example.test/hooks")
	tm.waitFor("2 of 5 endpoints", `webhook "Ops" deleted`)
}

func TestWebhooksSixthRefusedE2E(t *testing.T) {
	tm := startTerm(t, nil, "--client-key", "ck_sandbox_globex")
	signInAs(tm, "gus@globex.test")
	tm.open("Webhooks")
	tm.waitFor("4 of 5 endpoints", "Legacy bridge")
	webhookAdd(tm, "Fifth", "https://example.test/5")
	tm.waitFor(`Signing key of the new webhook "Fifth"`)
	tm.send("Enter")
	tm.waitFor("5 of 5 endpoints")
	webhookAdd(tm, "Sixth", "https://example.test/6")
	tm.waitFor("The gateway refused: Maximum of 5 webhook configurations per partner reached (400)", "https://example.test/6")
	tm.send("Escape")
	tm.waitFor("5 of 5 endpoints")
}

// ordPayRE reads the payment fields off the orders screen.
var ordPayRE = regexp.MustCompile(`Pay to\s+(0x[0-9a-fA-F]{40})[\s\S]*Chain id\s+(\d+)[\s\S]*Token\s+USDC (0x[0-9a-fA-F]{40})`)

// TestOrderVirtualCardE2E orders the virtual card as alice, checks the
// payment details and that the QR code on screen is the EIP-681 payment
// link, and waits for the status to become COMPLETED by itself (the
// embedded sandbox completes a virtual card order 6 s after it is placed).
func TestOrderVirtualCardE2E(t *testing.T) {
	tm := startTerm(t, nil)
	signInAs(tm, "alice@demo.test")
	tm.open("Orders")
	tm.waitFor("Orders", "3 products, 2 eligible", "Virtual card, ready in seconds", "✗ not eligible")
	tm.confirm("Enter", "Order Virtual card, ready in seconds?", "POST /v1/order", `"productId": "prod_virtual_card",`)
	s := tm.waitFor("STARTED", "check 1 of 40", "10.00 USD", "QR: payment link (EIP-681)")
	m := ordPayRE.FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no payment details on screen:\n%s", s)
	}
	link := "ethereum:" + m[3] + "@" + m[2] + "/transfer?address=" + m[1] + "&uint256=10000000"
	if got := decodeScreenQR(s); !uitest.SameBits(got, qrBits(t, link)) {
		t.Fatalf("the QR code on screen is not %s:\n%s", link, s)
	}
	// The status polls by itself: the screen's check counter, not the wall
	// clock of a possibly loaded machine, says it completed on the third or
	// fourth check (6 s and 9 s after the first).
	s = tm.waitFor("COMPLETED", "Payment received: the order is complete.")
	if !strings.Contains(s, "check 3 of 40") && !strings.Contains(s, "check 4 of 40") {
		t.Fatalf("COMPLETED after an unexpected number of checks:\n%s", s)
	}
	if strings.Contains(s, "QR:") {
		t.Fatalf("a completed order still shows a payment QR code:\n%s", s)
	}
	tm.send("Escape")
	tm.waitFor("Selected product", "row 1 of 3")
}

var consentUserIDRE = regexp.MustCompile(`User id\s+([0-9a-f-]{36})`)

// TestConsentRevokeAuditAndLinkE2E is the support agent's journey: as alice
// revoke an optional consent (still complete) and a required one (now
// incomplete), page the audit trail, then link the demo onboarding's set to
// frank, and see a second link refused as irreversible.
func TestConsentRevokeAuditAndLinkE2E(t *testing.T) {
	tm := startTerm(t, nil)
	// Learn frank's user id the way an agent would: from his account.
	signInAs(tm, "frank@demo.test")
	m := consentUserIDRE.FindStringSubmatch(tm.waitFor("User id"))
	if m == nil {
		t.Fatalf("no user id on frank's account screen:\n%s", tm.screen())
	}
	frank := m[1]
	tm.confirm("S", "Sign out?")
	signInAs(tm, "alice@demo.test")

	tm.open("Consent")
	tm.waitFor("Consent", "(you)", "complete", "All required consents granted", "marketingNotifications")
	tm.send("j")
	tm.confirm("x", "Revoke marketingNotifications?", "DELETE /v2/consent/consentSet/", "is optional", "stays complete")
	tm.waitFor("⊘ revoked", "revoked marketingNotifications", "All required consents granted")
	tm.send("k")
	tm.confirm("x", "Revoke termsAndPrivacy?", "REQUIRED consent of the global policy", "becomes INCOMPLETE")
	tm.waitFor("incomplete", "Required consent missing, denied or revoked: termsAndPrivacy")

	tm.send("a")
	tm.waitFor("Audit trail", "records 1–50 of 124", "granted → revoked")
	tm.send("n")
	tm.waitFor("records 51–100 of 124")
	tm.send("n")
	tm.waitFor("records 101–124 of 124", "new: granted")
	tm.send("Escape")
	tm.waitFor("Required consent missing")

	tm.send("b")
	tm.waitFor("Look up an onboarding's consent sets")
	tm.typeText("onb-demo-001")
	tm.send("Enter")
	tm.waitFor("onboarding onb-demo-001", "1 consent set, 0 linked to a user")
	link := func() {
		tm.send("L")
		tm.waitFor("Link a consent set to a user")
		tm.typeText(frank)
		tm.confirm("Enter", "PATCH /v2/consent/onboarding/", frank, "cannot be undone")
	}
	link()
	tm.waitFor("1 consent set, 1 linked to a user", "linked · consent status complete")
	link()
	tm.waitFor("already linked; linking cannot be undone", "Consent set already linked (409)")
}

// tapeType reads a VHS line `Type "text" [keys...]`.
// lookupRun runs `cardterm get ... --json` on the embedded sandbox.
func lookupRun(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runPiped(t, env, nil, append(append([]string{"get"}, args...), "--json")...)
}

func TestJSONLookups(t *testing.T) {
	out, _, code := lookupRun(t, nil, "user")
	var user struct{ ID, Email, VerificationState string }
	if err := json.Unmarshal([]byte(out), &user); code != 0 || err != nil || user.Email != "alice@demo.test" || user.VerificationState != "VERIFIED" {
		t.Fatalf("--json user: %d %v %q", code, err, out)
	}

	// Consent look-ups need no signed-in user, only the client key.
	out, _, code = lookupRun(t, []string{"CARDTERM_USERNAME=", "CARDTERM_PASSWORD="}, "consent", user.ID)
	if code != 0 || !strings.Contains(out, `"consentStatus": "complete"`) || !strings.Contains(out, `"consentSets"`) {
		t.Fatalf("--json consent: %d %q", code, out)
	}

	// Unknown gateway fields are kept in the output.
	out, _, code = lookupRun(t, nil, "card")
	if code != 0 || !strings.Contains(out, `"network": "VISA"`) || !strings.Contains(out, `"panLast4": "4242"`) {
		t.Fatalf("--json card: %d %q", code, out)
	}

	// The gateway's refusal: a message and exit 1.
	_, errOut, code := lookupRun(t, []string{"CARDTERM_USERNAME=nora@demo.test", "CARDTERM_PASSWORD=demo-pass"}, "card")
	if code != 1 || !strings.Contains(errOut, "Card not found (404)") {
		t.Fatalf("nora's card: %d %q", code, errOut)
	}

	// Hostile text from the gateway comes out escaped, never raw.
	out, _, code = lookupRun(t, []string{"CARDTERM_USERNAME=mallory@demo.test", "CARDTERM_PASSWORD=demo-pass"}, "user")
	if code != 0 || strings.ContainsAny(out, "\x1b\x07\r") || !strings.Contains(out, `\u001b`) {
		t.Fatalf("mallory's profile is not escaped: %q", out)
	}

	// The gateway's error message on stderr is sanitized too (it echoes the
	// user id it was given here).
	_, errOut, code = lookupRun(t, nil, "consent", "u\x1b[2J\x1b]52;c;aGk=\x07x")
	if code != 1 || errOut == "" || strings.ContainsAny(errOut, "\x1b\x07") {
		t.Fatalf("--json consent with a hostile id: %d %q", code, errOut)
	}

	for _, bad := range [][]string{{}, {"nope"}, {"whitelist"}, {"transactions", "-1"}} {
		_, errOut, code := lookupRun(t, nil, bad...)
		if code == 0 || errOut == "" {
			t.Errorf("--json %v: exit %d, stderr %q; want a usage error", bad, code, errOut)
		}
	}
}
