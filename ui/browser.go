package ui

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
	"unicode"

	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
	"cardterm/ui/sanitize"
)

// browserVerdictWait is how long an opener has to fail: one that exits
// non-zero within it did not open the link; one still running after it
// (a browser that stays in the foreground) is taken to have opened it.
// Tests shorten it.
var browserVerdictWait = 2 * time.Second

// lookPath finds an opener on the PATH; tests replace it.
var lookPath = exec.LookPath

// OpenURL opens a link in the browser from a command and reports the outcome
// as a notice. The URL is never shown: it may carry a single-use secret.
func OpenURL(u string) tea.Cmd { return OpenLabeled("link", u) }

// OpenLabeled is OpenURL with a label for the notice ("opened PIN page").
// The command waits for the browser's verdict (browserVerdictWait at most),
// so the notice says what really happened.
func OpenLabeled(label, u string) tea.Cmd {
	return func() tea.Msg { return openedNotice(label, openBrowser(u)) }
}

// openedNotice is the notice for the outcome of opening label.
func openedNotice(label string, err error) NoticeMsg {
	if err != nil {
		return NoticeMsg{Notice: Notice{Tone: theme.ToneDanger,
			Text: sanitize.Text("could not open " + label + ": " + browserProblem(err))}}
	}
	return NoticeMsg{Notice: Notice{Tone: theme.ToneOK, Text: sanitize.Text("opened " + label + " in the browser")}}
}

// errNoBrowser: neither $BROWSER nor a system opener is there.
var errNoBrowser = errors.New("no browser found here (set $BROWSER)")

// browserProblem says why the browser did not open, in words that help.
func browserProblem(err error) string {
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, errNoBrowser) {
		return errNoBrowser.Error()
	}
	return err.Error()
}

// errScheme refuses links that are not web pages (file:, javascript:...).
var errScheme = errors.New("only http and https links are opened")

// errHiddenText refuses a link holding characters that are not drawn as
// themselves (bidi controls, zero-width and other invisible characters,
// controls, spaces): what the browser would get is not what the screen
// shows.
var errHiddenText = errors.New("the link holds invisible or bidi characters, so it is not opened")

// CheckLink reports why a link handed out by a gateway must not be opened
// or copied: not an absolute http(s) URL, or holding text that is not
// drawn as itself. nil when it is safe.
func CheckLink(u string) error {
	for _, r := range u {
		if unicode.IsControl(r) || unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) || sanitize.Invisible(r) {
			return errHiddenText
		}
	}
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return errScheme
	}
	return nil
}

// openBrowser opens u with $BROWSER (each of its commands in turn) or else
// the system's opener, in an environment without cardterm's secrets, and
// waits for the opener's verdict.
func openBrowser(u string) error {
	if err := CheckLink(u); err != nil {
		return err
	}
	if env := os.Getenv("BROWSER"); strings.TrimSpace(env) != "" {
		commands := browserCommands(env, runtime.GOOS, isRegularFile)
		if len(commands) == 0 {
			return errors.New("$BROWSER names no command")
		}
		var err error
		for _, command := range commands {
			if err = runOpener(withLink(command, u)); err == nil {
				return nil
			}
		}
		return err
	}
	opener := systemOpener(u)
	if opener == nil {
		return errNoBrowser
	}
	return runOpener(opener)
}

// browserExitError is an opener that ended in failure.
type browserExitError struct {
	name string
	err  error
}

func (e *browserExitError) Error() string {
	var exit *exec.ExitError
	if errors.As(e.err, &exit) && exit.Exited() {
		return fmt.Sprintf("the browser command %s exited with status %d", e.name, exit.ExitCode())
	}
	return fmt.Sprintf("the browser command %s failed (%v)", e.name, e.err)
}

// runOpener starts argv without a shell, its input and output the null
// device (a browser it starts must not hold a pipe of ours, nor draw over
// the frame), and waits up to browserVerdictWait: a non-zero exit in that
// time is a failure. Arguments are never quoted in an error: the link may
// be a secret.
func runOpener(argv []string) error {
	name := argv[0]
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = ChildEnvironment()
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("the browser command %s was not found", name)
		}
		return fmt.Errorf("cannot start the browser command %s", name)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	timer := time.NewTimer(browserVerdictWait)
	defer timer.Stop()
	select {
	case err := <-exited:
		if err != nil {
			return &browserExitError{name: name, err: err}
		}
		return nil
	case <-timer.C:
		return nil // still running: it has the link; Wait reaps it later
	}
}
