// Package grants keeps a record, in the user's state folder, of each
// customer-approved session while it is open, so that a session a crash
// (SIGKILL, power loss) left open is found and revoked at the next start
// instead of living on at the gateway (access token 6 hours, refresh
// token 184 days). A record is written before the session is first used
// and removed once the gateway has revoked it. It holds the session's
// tokens, because revoking needs them: the file is owner-only (0600, in a
// 0700 folder) and lives only as long as the session. The secret key is
// never written.
//
// While its session is open, the process holds a lock on the record
// (flock on Unix), so a record whose lock can be taken was left by a
// process that is gone: another cardterm running now keeps its own.
package grants

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Grant is one customer-approved session: where it lives, whose it is,
// and the tokens that revoke it.
type Grant struct {
	BaseURL   string `json:"baseUrl"`
	ClientKey string `json:"clientKey"`
	US        bool   `json:"us"`
	UserID    string `json:"userId"`
	Agent     string `json:"agent"`
	Ticket    string `json:"ticket,omitempty"`
	// OpenedAt is when the session was approved.
	OpenedAt     time.Time `json:"openedAt"`
	AccessToken  string    `json:"accessToken"`
	RefreshToken string    `json:"refreshToken"`
	ExpiresAt    time.Time `json:"expiresAt"`
	PID          int       `json:"pid"`
}

// Store is the folder of records; an empty folder keeps none (a gateway
// that dies with the app, like the embedded sandbox).
type Store struct{ dir string }

// Open names the folder; nothing is created until a record is held.
func Open(dir string) *Store { return &Store{dir: dir} }

// Dir is the folder of records.
func (s *Store) Dir() string { return s.dir }

// Held is the record of a session open in this process.
type Held struct {
	mu    sync.Mutex // a refresh (Update) may race the end (Release)
	f     *os.File
	path  string
	grant Grant
}

// Hold writes the record of an open session and keeps it locked until
// Release or Close. A nil Store holds nothing (nil, nil).
func (s *Store) Hold(g Grant) (*Held, error) {
	if s == nil || s.dir == "" {
		return nil, nil
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return nil, err
	}
	id := make([]byte, 8)
	_, _ = rand.Read(id)
	path := filepath.Join(s.dir, "session-"+hex.EncodeToString(id)+".json")
	f, err := createExclusive(path) // lock_unix.go, lock_other.go
	if err != nil {
		return nil, err
	}
	h := &Held{f: f, path: path, grant: g}
	if err := h.write(); err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	return h, nil
}

// Update writes new tokens into the record (a refresh rotated them).
func (h *Held) Update(access, refresh string, expires time.Time) error {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.f == nil {
		return nil
	}
	h.grant.AccessToken, h.grant.RefreshToken, h.grant.ExpiresAt = access, refresh, expires
	return h.write()
}

func (h *Held) write() error {
	h.grant.PID = os.Getpid()
	data, err := json.MarshalIndent(h.grant, "", "  ")
	if err != nil {
		return err
	}
	if err := h.f.Truncate(0); err != nil {
		return err
	}
	if _, err := h.f.WriteAt(append(data, '\n'), 0); err != nil {
		return err
	}
	return h.f.Sync()
}

// Release removes the record: the gateway revoked the session.
func (h *Held) Release() error {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.f == nil {
		return nil
	}
	err := removeHeld(h.path, h.f)
	h.f = nil
	return err
}

// Close lets the record go without removing it: the session could not be
// revoked, and the next start tries again.
func (h *Held) Close() {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.f != nil {
		h.f.Close()
		h.f = nil
	}
}

// removeHeld removes a record while its lock is held (Unix), else after
// closing it (Windows removes no open file).
func removeHeld(path string, f *os.File) error {
	err := os.Remove(path)
	if f != nil {
		f.Close()
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		err = os.Remove(path)
	}
	return err
}

// Left is a record whose process is gone: a session left open.
type Left struct {
	Grant
	path string
	f    *os.File
}

// Path is the record's file.
func (l *Left) Path() string { return l.path }

// Forget removes the record once its session is revoked.
func (l *Left) Forget() error {
	err := removeHeld(l.path, l.f)
	l.f = nil
	return err
}

// Close lets the record go, kept for a later start.
func (l *Left) Close() {
	if l.f != nil {
		l.f.Close()
		l.f = nil
	}
}

// LeftOpen finds the records of sessions whose process is gone, oldest
// first, each locked until Forget or Close (so two starts at once do not
// revoke one twice). A record that cannot be read is an error of its own
// in problems; the others are still returned.
func (s *Store) LeftOpen() (left []*Left, problems []error) {
	if s == nil || s.dir == "" {
		return nil, nil
	}
	entries, err := os.ReadDir(s.dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []error{err}
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "session-") || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		path := filepath.Join(s.dir, e.Name())
		f, gone, err := openIfGone(path)
		if err != nil {
			problems = append(problems, fmt.Errorf("%s: %w", path, err))
			continue
		}
		if !gone {
			continue // its cardterm is still running
		}
		l := &Left{path: path, f: f}
		data, err := os.ReadFile(path)
		if err == nil {
			err = json.Unmarshal(data, &l.Grant)
		}
		if err != nil {
			l.Close()
			problems = append(problems, fmt.Errorf("%s cannot be read: %w", path, err))
			continue
		}
		left = append(left, l)
	}
	sort.Slice(left, func(i, j int) bool { return left[i].OpenedAt.Before(left[j].OpenedAt) })
	return left, problems
}
