package e2e

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

// alternateScreen reports whether the pane shows the alternate screen
// (the app's frame) rather than the shell's.
func (tm *tmuxTerm) alternateScreen() bool {
	out, _ := exec.Command("tmux", "-S", tm.socket, "display-message", "-p", "#{alternate_on}").Output()
	return strings.TrimSpace(string(out)) == "1"
}

// waitAlternate waits until the pane is (or is no longer) on the
// alternate screen.
func (tm *tmuxTerm) waitAlternate(on bool) {
	tm.t.Helper()
	deadline := time.Now().Add(e2eWait)
	for tm.alternateScreen() != on {
		if time.Now().After(deadline) {
			tm.t.Fatalf("the alternate screen is still %v; the screen shows:\n%s", !on, tm.screen())
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// appPID is the pid of the cardterm the pane's shell started.
func (tm *tmuxTerm) appPID() string {
	tm.t.Helper()
	shell, err := exec.Command("tmux", "-S", tm.socket, "display-message", "-p", "#{pane_pid}").Output()
	if err != nil {
		tm.t.Fatal(err)
	}
	for deadline := time.Now().Add(e2eWait); time.Now().Before(deadline); time.Sleep(40 * time.Millisecond) {
		out, _ := exec.Command("pgrep", "-P", strings.TrimSpace(string(shell)), "-x", "cardterm").Output()
		if pid := strings.TrimSpace(string(out)); pid != "" {
			return pid
		}
	}
	tm.t.Fatal("no cardterm process under the pane's shell")
	return ""
}

func (tm *tmuxTerm) signal(name, pid string) {
	tm.t.Helper()
	if out, err := exec.Command("kill", "-"+name, pid).CombinedOutput(); err != nil {
		tm.t.Fatalf("kill -%s: %v: %s", name, err, out)
	}
}

// ctrl+z and kill -TSTP hand the terminal back to an interactive shell
// (the alternate screen left, the job stopped); fg brings the app back,
// drawn and answering keys.
func TestSuspendAndResume(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("bash is required for job control: %v", err)
	}
	tm := startTmux(t, []string{"PS1=shell$ "}, bash, "--norc", "--noprofile", "-i")
	tm.waitFor("shell$")
	tm.typeText(binary)
	tm.send("Enter")
	tm.waitFor("Sign in to the Card and Wallet Gateway")
	tm.waitAlternate(true)
	pid := tm.appPID()

	tm.send("C-z")
	tm.waitAlternate(false)
	tm.waitFor("Stopped", "shell$")
	tm.typeText("clear; fg") // cleared: the next stop's message is the only one
	tm.send("Enter")
	tm.waitAlternate(true)
	tm.waitFor("Sign in to the Card and Wallet Gateway")
	tm.send("F1") // it answers keys again: the help, which lists ctrl+z
	tm.waitFor("ctrl+z", "suspend")
	tm.send("F1")
	// The help closed before the next stop: a key still unread when the
	// terminal is handed back would go to the shell instead.
	tm.waitFor("Sign in to the Card and Wallet Gateway")

	tm.signal("TSTP", pid)
	tm.waitAlternate(false)
	tm.waitFor("Stopped")
	tm.typeText(`fg; echo "cardterm exited $?"`)
	tm.send("Enter")
	tm.waitAlternate(true)
	tm.waitFor("Sign in to the Card and Wallet Gateway")

	tm.send("C-c")
	tm.waitAlternate(false)
	tm.waitFor("cardterm exited 130")
}

// The exit status of each way the app ends agrees with the README's
// table: q is done (0); ctrl+c, SIGINT, SIGTERM and SIGHUP are
// interrupted (130), the terminal restored each time.
func TestExitCodesOfEachWayOut(t *testing.T) {
	for _, tc := range []struct {
		how  string
		want string
	}{
		{"q", "cardterm exited 0"},
		{"C-c", "cardterm exited 130"},
		{"INT", "cardterm exited 130"},
		{"TERM", "cardterm exited 130"},
		{"HUP", "cardterm exited 130"},
	} {
		t.Run(tc.how, func(t *testing.T) {
			tm := startTmux(t, nil, "sh", "-c", `"$0"; echo "cardterm exited $?"; sleep 30`, binary)
			tm.waitFor("Sign in to the Card and Wallet Gateway")
			switch tc.how {
			case "q":
				signInAs(tm, "alice@demo.test") // on the sign-in form q types
				tm.send("q")
			case "C-c":
				// Once the app answers a key it reads the terminal raw:
				// a ctrl+c sent before that (the first frame can come
				// first on a loaded machine) would be the terminal's
				// SIGINT to the whole process group, the shell included.
				tm.send("F1")
				tm.waitFor("Help")
				tm.send("C-c")
			default:
				tm.signal(tc.how, tm.appPID())
			}
			tm.waitFor(tc.want)
			if tm.alternateScreen() {
				t.Fatalf("still on the alternate screen:\n%s", tm.screen())
			}
		})
	}
}
