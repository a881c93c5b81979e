package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"cardterm/apiclient"
	"cardterm/domain/recordcommand"
	"cardterm/ui/sanitize"
)

// `cardterm get LOOKUP --watch [INTERVAL]`: the look-up again every
// INTERVAL. On a terminal the answer is redrawn with the lines that
// changed marked and a line naming the fields that changed; piped, each
// new answer is printed as one JSON line. A 429 is waited out by the
// client (Retry-After); an error that asks to wait longer (503 with
// Retry-After) delays the next read that long.

// defaultWatchInterval is --watch alone.
const defaultWatchInterval = 2 * time.Second

// minWatchInterval keeps a watch from hammering the gateway.
const minWatchInterval = 500 * time.Millisecond

// parseWatchInterval reads 1 (seconds), 1.5 or a duration such as 500ms;
// ok is false for anything else, and for less than minWatchInterval.
func parseWatchInterval(s string) (d time.Duration, isInterval, ok bool) {
	d, err := time.ParseDuration(s)
	if err != nil {
		seconds, numErr := strconv.ParseFloat(s, 64)
		if numErr != nil {
			return 0, false, false
		}
		d = time.Duration(seconds * float64(time.Second))
	}
	return d, true, d >= minWatchInterval
}

// watchIntervalError is a --watch interval refused.
func watchIntervalError(given string) error {
	return usageError{fmt.Sprintf("--watch %s: give seconds (1, 2.5) or a duration (500ms, 1m), at least %s", given, minWatchInterval)}
}

// watchArgs takes INTERVAL off the arguments when it follows --watch
// (cobra reads `--watch 1` as --watch and an argument 1): the last
// argument, when there is one more than the look-up takes.
func watchArgs(flag string, args []string) (time.Duration, []string, error) {
	interval := defaultWatchInterval
	if flag != "" && flag != defaultWatchInterval.String() {
		d, _, ok := parseWatchInterval(flag)
		if !ok {
			return 0, nil, watchIntervalError(flag)
		}
		interval = d
	}
	if len(args) >= 2 {
		lk, known := lookups.Get()[args[0]]
		last := args[len(args)-1]
		if d, isInterval, ok := parseWatchInterval(last); isInterval && known && len(args)-1 > lk.max {
			if !ok {
				return 0, nil, watchIntervalError(last)
			}
			return d, args[:len(args)-1], nil
		}
	}
	return interval, args, nil
}

// runWatch runs the look-up every interval until ctrl+c (exit 130), an
// authentication failure or a usage error.
func runWatch(o options, interval time.Duration, args []string, std streams, command string) int {
	name, err := checkLookupArgs(args)
	if err == nil {
		_, err = lookupView(o, name)
	}
	if err != nil {
		return lookupFailed(std.stderr, command, "", err)
	}
	view, _ := lookupView(o, name)
	o.noPrompt, o.secrets = true, nil
	gw, err := chooseGateway(o, std.stdin, std.stderr)
	if err != nil {
		return lookupFailed(std.stderr, command, name, asUsage(err))
	}
	defer gw.close()
	client := apiclient.New(gw.cfg)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	signOut, err := lookupSignIn(ctx, client, gw, name)
	if err != nil {
		return lookupFailed(std.stderr, command, name, err)
	}
	defer signOut()
	screen := &watchScreen{w: std.stdout, control: rawTerminal(std.stdout), terminal: isTerminal(std.stdout), what: strings.Join(args, " "), interval: interval}
	return watchLoop(ctx, func(ctx context.Context) ([]byte, error) {
		return lookupCall(ctx, client, name, args[1:], view)
	}, screen, std.stderr)
}

// watchLoop reads and draws every interval until ctx ends (exit 130), an
// authentication failure or a usage error.
func watchLoop(ctx context.Context, read func(context.Context) ([]byte, error), screen *watchScreen, stderr io.Writer) int {
	for {
		body, err := read(ctx)
		wait := screen.interval
		switch {
		case ctx.Err() != nil:
			return exitInterrupted
		case err != nil:
			if code := exitCodeFor(err); code == exitUsage || code == exitAuth {
				fmt.Fprintf(stderr, "cardterm: %s: %s\n", screen.what, sanitize.Text(lookupMessage(err)))
				return code
			}
			var apiErr *apiclient.Error
			if errors.As(err, &apiErr) && apiErr.RetryAfter > wait {
				wait = apiErr.RetryAfter
			}
			screen.failed(stderr, sanitize.Text(lookupMessage(err)), wait)
		default:
			if err := screen.read(body); err != nil {
				fmt.Fprintf(stderr, "cardterm: %s: the gateway's answer is not JSON: %v\n", screen.what, err)
				return exitRefused
			}
		}
		select {
		case <-ctx.Done():
			return exitInterrupted
		case <-time.After(wait):
		}
	}
}

// rawTerminal is the stream under cardterm's terminal writer, which lets
// no cursor move through (terminal_output.go): the watch's own
// clear-and-home goes there, and only that.
func rawTerminal(stdout io.Writer) io.Writer {
	if t, ok := stdout.(*terminalOutput); ok && t.file != nil {
		return t.file
	}
	return stdout
}

// watchScreen draws what a watch reads.
type watchScreen struct {
	w io.Writer
	// control takes the redraw's clear-and-home (rawTerminal).
	control  io.Writer
	terminal bool
	what     string
	interval time.Duration
	last     []byte // the last answer, compact
	lines    []string
	changed  []string
	problem  string
}

// read takes an answer: a new one is drawn (or printed, piped); the same
// one only updates the time on a terminal.
func (s *watchScreen) read(body []byte) error {
	var compact bytes.Buffer
	if err := json.Compact(&compact, body); err != nil {
		return err
	}
	s.problem = ""
	if bytes.Equal(compact.Bytes(), s.last) {
		if s.terminal {
			s.draw()
		}
		return nil
	}
	if !s.terminal {
		s.last = compact.Bytes()
		_, err := s.w.Write(append(sanitize.JSON(compact.Bytes()), '\n'))
		return err
	}
	s.changed = changedFields(s.last, compact.Bytes())
	s.last = compact.Bytes()
	indented, err := indentBody(body)
	if err != nil {
		return err
	}
	s.lines = markChangedLines(s.lines, strings.Split(strings.TrimRight(string(indented), "\n"), "\n"))
	s.draw()
	return nil
}

// failed says why a read failed and when the next one is.
func (s *watchScreen) failed(stderr io.Writer, message string, wait time.Duration) {
	s.problem = fmt.Sprintf("%s (next read in %s)", message, wait.Round(time.Second))
	if s.terminal {
		s.draw()
		return
	}
	fmt.Fprintf(stderr, "cardterm: %s: %s\n", s.what, s.problem)
}

// draw redraws the terminal: a head line, what changed, the answer.
func (s *watchScreen) draw() {
	if s.control != nil {
		_, _ = io.WriteString(s.control, "\x1b[H\x1b[2J")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "cardterm get %s · every %s · read %s · ctrl+c stops\n", sanitize.Text(s.what), s.interval, time.Now().Format("15:04:05"))
	switch {
	case s.problem != "":
		fmt.Fprintf(&b, "\x1b[1mnot read: %s\x1b[0m\n", s.problem)
	case len(s.changed) > 0:
		fmt.Fprintf(&b, "\x1b[1mchanged: %s\x1b[0m\n", sanitize.Text(strings.Join(s.changed, ", ")))
	default:
		b.WriteString("\n")
	}
	for _, line := range s.lines {
		b.WriteString(line + "\n")
	}
	_, _ = io.WriteString(s.w, b.String())
}

// changedFields names the fields whose value differs between two answers
// ("status: ACTIVE → FROZEN"); none for the first answer.
func changedFields(before, after []byte) []string {
	if before == nil {
		return nil
	}
	old, now := recordcommand.FieldsOf(before), recordcommand.FieldsOf(after)
	var changed []string
	for path, value := range now {
		if was, ok := old[path]; !ok {
			changed = append(changed, path+": new "+value)
		} else if was != value {
			changed = append(changed, path+": "+was+" → "+value)
		}
	}
	for path := range old {
		if _, ok := now[path]; !ok {
			changed = append(changed, path+": gone")
		}
	}
	slices.Sort(changed)
	return changed
}

// markChangedLines marks, in reverse video behind "▶", the lines of the
// new answer that are not the line at the same place before.
func markChangedLines(before, after []string) []string {
	marked := make([]string, len(after))
	for i, line := range after {
		plain := sanitize.Text(line)
		if before != nil && (i >= len(before) || stripMark(before[i]) != plain) {
			marked[i] = "▶ \x1b[7m" + plain + "\x1b[0m"
		} else {
			marked[i] = "  " + plain
		}
	}
	return marked
}

// stripMark is a drawn line without its mark.
func stripMark(line string) string {
	line = strings.TrimPrefix(strings.TrimPrefix(line, "▶ "), "  ")
	return strings.TrimSuffix(strings.TrimPrefix(line, "\x1b[7m"), "\x1b[0m")
}
