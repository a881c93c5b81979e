//go:build linux

package e2e

import (
	"bytes"
	"io"
	"net/http/httptest"
	"os"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"

	"cardterm/sandbox/hostile"
)

// payloadLeaks lists what of the hostile payload reached out.
func payloadLeaks(out []byte) []string { return hostile.Leaks(out) }

// newHostileGateway serves the real sandbox's answers, each JSON string
// (and map key) poisoned with hostile.Payload, over HTTP.
func newHostileGateway(t *testing.T, sandboxURL string, keepParseable bool) string {
	t.Helper()
	proxy, err := hostile.Proxy(sandboxURL, keepParseable)
	if err != nil {
		t.Fatal(err)
	}
	server := httptest.NewServer(proxy)
	t.Cleanup(server.Close)
	return server.URL
}

// runOnTerminal runs the built binary with stdout and stderr on a
// pseudo-terminal (stdin: none), sealed like runPiped, and returns every
// byte the terminal received and the exit code.
func runOnTerminal(t *testing.T, env []string, args ...string) (out []byte, code int) {
	t.Helper()
	master, slave := openPTY(t)
	cmd := binaryCommand(t, args...)
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdout, cmd.Stderr = slave, slave
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	_ = slave.Close()
	read := make(chan []byte)
	go func() {
		var b bytes.Buffer
		_, _ = io.Copy(&b, master) // ends with EIO once the child is gone
		read <- b.Bytes()
	}()
	err := cmd.Wait()
	out = <-read
	_ = master.Close()
	if err != nil {
		code = cmd.ProcessState.ExitCode()
	}
	return out, code
}

// openPTY opens a pseudo-terminal pair (Linux /dev/ptmx).
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	slave, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_ = unix.IoctlSetWinsize(int(slave.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 40, Col: 120})
	return master, slave
}
