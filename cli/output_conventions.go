package cli

import (
	"image/color"
	"io"
	"os"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/fang"
)

// What every command's output keeps to, whatever library draws it: no
// colour under NO_COLOR, and no line ending in spaces (fang pads help
// text to the terminal's width, which leaves trailing spaces in a pager,
// a file or a diff).

// honourNoColor makes NO_COLOR (https://no-color.org: any value but
// empty) win over CLICOLOR_FORCE for every library that reads the
// environment itself (fang's help and errors through colorprofile, which
// would otherwise let CLICOLOR_FORCE colour output that is not a
// terminal, and reads only NO_COLOR=1/true as set).
func honourNoColor() {
	if os.Getenv("NO_COLOR") == "" {
		return
	}
	_ = os.Unsetenv("CLICOLOR_FORCE")
	_ = os.Setenv("NO_COLOR", "1")
}

// helpColors is fang's colour scheme for help and errors. On a terminal
// fang learns its background and picks its colours for it. Forced colour
// into a pipe (CLICOLOR_FORCE=1 cardterm --help | less -R) has no
// background to learn, and fang would take it for a light one: black
// text, unreadable on a dark terminal, in a near-white code block. There
// the text keeps the terminal's own colour, the code blocks have no
// background, and only the mid tones that read on either background
// (commands, flags, strings) are coloured.
func helpColors(terminal bool) fang.ColorSchemeFunc {
	return func(c lipgloss.LightDarkFunc) fang.ColorScheme {
		scheme := fang.DefaultColorScheme(c)
		if terminal {
			return scheme
		}
		var own color.Color = lipgloss.NoColor{}
		scheme.Base, scheme.Description, scheme.Argument, scheme.Help, scheme.Dash = own, own, own, own, own
		scheme.Codeblock = own
		grey := lipgloss.BrightBlack // dimmed, legible on black and on white
		scheme.Comment, scheme.DimmedArgument, scheme.FlagDefault = grey, grey, grey
		return scheme
	}
}

// spaceTrimmer drops the spaces that end a line. Spaces at the end of a
// write are held until the next write shows whether a newline follows
// them; Flush writes what is held.
type spaceTrimmer struct {
	w    io.Writer
	held int // spaces written but not yet passed on
}

func (t *spaceTrimmer) Write(p []byte) (int, error) {
	out := make([]byte, 0, len(p))
	for _, c := range p {
		switch c {
		case ' ':
			t.held++
			continue
		case '\n':
			t.held = 0 // they ended a line
		default:
			out = appendSpaces(out, t.held)
			t.held = 0
		}
		out = append(out, c)
	}
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes the spaces held.
func (t *spaceTrimmer) Flush() error {
	if t.held == 0 {
		return nil
	}
	_, err := t.w.Write(appendSpaces(nil, t.held))
	t.held = 0
	return err
}

func appendSpaces(b []byte, n int) []byte {
	for range n {
		b = append(b, ' ')
	}
	return b
}

// fileSpaceTrimmer is a spaceTrimmer over a file (stdout), which still
// answers as that file to whoever asks whether it is a terminal
// (colorprofile asks for a term.File, isTerminal for an Fd).
type fileSpaceTrimmer struct {
	spaceTrimmer
	file interface {
		io.ReadCloser
		Fd() uintptr
	}
}

func (t *fileSpaceTrimmer) Read(p []byte) (int, error) { return t.file.Read(p) }
func (t *fileSpaceTrimmer) Close() error               { return t.file.Close() }
func (t *fileSpaceTrimmer) Fd() uintptr                { return t.file.Fd() }

// trimmedOutput wraps stdout (a terminalOutput in Run) in a spaceTrimmer; flush writes what it
// holds when the command is done.
func trimmedOutput(stdout io.Writer) (out io.Writer, flush func()) {
	if f, ok := stdout.(*terminalOutput); ok {
		t := &fileSpaceTrimmer{spaceTrimmer: spaceTrimmer{w: f}, file: f}
		return t, func() { _ = t.Flush() }
	}
	t := &spaceTrimmer{w: stdout}
	return t, func() { _ = t.Flush() }
}

// checkAppTerminal refuses to start the app without a terminal to draw
// on and read keys from: a pipe or a file would get escape sequences and
// no answer. Scripts have look-ups and the api command instead.
func checkAppTerminal(std streams) error {
	if isTerminal(std.stdin) && isTerminal(std.stdout) {
		return nil
	}
	return usageError{"the app needs a terminal (stdin and stdout are not both one); for scripts, use cardterm get LOOKUP (one look-up as JSON) or cardterm api [METHOD] PATH (any endpoint)"}
}
