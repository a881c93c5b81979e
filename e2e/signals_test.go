package e2e

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

// SIGHUP (a closed terminal window, a dropped SSH session) ends the app
// the way q does: the terminal leaves the alternate screen, and the exit
// status is the interrupted one.
func TestHangupRestoresTheTerminal(t *testing.T) {
	tm := startTmux(t, nil, "sh", "-c", `"$0"; echo "cardterm exited $?"; sleep 30`, binary)
	tm.waitFor("Sign in to the Card and Wallet Gateway")

	shell, err := exec.Command("tmux", "-S", tm.socket, "display-message", "-p", "#{pane_pid}").Output()
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
	alt, _ := exec.Command("tmux", "-S", tm.socket, "display-message", "-p", "#{alternate_on}").Output()
	if strings.TrimSpace(string(alt)) != "0" {
		t.Fatalf("the terminal is still on the alternate screen after SIGHUP:\n%s", tm.screen())
	}
}
