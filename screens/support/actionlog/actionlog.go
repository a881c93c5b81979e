// Package actionlog is the support console's record of what agents
// changed: one JSON object a line, appended to an owner-only file in the
// user's state directory, never rewritten. Each line says when, who (the
// agent), under which ticket, for which tenant, environment and customer,
// the request sent and its outcome. It holds ids and outcomes only: no
// secret is ever passed to it.
package actionlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Entry is one line of the log.
type Entry struct {
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
	// Action names the change: revoke, link, approved-session-start,
	// approved-session-end, approved-session-refused.
	Action string `json:"action"`
	// Request is what was sent ("DELETE /v2/consent/consentSet/…").
	Request string `json:"request"`
	// Outcome is "ok" or "failed: <the gateway's words>", with what it
	// led to ("consent status incomplete").
	Outcome string `json:"outcome"`
}

// OK reports whether the entry's request succeeded.
func (e Entry) OK() bool { return strings.HasPrefix(e.Outcome, "ok") }

// Log appends to one file. Appends from one process are serialized; each
// line is written with one write on a file opened O_APPEND, so lines from
// two processes never interleave.
type Log struct {
	path string
	mu   sync.Mutex
}

// Open names the log's file; nothing is created until the first Append.
// An empty path is a log that keeps nothing.
func Open(path string) *Log { return &Log{path: path} }

// Path is the file the log appends to.
func (l *Log) Path() string { return l.path }

// Append writes e as one line. The directory is made owner-only (0700) if
// it is new; the file is created 0600, and an existing file readable by
// others is made owner-only before anything is added to it.
func (l *Log) Append(e Entry) error {
	if l == nil || l.path == "" {
		return nil
	}
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(l.path), 0o700); err != nil {
		return fmt.Errorf("the action log: %w", err)
	}
	f, err := os.OpenFile(l.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("the action log: %w", err)
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.Mode().Perm()&0o077 != 0 {
		if err := f.Chmod(0o600); err != nil {
			return fmt.Errorf("the action log %s is readable by others and cannot be made owner-only: %w", l.path, err)
		}
	}
	if _, err := f.Write(line); err != nil {
		return fmt.Errorf("the action log: %w", err)
	}
	return f.Sync()
}

// Read returns the entries that match keep, oldest first. A missing file
// is an empty log; a line that is not an entry (a crash mid-write) is
// skipped.
func (l *Log) Read(keep func(Entry) bool) ([]Entry, error) {
	if l == nil || l.path == "" {
		return nil, nil
	}
	f, err := os.Open(l.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("the action log: %w", err)
	}
	defer f.Close()
	return readEntries(f, keep)
}

func readEntries(r io.Reader, keep func(Entry) bool) ([]Entry, error) {
	var out []Entry
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
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
	return out, sc.Err()
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
