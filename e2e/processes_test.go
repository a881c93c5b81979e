package e2e

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"cardterm/cli/clitest"
	"cardterm/sandbox"
)

// sandboxProc is a `cardterm sandbox` process of one test.
type sandboxProc struct {
	cmd       *exec.Cmd
	addr      string          // host:port it listens on
	described string          // what it printed on start
	done      chan struct{}   // closed once it has exited
	out       *clitest.Buffer // stdout and stderr
	err       error           // Wait's answer, once done is closed
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
		out:  &clitest.Buffer{},
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

// startSandboxInProcess serves a sandbox with opts inside the test process,
// so the test can change its faults and read what it received while the
// real binary talks to it as to a remote gateway; it closes when the test
// ends.
func startSandboxInProcess(t *testing.T, opts sandbox.Options) *sandbox.Running {
	t.Helper()
	sb, err := sandbox.Start("127.0.0.1:0", opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	return sb
}

// startTermSignedIn starts the binary on sb with the demo keys and signs
// alice in through the sign-in form.
func startTermSignedIn(t *testing.T, sb *sandbox.Running) *tmuxTerm {
	t.Helper()
	tm := startTerm(t, []string{"CARDTERM_SECRET_KEY=" + sandbox.DemoSecretKey},
		"--base-url", sb.URL, "--client-key", sandbox.DemoClientKey, "--environment", "sandbox")
	tm.waitFor("Sign in to the Card and Wallet Gateway")
	tm.signInWithForm("alice@demo.test", "demo-pass")
	return tm
}
