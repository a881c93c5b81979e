package cli

import (
	"io"
	"os"
	"unicode/utf8"

	"cardterm/ui/sanitize"
)

// The one rule for what cardterm writes: stdout and stderr are each
// wrapped once, in Run, in a terminalOutput, and every command, cobra and
// fang write through it. On a terminal every write passes
// sanitize.Output: colour and erase-line stay (cardterm's own help, logs
// and coloured JSON use them), every other escape sequence (title,
// hyperlink, clipboard, DCS, APC, C1) is removed and other controls are
// shown as visible escapes, whoever wrote them. Into a pipe or a file the
// bytes pass exactly as written: JSON, CSV and the api command's bodies
// are a contract with scripts there (JSON output escapes controls itself,
// sanitize.JSON). Text from outside is also cleaned with sanitize.Text
// where it is placed, which removes its colour as well.

// terminalOutput is a standard stream as commands write to it.
type terminalOutput struct {
	w        io.Writer
	file     *os.File // the stream when it is a file, for Fd (isTerminal, colorprofile)
	terminal bool
	pending  []byte // the start of a UTF-8 character cut by the end of a write
}

// newTerminalOutput wraps stream; a stream already wrapped is returned as
// it is.
func newTerminalOutput(stream io.Writer) *terminalOutput {
	if t, ok := stream.(*terminalOutput); ok {
		return t
	}
	t := &terminalOutput{w: stream, terminal: isTerminal(stream)}
	t.file, _ = stream.(*os.File)
	return t
}

// Write passes p on, made safe first when the stream is a terminal. A
// UTF-8 character cut between two writes is held until the next one.
func (t *terminalOutput) Write(p []byte) (int, error) {
	if !t.terminal {
		return t.w.Write(p)
	}
	text := append(t.pending, p...)
	cut := incompleteTail(text)
	t.pending = append([]byte(nil), text[len(text)-cut:]...)
	if _, err := io.WriteString(t.w, sanitize.Output(string(text[:len(text)-cut]))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what is held (a cut character, shown as U+FFFD).
func (t *terminalOutput) Flush() error {
	if len(t.pending) == 0 {
		return nil
	}
	_, err := io.WriteString(t.w, sanitize.Output(string(t.pending)))
	t.pending = nil
	return err
}

// incompleteTail is how many bytes at the end of b start a UTF-8
// character that the next write would complete.
func incompleteTail(b []byte) int {
	for n := 1; n <= utf8.UTFMax-1 && n <= len(b); n++ {
		c := b[len(b)-n]
		if c < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(b[len(b)-n:]) {
				return 0
			}
			return n
		}
	}
	return 0
}

// The stream answers as its file to whoever asks whether it is a
// terminal (isTerminal asks for Fd, colorprofile for a term.File).
func (t *terminalOutput) Fd() uintptr {
	if t.file == nil {
		return ^uintptr(0)
	}
	return t.file.Fd()
}

func (t *terminalOutput) Read(p []byte) (int, error) {
	if t.file == nil {
		return 0, io.EOF
	}
	return t.file.Read(p)
}

func (t *terminalOutput) Close() error { return nil } // the process's stream is not ours to close
