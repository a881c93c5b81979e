// Package actionlog is the support console's record of what agents did,
// kept so that it can be handed to an auditor: one JSON object a line,
// appended to an owner-only file in the user's state directory, never
// rewritten. Each line says when, who (the agent), under which ticket, for
// which tenant, environment and customer (by id only: never a name or an
// e-mail), the request sent and its outcome. Each line carries its number
// and the SHA-256 of the line before it, so an edited, removed or added
// line breaks the chain (Verify; `cardterm support verify-log`). No secret
// is ever passed to it.
package actionlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/user"
	"strings"
	"sync"
	"time"
)

// The actions a line names.
const (
	ActionRevoke = "revoke"
	ActionLink   = "link"
	// ActionLookup is a customer or onboarding looked up in the console.
	ActionLookup = "lookup"
	// ActionExport is a case written to files or copied.
	ActionExport = "export"
	// The customer-approved session: asked for (before the customer signs
	// in), started, refused, each screen viewed, ended; and a session left
	// open by a crash, revoked at the next start.
	ActionApprovedRequested = "approved-session-requested"
	ActionApprovedStart     = "approved-session-start"
	ActionApprovedRefused   = "approved-session-refused"
	ActionApprovedView      = "approved-session-view"
	ActionApprovedEnd       = "approved-session-end"
	ActionApprovedRecovered = "approved-session-recovered"

	// The desk's queue: a case taken, handed over, its status or its
	// priority changed (the case's own activity has them too).
	ActionCaseTaken      = "case-taken"
	ActionCaseHandedOver = "case-handed-over"
	ActionCaseStatus     = "case-status"
	ActionCasePriority   = "case-priority"
)

// Requested is the outcome of the line a change writes before its request
// is sent; the line with the answer's outcome follows it.
const Requested = "requested"

// Entry is one line of the log.
type Entry struct {
	// Seq is the line's number in the log, from 1; Append sets it.
	Seq  int       `json:"seq"`
	Time time.Time `json:"time"`
	// Agent is who acted: the profile's or config's agent name, else the
	// OS user.
	Agent string `json:"agent"`
	// Ticket is the ticket the agent set for the case; "" when none.
	Ticket      string `json:"ticket,omitempty"`
	ClientKey   string `json:"clientKey"`
	Environment string `json:"environment"`
	// Region is "us" for the US backend, "eu" otherwise.
	Region       string `json:"region"`
	UserID       string `json:"userId,omitempty"`
	OnboardingID string `json:"onboardingId,omitempty"`
	// Action is one of the Action constants.
	Action string `json:"action"`
	// Screen is the screen viewed (approved-session-view).
	Screen string `json:"screen,omitempty"`
	// Request is what was sent ("DELETE /v2/consent/consentSet/…").
	Request string `json:"request"`
	// Outcome is Requested, "ok" or "failed: <the gateway's words>", with
	// what it led to ("consent status incomplete").
	Outcome string `json:"outcome"`
	// Prev is the SHA-256 (hex) of the line before, exactly as written
	// without its newline; "" on the first line. Append sets it.
	Prev string `json:"prev"`
}

// OK reports whether the entry's request succeeded.
func (e Entry) OK() bool { return strings.HasPrefix(e.Outcome, "ok") }

// Log appends to one file. Appends from one process are serialized by a
// mutex, from several by a lock on the file (on Unix), so that each line
// chains to the one really before it.
type Log struct {
	path string
	mu   sync.Mutex
}

// Open names the log's file; nothing is created until the first Append.
// An empty path is a log that keeps nothing.
func Open(path string) *Log { return &Log{path: path} }

// Path is the file the log appends to.
func (l *Log) Path() string { return l.path }

// maxLine bounds a line read back; entries are a few hundred bytes (the
// gateway's words in an outcome are cut to 300 characters).
const maxLine = 1 << 20

// Append writes e as the log's next line, numbered and chained to the
// line before. It refuses a log file that is a symbolic link, is not a
// regular file, belongs to another user, or does not start with a line of
// this log; the directory is made owner-only (0700) if it is new, the file
// is created 0600, and an existing file others can read is made
// owner-only before anything is added to it. The line is on disk (fsync)
// when Append returns nil; a caller that must not act unlogged acts only
// then.
func (l *Log) Append(e Entry) error {
	if l == nil || l.path == "" {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	f, err := openForAppend(l.path) // file_unix.go, file_other.go
	if err != nil {
		return fmt.Errorf("the action log %s: %w", l.path, withoutPath(err))
	}
	defer f.Close() // and unlocks
	if err := appendChained(f, e); err != nil {
		return fmt.Errorf("the action log %s: %w", l.path, withoutPath(err))
	}
	return nil
}

// withoutPath drops the path an *fs.PathError repeats (the message names
// the log once), keeping the cause for errors.Is.
func withoutPath(err error) error {
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) && pathErr.Path != "" {
		return fmt.Errorf("%s: %w", pathErr.Op, pathErr.Err)
	}
	return err
}

// appendChained reads the file's first and last lines, numbers and chains
// e after the last, and writes it in one write.
func appendChained(f *os.File, e Entry) error {
	info, err := f.Stat()
	if err != nil {
		return err
	}
	e.Seq, e.Prev = 1, ""
	var lead []byte
	if size := info.Size(); size > 0 {
		if err := checkOurs(f); err != nil {
			return err
		}
		seq, prev, whole, err := chainEnd(f, size)
		if err != nil {
			return err
		}
		e.Seq, e.Prev = seq, prev
		if !whole {
			lead = []byte{'\n'} // the last line was torn: ours starts a line of its own
		}
	}
	line, err := json.Marshal(bounded(e))
	if err != nil {
		return err
	}
	buf := append(append(lead, line...), '\n')
	if _, err := f.Write(buf); err != nil {
		return err
	}
	return f.Sync()
}

// checkOurs refuses a file whose first line is not an entry of this log:
// appending to someone else's file would hide our lines in it. The first
// line is read whole, however long (an entry written before fields were
// bounded can be long), up to maxLine: past that it is refused, not
// misread.
func checkOurs(f *os.File) error {
	head := bufio.NewReader(io.NewSectionReader(f, 0, maxLine+1))
	first, err := head.ReadBytes('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	first = bytes.TrimSuffix(first, []byte{'\n'})
	if len(first) > maxLine {
		return fmt.Errorf("its first line is longer than %d bytes, which no entry is; refused", maxLine)
	}
	if !isEntry(first) {
		return errors.New("the file is not a cardterm action log (its first line is not one of its entries); refused")
	}
	return nil
}

// isEntry reports whether line is a JSON entry of this log.
func isEntry(line []byte) bool {
	var probe struct {
		Seq    *int    `json:"seq"`
		Action *string `json:"action"`
		Time   *string `json:"time"`
	}
	return json.Unmarshal(line, &probe) == nil && probe.Seq != nil && probe.Action != nil && probe.Time != nil
}

// lastLines are the file's last lines (without newlines), read from a
// window at its end that grows until it holds the last entry whole (or
// maxLine); whole is false when the file does not end with a newline (a
// torn write).
func lastLines(f *os.File, size int64) (lines [][]byte, whole bool, err error) {
	for window := int64(8 << 10); ; window *= 4 {
		start := max(size-window, 0)
		tail := make([]byte, size-start)
		if _, err := f.ReadAt(tail, start); err != nil && !errors.Is(err, io.EOF) {
			return nil, false, err
		}
		whole = bytes.HasSuffix(tail, []byte{'\n'})
		lines = bytes.Split(bytes.TrimSuffix(tail, []byte{'\n'}), []byte{'\n'})
		if start == 0 {
			return lines, whole, nil
		}
		lines = lines[1:] // the first may be cut
		for _, line := range lines {
			if isEntry(line) {
				return lines, whole, nil
			}
		}
		if window >= maxLine {
			return nil, false, errNoEntryInWindow
		}
	}
}

// errNoEntryInWindow: the file's last maxLine bytes hold no whole entry.
var errNoEntryInWindow = errors.New("no entry in the last lines")

// chainEnd is what the next entry chains to: its number, the hash of the
// file's last line, and whether that line ends with a newline. The last
// lines are read from the end; when they are longer than maxLine (an
// entry written before fields were bounded) the whole file is read, as
// Verify reads it, rather than refusing a log that is ours.
func chainEnd(f *os.File, size int64) (seq int, prev string, whole bool, err error) {
	lines, whole, err := lastLines(f, size)
	if errors.Is(err, errNoEntryInWindow) {
		return scanChainEnd(f, size)
	}
	if err != nil {
		return 0, "", false, err
	}
	return nextSeq(lines), LineHash(lines[len(lines)-1]), whole, nil
}

// scanChainEnd is chainEnd by reading every line: the number after the
// last entry (plus a line for each line after it that is not one, as
// nextSeq counts) and the hash of the last line however long it is.
func scanChainEnd(f *os.File, size int64) (seq int, prev string, whole bool, err error) {
	lines := bufio.NewReaderSize(io.NewSectionReader(f, 0, size), 64<<10)
	lastSeq, after := 0, 0
	for {
		raw, hash, length, err := readLine(lines) // chain.go
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, "", false, err
		}
		var e struct {
			Seq *int `json:"seq"`
		}
		if length <= maxLine && isEntry(raw) && json.Unmarshal(raw, &e) == nil {
			lastSeq, after = *e.Seq, 0
		} else {
			after++
		}
		prev = hash
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, size-1); err != nil {
		return 0, "", false, err
	}
	return lastSeq + after + 1, prev, last[0] == '\n', nil
}

// nextSeq numbers the line after lines: the last entry's number, plus a
// line for each line after it that is not an entry (torn), as Verify
// counts them.
func nextSeq(lines [][]byte) int {
	for i := len(lines) - 1; i >= 0; i-- {
		var e struct {
			Seq *int `json:"seq"`
		}
		if isEntry(lines[i]) && json.Unmarshal(lines[i], &e) == nil {
			return *e.Seq + len(lines) - i
		}
	}
	return len(lines) + 1
}

// Read returns the entries that match keep, oldest first, without the
// chain's checks (Verify does those). A missing file is an empty log; a
// line that is not an entry (a crash mid-write) is skipped. A symbolic
// link or another user's file is refused as by Append.
func (l *Log) Read(keep func(Entry) bool) ([]Entry, error) {
	if l == nil || l.path == "" {
		return nil, nil
	}
	f, err := openForRead(l.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("the action log %s: %w", l.path, withoutPath(err))
	}
	defer f.Close()
	return readEntries(f, keep)
}

func readEntries(r io.Reader, keep func(Entry) bool) ([]Entry, error) {
	var out []Entry
	lines := bufio.NewReaderSize(r, 64<<10)
	for {
		raw, _, size, err := readLine(lines) // chain.go: a line of any length
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		line := bytes.TrimSpace(raw)
		if len(line) == 0 || size > maxLine {
			continue
		}
		var e Entry
		if json.Unmarshal(line, &e) != nil {
			continue
		}
		if keep == nil || keep(e) {
			out = append(out, e)
		}
	}
}

// Agent is the name an action is logged under: configured, else the OS
// user's login name, else "unknown".
func Agent(configured string) string {
	if name := strings.TrimSpace(configured); name != "" {
		return name
	}
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	if name := os.Getenv("USER"); name != "" {
		return name
	}
	return "unknown"
}
