//go:build linux

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// hostilePayload holds one of every sequence a gateway's text could use to
// drive a terminal: window title (OSC 0 and 2), hyperlink (OSC 8),
// clipboard write (OSC 52), DCS, APC, CSI colours, 8-bit C1 controls and a
// bidi override. Each part carries a mark (PWN) the tests look for.
const hostilePayload = "\x1b]0;PWN-title\x07\x1b]2;PWN-title2\x1b\\" +
	"\x1b]8;;https://evil.test/PWN\x1b\\link\x1b]8;;\x1b\\" +
	"\x1b]52;c;UFdOLWNsaXA=\x07" +
	"\x1bPqPWN-dcs\x1b\\\x1b_PWN-apc\x1b\\" +
	"\x1b[7;31;5mPWN-red\x1b[0m" +
	"\u009b7;31;5m\u009d0;PWN-c1\u0007\u0090PWN\u009c\u0085" +
	"\u202ePWN-rtl\u202c"

// payloadLeaks lists what of hostilePayload reached out: any OSC, DCS or
// APC introducer (cardterm writes none), any BEL, C1 control or bidi
// override, and the payload's own colour.
func payloadLeaks(out []byte) []string {
	var leaks []string
	for _, bad := range []struct{ name, seq string }{
		{"OSC", "\x1b]"}, {"DCS", "\x1bP"}, {"APC", "\x1b_"}, {"PM", "\x1b^"}, {"SOS", "\x1bX"},
		{"BEL", "\x07"}, {"payload colour", "\x1b[7;31;5m"}, {"bidi override", "\u202e"},
	} {
		if bytes.Contains(out, []byte(bad.seq)) {
			leaks = append(leaks, bad.name)
		}
	}
	for i := 0; i+1 < len(out); i++ {
		if out[i] == 0xc2 && out[i+1] >= 0x80 && out[i+1] <= 0x9f {
			leaks = append(leaks, fmt.Sprintf("C1 U+%04X", out[i+1]))
			break
		}
	}
	return leaks
}

// poisonedStrings are the JSON fields a hostile gateway leaves alone so
// that the command can go on talking to it: tokens go back in headers.
var poisonedExceptions = map[string]bool{"accessToken": true, "refreshToken": true, "expiresIn": true}

// parseable matches the strings a hostile gateway can leave alone so that
// an answer still parses (amounts, dates), and its text fields (currency,
// merchant...) reach further in.
var parseable = regexp.MustCompile(`^-?[0-9][0-9.:TZ+-]*$`)

// poison returns v with hostilePayload added to every string, map key
// included, but the exceptions (and, with keepParseable, numbers and
// dates).
func poison(v any, keepParseable bool) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, value := range x {
			if poisonedExceptions[k] {
				out[k] = value
				continue
			}
			out[k] = poison(value, keepParseable)
			if k != "data" && k != "items" && k != "transactions" {
				out[k+hostilePayload] = "key"
			}
		}
		return out
	case []any:
		for i := range x {
			x[i] = poison(x[i], keepParseable)
		}
		return x
	case string:
		if keepParseable && parseable.MatchString(x) {
			return x
		}
		return x + hostilePayload
	}
	return v
}

// newHostileGateway serves the real sandbox's answers, each JSON string
// (and map key) poisoned with hostilePayload: every endpoint's shape with
// escape sequences in each string field, over HTTP.
func newHostileGateway(t *testing.T, sandboxURL string, keepParseable bool) string {
	t.Helper()
	target, err := url.Parse(sandboxURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(resp *http.Response) error {
		if !strings.Contains(resp.Header.Get("Content-Type"), "json") {
			return nil
		}
		body, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err != nil {
			return err
		}
		var v any
		if json.Unmarshal(body, &v) == nil {
			body, _ = json.Marshal(poison(v, keepParseable))
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return nil
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
