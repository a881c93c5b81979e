package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"cardterm/ui/uitest"
)

// termSeq numbers the tmux servers of a run.
var termSeq atomic.Int64

// tmuxTerm is one tmux session running cardterm on a private tmux server.
type tmuxTerm struct {
	t      *testing.T
	socket string
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
	// The server's socket lives in the run's short socket folder (tmux
	// leaves socket files behind in /tmp/tmux-UID otherwise, one per test,
	// and a path under a long TMPDIR is too long for a socket); -f /dev/null:
	// the user's ~/.tmux.conf must not change what the tests see.
	tm := &tmuxTerm{t: t, socket: filepath.Join(sockets, fmt.Sprintf("tmux-%d", termSeq.Add(1)))}
	cmdArgs := []string{"-f", "/dev/null", "-S", tm.socket, "new-session", "-d", "-x", width, "-y", height, "-e", "TERM=xterm-256color"}
	for _, e := range env {
		cmdArgs = append(cmdArgs, "-e", e)
	}
	cmdArgs = append(cmdArgs, argv...)
	if out, err := exec.Command("tmux", cmdArgs...).CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	// The program's pid, 0 when it has already ended (a short command).
	out, _ := exec.Command("tmux", "-S", tm.socket, "display-message", "-p", "#{pane_pid}").Output()
	pid, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	t.Cleanup(func() {
		_ = exec.Command("tmux", "-S", tm.socket, "kill-server").Run()
		_ = os.Remove(tm.socket)
		waitGone(pid)
	})
	return tm
}

// waitGone waits, up to 10 s, until process pid has ended: the tmux
// server's end hangs the app up but does not wait for it, and an app still
// writing its files while the test's folders are removed failed the
// removal ("directory not empty").
func waitGone(pid int) {
	for deadline := time.Now().Add(10 * time.Second); pid > 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if ended(pid) {
			return
		}
	}
}

// ended reports whether process pid has ended. A process that outlived
// its tmux server is reaped by the machine's first process, which may take
// seconds in a container: until then it is a zombie, ended all the same.
func ended(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false // no /proc: kill alone says
	}
	_, fields, _ := strings.Cut(string(stat), ") ") // after the command's name
	return strings.HasPrefix(fields, "Z")
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
	return tm.waitForOn(func(s string) string { return s }, texts)
}

// waitForUnwrapped is waitFor for a text the app may wrap at the
// terminal's width, such as a message naming a path under TMPDIR: the
// screen is read with each line trimmed and joined to the next.
func (tm *tmuxTerm) waitForUnwrapped(texts ...string) string {
	tm.t.Helper()
	return tm.waitForOn(unwrap, texts)
}

// waitForOn waits until every text is in read(screen) and returns the
// screen.
func (tm *tmuxTerm) waitForOn(read func(string) string, texts []string) string {
	tm.t.Helper()
	deadline := time.Now().Add(e2eWait)
	for {
		s := tm.screen()
		missing := ""
		for _, text := range texts {
			if !strings.Contains(read(s), text) {
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

// unwrap joins a screen's lines, each trimmed of the margin and padding
// around it, into one line.
func unwrap(screen string) string {
	var b strings.Builder
	for _, line := range strings.Split(screen, "\n") {
		b.WriteString(strings.TrimSpace(line))
	}
	return b.String()
}

// signInAndCheckCard runs the journey both gateways share once the
// sign-in form holds alice's credentials: account, card, freeze, unfreeze,

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

// signInWithForm types a username and a password into the empty sign-in
// form and presses enter.
func (tm *tmuxTerm) signInWithForm(user, password string) {
	tm.t.Helper()
	tm.typeText(user)
	tm.send("Tab")
	tm.typeText(password)
	tm.send("Enter")
}

// confirm presses the key that asks for a change, waits until the
// confirmation shows every text of dialog, and answers y.
func (tm *tmuxTerm) confirm(press string, dialog ...string) {
	tm.t.Helper()
	tm.send(press)
	tm.waitFor(dialog...)
	tm.send("y")
}
