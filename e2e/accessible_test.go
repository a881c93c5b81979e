package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"cardterm/cli/clitest"
	"cardterm/ui/uitest"
)

// accessibleSession runs `cardterm --accessible` with lines as its input,
// all given at once as a screen reader's user would type them in turn,
// and returns the raw output and the exit code.
func accessibleSession(t *testing.T, lines ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 3*e2eWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "--accessible")
	cmd.Env = append(os.Environ(), uitest.TestEnv(t)...)
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("the session did not end: %v\n%s", err, out.String())
	}
	return out.String(), cmd.ProcessState.ExitCode()
}

// mustHoldNoTerminalControl fails when out holds an escape sequence: no
// alternate screen, no cursor addressing, no colour.
func mustHoldNoTerminalControl(t *testing.T, out string) {
	t.Helper()
	// ESC, carriage return, and CSI as the C1 control U+009B.
	if i := strings.IndexAny(out, "\x1b\r\u009b"); i >= 0 {
		t.Fatalf("the output holds a control character at byte %d (%q):\n%s", i, out[max(i-40, 0):min(i+40, len(out))], out)
	}
}

// In the accessible mode a session (sign in, the card, freeze, quit)
// reads as plain lines: no alternate screen, no cursor addressing, no
// colour; each screen in reading order with its actions as a numbered
// list; the confirmation says the request; input is a line at a time.
func TestAccessibleModeSignInFreezeQuit(t *testing.T) {
	out, code := accessibleSession(t,
		"",      // the demo accounts have the keys: an empty line is enter, alice
		":card", // go to the Card screen by name
		"1",     // the first action listed: f, freeze
		"y",     // confirm
		"q")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	mustHoldNoTerminalControl(t, out)
	for _, want := range []string{
		"== Sign in ==", "1. enter: sign in",
		"== Account ==", "Alice Martin",
		"== Card ==", "Status   ACTIVE", "Actions:", "  1. f: freeze/unfreeze", "  5. v: view PIN",
		"Screens (a number, or :name): 1 Account, 2 Card",
		"Dialog: Freeze the card ending 4242?", "  POST /v1/card/freeze", "  1. y/enter: confirm", "  2. n/esc: cancel",
		"Status   FROZEN", "Notice: card frozen",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the session lacks %q", want)
		}
	}
	for _, drawn := range []string{"┌", "│", "━", "╭"} {
		if strings.Contains(out, drawn) {
			t.Errorf("the session draws boxes (%q): a screen reader reads every corner", drawn)
		}
	}
	if t.Failed() {
		t.Log(out)
	}
}

// Every screen works in the accessible mode: each is reached by name and
// read out with its content and actions, and the support console from
// the sign-in screen; a wrong line is said to be wrong and loses nothing.
func TestAccessibleModeEveryScreen(t *testing.T) {
	screens := map[string]string{
		":transactions": "Selected transaction", ":wallets": "Internal wallets", ":whitelist": "approved withdrawal addresses",
		":delegation": "== Delegation ==", ":orders": "== Orders ==", ":consent": "== Consent ==",
		":webhooks": "== Webhooks ==", ":events": "== Events ==", ":account": "Alice Martin", ":card": "4242",
	}
	lines := []string{"", "frobnicate", "99"}
	for line := range screens {
		lines = append(lines, line)
	}
	out, code := accessibleSession(t, append(lines, "S", "y", "!ctrl+t", "q")...)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	mustHoldNoTerminalControl(t, out)
	for line, want := range screens {
		if !strings.Contains(out, want) {
			t.Errorf("%s: the session lacks %q", line, want)
		}
	}
	for _, want := range []string{
		`"frobnicate" is not a key`, "There is no action 99",
		"== Support console ==", "u: look up a user id",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the session lacks %q", want)
		}
	}
	if strings.Count(out, "Actions:") < len(screens)+2 {
		t.Errorf("not every page lists its actions:\n%s", out)
	}
	if t.Failed() {
		t.Log(out)
	}
}

// SIGINT ends the accessible mode with exit status 130, as ctrl+c does
// in the drawn app.
func TestAccessibleModeInterruptExits130(t *testing.T) {
	cmd := binaryCommand(t, "--accessible")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out clitest.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = stdin.Close(); _ = cmd.Process.Kill() }()
	deadline := time.Now().Add(e2eWait)
	for !strings.Contains(out.String(), "== Sign in ==") {
		if time.Now().After(deadline) {
			t.Fatalf("no first page:\n%s", out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	_ = cmd.Process.Signal(syscall.SIGINT)
	_ = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != exitInterrupted {
		t.Fatalf("exit %d after SIGINT, want %d:\n%s", code, exitInterrupted, out.String())
	}
}

// A webhook whose name and URL are longer than the table's columns is
// read out whole, its row wrapped, in the accessible mode's list: a
// screen reader's user has no other way to learn the rest of a cut cell.
func TestAccessibleModeReadsALongWebhookWhole(t *testing.T) {
	const (
		name = "Ledger synchronisation for the treasury team in Lisbon"
		url  = "hooks.partner-with-a-long-domain.example/v2/ledger/synchronise/cards?tenant=acme-treasury-eu"
	)
	out, code := accessibleSession(t, "", ":webhooks", "a", name, "https://"+url,
		"!space", "!ctrl+s", "y", // tick the first event type, save, confirm
		"!esc", // close the signing key's panel: the list again
		"q")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	list := out[strings.LastIndex(out, "== Webhooks =="):]
	list = list[:strings.Index(list, "row 1 of 3")]
	unwrapped := strings.Join(strings.Fields(list), "")
	for _, want := range []string{name, url} {
		if !strings.Contains(unwrapped, strings.Join(strings.Fields(want), "")) {
			t.Errorf("the list does not read %q whole:\n%s", want, list)
		}
	}
	if strings.Contains(list, "…") {
		t.Errorf("the list cuts a cell:\n%s", list)
	}
	for _, line := range strings.Split(list, "\n") {
		if n := len([]rune(line)); n > 100 {
			t.Errorf("a line is %d characters, wider than the app's 100: %q", n, line)
		}
	}
}
