package e2e

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The partner demo (demo.tape) must not trip on a cold or busy machine:
// every key waits for what the screen shows first. VHS itself checks the
// tape's grammar (`vhs validate`, here when VHS is installed, always in
// .ci/run); this file checks its structure and plays its keys and Waits
// against the real binary in tmux, which needs no browser or ttyd.

// tapeLine is one command of demo.tape with its line number.
type tapeLine struct {
	n      int
	fields []string
	text   string
}

// readTape reads demo.tape's commands, comments and blank lines left out.
func readTape(t *testing.T) []tapeLine {
	t.Helper()
	tape, err := os.ReadFile("../demo.tape")
	if err != nil {
		t.Fatal(err)
	}
	var out []tapeLine
	for n, line := range strings.Split(string(tape), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		out = append(out, tapeLine{n: n + 1, fields: fields, text: strings.TrimSpace(line)})
	}
	return out
}

var (
	tapeType = regexp.MustCompile(`^Type\s+("(?:[^"\\]|\\.)*")(.*)$`)
	// tapeWait is VHS's Wait[+Line|+Screen][@timeout] [/regex/]. VHS's
	// lexer ends the regex at the first slash, escaped or not, so a slash
	// inside is written \x2F (Go's regexp reads it; VHS passes it through).
	tapeWait = regexp.MustCompile(`^Wait(\+Line|\+Screen)?(@\S+)?(?:\s+/([^/]*)/)?$`)
)

// tapeKeys are the VHS keys the tape may press, as tmux names them.
var tapeKeys = map[string]string{"Enter": "Enter", "Escape": "Escape", "Down": "Down", "Up": "Up",
	"Tab": "Tab", "Space": "Space", "Ctrl+O": "C-o", "Ctrl+S": "C-s", "Ctrl+C": "C-c"}

// isKeyLine reports whether a tape command sends input.
func isKeyLine(l tapeLine) bool {
	_, key := tapeKeys[l.fields[0]]
	return l.fields[0] == "Type" || key
}

// TestDemoTapeIsValidForVHS runs VHS's own parser over the tape, when VHS
// is installed (`go install github.com/charmbracelet/vhs@v0.10.0`; validate
// needs neither its browser nor ttyd).
func TestDemoTapeIsValidForVHS(t *testing.T) {
	vhs, err := exec.LookPath("vhs")
	if err != nil {
		t.Skip("vhs is not installed; .ci/run installs it and runs vhs validate demo.tape")
	}
	if out, err := exec.Command(vhs, "validate", "../demo.tape").CombinedOutput(); err != nil {
		t.Fatalf("vhs validate demo.tape: %v\n%s", err, out)
	}
}

// TestDemoTapeCannotTrip checks the tape's structure: the build is hidden
// and waited for (the shell's prompt) before anything is shown; after the
// app starts, every key is guarded by a Wait on the screen since the last
// key; the Sleeps left are short pauses for the viewer, never what a key
// relies on.
func TestDemoTapeCannotTrip(t *testing.T) {
	lines := readTape(t)
	hidden, built, waitedForBuild, started, guarded := false, false, false, false, false
	for _, l := range lines {
		cmd := l.fields[0]
		switch {
		case cmd == "Hide":
			hidden = true
		case cmd == "Show":
			if !built || !waitedForBuild {
				t.Errorf("demo.tape:%d: Show before the hidden build was waited for", l.n)
			}
			hidden = false
		case cmd == "Sleep" && hidden:
			t.Errorf("demo.tape:%d: a Sleep while the build runs: a cold build outlasts any; Wait for the prompt", l.n)
		case cmd == "Sleep":
			if d, err := time.ParseDuration(l.fields[1]); err != nil || d > 3*time.Second {
				t.Errorf("demo.tape:%d: %s: pauses are for reading, at most 3s", l.n, l.text)
			}
		case strings.HasPrefix(cmd, "Wait"):
			m := tapeWait.FindStringSubmatch(l.text)
			if m == nil {
				t.Fatalf(`demo.tape:%d: VHS cannot read %q (a slash ends a /regex/ even after \: write \x2F)`, l.n, l.text)
			}
			if hidden && built && m[3] == "" {
				waitedForBuild = true
			}
			if started && (m[1] != "+Screen" || m[3] == "") {
				t.Errorf("demo.tape:%d: in the app, wait for what the screen shows (Wait+Screen /text/)", l.n)
			}
			guarded = true
		case cmd == "Type" && hidden && strings.Contains(l.text, "go build"):
			built = true
		case isKeyLine(l) && !hidden:
			if started && !guarded {
				t.Errorf("demo.tape:%d: %s is pressed without a Wait for the screen it needs", l.n, l.text)
			}
			if strings.Contains(l.text, "cardterm-demo") {
				started = true
			}
			guarded = false
		}
	}
	if !built || !waitedForBuild || !started {
		t.Fatalf("the tape must build hidden (%v), wait for the prompt (%v) and start the app (%v)", built, waitedForBuild, started)
	}
}

// TestDemoTapeReplays plays demo.tape's keys against the real binary in
// tmux (VHS itself is not needed): each Wait+Screen waits for its text
// (with the harness's deadline, however the machine is loaded), Sleeps
// are shortened, no frame read may be an error frame, and the last must
// be the app, signed in, not a shell prompt.
func TestDemoTapeReplays(t *testing.T) {
	var tm *tmuxTerm
	var seen strings.Builder
	var env []string
	hidden := false
	look := func(n int) {
		frame := tm.screen()
		if m := demoErrorFrame.FindString(frame); m != "" {
			t.Errorf("demo.tape:%d: an error frame (%q):\n%s", n, m, frame)
		}
		seen.WriteString(frame)
	}
	for _, l := range readTape(t) {
		fields, n := l.fields, l.n
		switch cmd := fields[0]; {
		case cmd == "Hide":
			hidden = true
		case cmd == "Show":
			hidden = false
		case cmd == "Env" && len(fields) == 3:
			value, err := strconv.Unquote(fields[2])
			if err != nil {
				t.Fatalf("demo.tape:%d: %v", n, err)
			}
			env = append(env, fields[1]+"="+value)
		case hidden, cmd == "Output", cmd == "Set":
		case strings.HasPrefix(cmd, "Wait"):
			m := tapeWait.FindStringSubmatch(l.text)
			if m == nil || tm == nil {
				t.Fatalf("demo.tape:%d: cannot play %q", n, l.text)
			}
			waitForPattern(t, tm, n, regexp.MustCompile(m[3]))
			look(n)
		case cmd == "Type":
			m := tapeType.FindStringSubmatch(l.text)
			if m == nil {
				t.Fatalf("demo.tape:%d: cannot read %q", n, l.text)
			}
			text, err := strconv.Unquote(m[1])
			if err != nil {
				t.Fatalf("demo.tape:%d: %v", n, err)
			}
			if strings.HasSuffix(text, "cardterm-demo") { // the tape starts the app here
				tm = startTerm(t, env)
				continue
			}
			if tm == nil {
				t.Fatalf("demo.tape:%d: keys before the app starts", n)
			}
			tm.typeText(text)
			for _, k := range strings.Fields(m[2]) {
				name, ok := tapeKeys[k]
				if !ok {
					t.Fatalf("demo.tape:%d: unknown key %q", n, k)
				}
				tm.send(name)
			}
		case cmd == "Sleep":
			time.Sleep(100 * time.Millisecond)
		default:
			for _, k := range fields {
				name, ok := tapeKeys[k]
				if !ok {
					t.Fatalf("demo.tape:%d: unknown key %q", n, k)
				}
				tm.send(name)
			}
		}
	}
	for _, want := range []string{
		"Sandbox demo accounts", "Alice Martin", "Freeze the card", "FROZEN", "card unfrozen",
		"Internal wallets", "approved withdrawal addresses", "Chain configuration",
		"POST /v1/order", "Payment received", "Audit trail", "endpoints · limit 5", "transaction.authorized", "✓ verified",
		"Help", "Sign out?", "Signed out", "Sign in with browser / phone",
	} {
		if !strings.Contains(seen.String(), want) {
			t.Errorf("the demo never shows %q", want)
		}
	}
	if last := tm.screen(); !strings.Contains(last, "Alice Martin") || !strings.Contains(last, "SANDBOX") {
		t.Errorf("the demo does not end on the app, signed in:\n%s", last)
	}
}

// waitForPattern waits, with the harness's deadline, until the screen
// matches re.
func waitForPattern(t *testing.T, tm *tmuxTerm, n int, re *regexp.Regexp) {
	t.Helper()
	deadline := time.Now().Add(e2eWait)
	for {
		s := tm.screen()
		if re.MatchString(s) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("demo.tape:%d: waiting for /%s/; the screen shows:\n%s", n, re, s)
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// demoErrorFrame is what no frame of the demo may show: a failure notice
// or a crash. (The last frame is checked to be the app, not a prompt.)
var demoErrorFrame = regexp.MustCompile(`(?i)could not|failed|\berror\b|panic`)
