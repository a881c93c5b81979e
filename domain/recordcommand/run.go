package recordcommand

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"time"
)

// Result is what a run left: the output (standard output and error, in
// the order written, cut at MaxOutput) and the exit status.
type Result struct {
	Output   []byte
	Cut      bool
	ExitCode int
	// Err is why it did not run or was stopped (not found, timed out);
	// nil when it ran to its end, whatever its status.
	Err      error
	Duration time.Duration
}

// MaxOutput is the most output kept for the pane.
const MaxOutput = 256 << 10

// Timeout stops a command that runs too long.
const Timeout = 2 * time.Minute

// Run runs the prepared command without a shell (unless it is one),
// with environment (the caller's, secrets already gone) plus the fields,
// no standard input, in the current folder.
func Run(ctx context.Context, p Prepared, environment []string) Result {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.Argv[0], p.Argv[1:]...)
	cmd.Env = append(append([]string{}, environment...), p.Fields...)
	output := &cappedBuffer{limit: MaxOutput}
	cmd.Stdout, cmd.Stderr = output, output
	started := time.Now()
	err := cmd.Run()
	result := Result{Output: output.Bytes(), Cut: output.cut, Duration: time.Since(started)}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit) && ctx.Err() == nil:
		result.ExitCode = exit.ExitCode()
	case ctx.Err() != nil:
		result.ExitCode, result.Err = -1, ctx.Err()
	default:
		result.ExitCode, result.Err = -1, err
	}
	return result
}

// cappedBuffer keeps the first limit bytes written and drops the rest.
// The buffer is a field, not embedded: an embedded bytes.Buffer's
// ReadFrom would let io.Copy fill it past the limit.
type cappedBuffer struct {
	kept  bytes.Buffer
	limit int
	cut   bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	room := b.limit - b.kept.Len()
	if room < len(p) {
		b.cut = true
		if room > 0 {
			b.kept.Write(p[:room])
		}
		return len(p), nil
	}
	return b.kept.Write(p)
}

// Bytes is what was kept.
func (b *cappedBuffer) Bytes() []byte { return b.kept.Bytes() }
