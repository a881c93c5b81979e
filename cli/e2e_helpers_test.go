package cli

import (
	"bytes"
	"sync"
	"testing"

	"cardterm/sandbox"
)

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

// syncBuffer is a bytes.Buffer a command or process writes while the test
// reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
