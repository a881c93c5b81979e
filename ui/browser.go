package ui

import (
	"errors"
	"io"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"
	"github.com/cli/browser"

	"cardterm/theme"
)

var quietBrowser sync.Once

// OpenURL opens a link in the browser from a command and reports the outcome
// as a notice. The URL is never shown: it may carry a single-use secret.
func OpenURL(u string) tea.Cmd { return OpenLabeled("link", u) }

// OpenLabeled is OpenURL with a label for the notice ("opened PIN page").
func OpenLabeled(label, u string) tea.Cmd {
	return func() tea.Msg {
		if err := openBrowser(u); err != nil {
			return NoticeMsg{Notice: Notice{Tone: theme.ToneDanger,
				Text: Sanitize("could not open " + label + ": " + browserProblem(err))}}
		}
		return NoticeMsg{Notice: Notice{Tone: theme.ToneOK, Text: Sanitize("opened " + label + " in the browser")}}
	}
}

// browserProblem says why the browser did not open, in words that help.
func browserProblem(err error) string {
	if errors.Is(err, exec.ErrNotFound) {
		// cli/browser's error lists every opener it tried; say what helps.
		return "no browser found here (set $BROWSER)"
	}
	return err.Error()
}

// errScheme refuses links that are not web pages (file:, javascript:...).
var errScheme = errors.New("only http and https links are opened")

func openBrowser(u string) error {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return errScheme
	}
	if env := os.Getenv("BROWSER"); strings.TrimSpace(env) != "" {
		return runBrowser(env, u)
	}
	quietBrowser.Do(func() {
		// cli/browser writes to the terminal by default, over our frame.
		browser.Stdout, browser.Stderr = io.Discard, io.Discard
	})
	return browser.OpenURL(u)
}

// runBrowser runs $BROWSER (first entry of a colon list) without a shell:
// "cmd %s" puts the URL where %s is, otherwise the URL is the last argument.
func runBrowser(env, u string) error {
	first, _, _ := strings.Cut(env, ":")
	fields := strings.Fields(first)
	if len(fields) == 0 {
		return errors.New("BROWSER is empty")
	}
	args := make([]string, 0, len(fields))
	placed := false
	for _, f := range fields[1:] {
		if strings.Contains(f, "%s") {
			f = strings.ReplaceAll(f, "%s", u)
			placed = true
		}
		args = append(args, f)
	}
	if !placed {
		args = append(args, u)
	}
	cmd := exec.Command(fields[0], args...)
	cmd.Stdout, cmd.Stderr, cmd.Stdin = io.Discard, io.Discard, nil
	if err := cmd.Start(); err != nil {
		return errors.New("cannot start $BROWSER " + fields[0])
	}
	go func() { _ = cmd.Wait() }()
	return nil
}
