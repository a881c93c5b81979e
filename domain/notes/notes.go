// Package notes keeps a card holder's notes and tags on transactions, by
// the transaction's id, in the profile's folder and per user (the gateway
// keeps none). The Transactions screen edits and filters by them, the
// Spending screen adds spending up by tag, and statements carry them as
// columns.
package notes

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"cardterm/domain/lazy"
	"cardterm/domain/profiledata"
)

// Note is what the holder wrote about one transaction.
type Note struct {
	Text string   `json:"note,omitempty"`
	Tags []string `json:"tags,omitempty"`
}

// Empty says there is nothing to keep.
func (n Note) Empty() bool { return n.Text == "" && len(n.Tags) == 0 }

// MaxText bounds a note.
const MaxText = 500

// Book is a user's notes, safe to read from a statement's walk while the
// screen writes.
type Book struct {
	path string
	mu   sync.RWMutex
	byID map[string]Note
}

// File is a user's notes in a profile's folder.
func File(dir, user string) string {
	if user == "" {
		user = "user"
	}
	return filepath.Join(dir, "notes-"+profiledata.FileSafe(user)+".json")
}

// Load reads a user's notes; a missing file is none.
func Load(path string) (*Book, error) {
	b := &Book{path: path, byID: map[string]Note{}}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return b, nil
	}
	if err != nil {
		return b, err
	}
	if err := json.Unmarshal(data, &b.byID); err != nil {
		return &Book{path: path, byID: map[string]Note{}}, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// Get is the note on a transaction.
func (b *Book) Get(id string) Note {
	if b == nil {
		return Note{}
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.byID[id]
}

// Columns are a transaction's note and tags as a statement writes them
// (tags joined by spaces).
func (b *Book) Columns(id string) (note, tags string) {
	n := b.Get(id)
	return n.Text, strings.Join(n.Tags, " ")
}

// Set keeps a note (an empty one removes it) and writes the file.
func (b *Book) Set(id string, n Note) error {
	b.mu.Lock()
	if n.Empty() {
		delete(b.byID, id)
	} else {
		b.byID[id] = n
	}
	data, err := json.MarshalIndent(b.byID, "", "  ")
	b.mu.Unlock()
	if err != nil {
		return err
	}
	return profiledata.WriteFile(b.path, func(w io.Writer) error { _, err := w.Write(append(data, '\n')); return err })
}

// Tags are every tag used, sorted.
func (b *Book) Tags() []string {
	if b == nil {
		return nil
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	var out []string
	for _, n := range b.byID {
		for _, t := range n.Tags {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	slices.Sort(out)
	return out
}

// Tagged says the transaction carries the tag.
func (b *Book) Tagged(id, tag string) bool { return slices.Contains(b.Get(id).Tags, tag) }

var tagRE = lazy.Regexp{Pattern: `^[a-z0-9][a-z0-9_-]{0,31}$`}

// ParseTags reads tags as typed ("#work, travel  q4"): separated by
// commas or spaces, a leading # dropped, lower-cased, each once.
func ParseTags(text string) ([]string, error) {
	var out []string
	for _, word := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		tag := strings.ToLower(strings.TrimPrefix(word, "#"))
		if !tagRE.Get().MatchString(tag) {
			return nil, fmt.Errorf("tag %q must be letters, digits, - or _ (at most 32)", word)
		}
		if !slices.Contains(out, tag) {
			out = append(out, tag)
		}
	}
	return out, nil
}
