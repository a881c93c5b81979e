package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// SIGHUP (a closed terminal window, a dropped SSH session) ends the app
// the way q does: the terminal leaves the alternate screen, and the exit
// status is the interrupted one.
func TestHangupRestoresTheTerminalE2E(t *testing.T) {
	socket := filepath.Join(t.TempDir(), "tmux")
	script := `"$0"; echo "cardterm exited $?"; sleep 30`
	if out, err := exec.Command("tmux", "-f", "/dev/null", "-S", socket, "new-session", "-d", "-x", "100", "-y", "30",
		"-e", "TERM=xterm-256color", "sh", "-c", script, binary).CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", socket, "kill-server").Run() })
	tm := &tmuxTerm{t: t, socket: socket}
	tm.waitFor("Sign in to the Card and Wallet Gateway")

	shell, err := exec.Command("tmux", "-S", socket, "display-message", "-p", "#{pane_pid}").Output()
	if err != nil {
		t.Fatal(err)
	}
	var app string
	for deadline := time.Now().Add(e2eWait); app == "" && time.Now().Before(deadline); time.Sleep(40 * time.Millisecond) {
		out, _ := exec.Command("pgrep", "-P", strings.TrimSpace(string(shell))).Output()
		app = strings.TrimSpace(string(out))
	}
	if app == "" {
		t.Fatal("no cardterm process under the pane's shell")
	}
	if out, err := exec.Command("kill", "-HUP", app).CombinedOutput(); err != nil {
		t.Fatalf("kill -HUP: %v: %s", err, out)
	}
	tm.waitFor("cardterm exited 130")
	alt, _ := exec.Command("tmux", "-S", socket, "display-message", "-p", "#{alternate_on}").Output()
	if strings.TrimSpace(string(alt)) != "0" {
		t.Fatalf("the terminal is still on the alternate screen after SIGHUP:\n%s", tm.screen())
	}
}
