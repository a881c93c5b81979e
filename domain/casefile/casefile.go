// Package casefile is a support case kept on disk: everything an agent
// gathered under one ticket (the look-ups made, notes, evidence copied
// from the screens with where it came from, runbooks run) so that a
// second agent can open the file and go on, and so that the ticket gets
// an export (Markdown for the ticket, JSON for tools) with no secret and
// no customer e-mail in it.
//
// A case is one JSON file, written whole (a temporary file renamed over
// it) and owner-only. It imports nothing of cardterm: the console fills
// it; this package keeps, loads and exports it.
package casefile

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"cardterm/domain/atomicfile"
)

// Version is the case file format's version, written in every file.
const Version = 1

// Case is one ticket's case.
type Case struct {
	Version int    `json:"version"`
	Ticket  string `json:"ticket"`
	// Tenant is the tenant's client key (public), so that a case is not
	// worked under another tenant by mistake.
	Tenant   string    `json:"tenantClientKey,omitempty"`
	Created  time.Time `json:"created"`
	Lookups  []Lookup  `json:"lookups"`
	Notes    []Note    `json:"notes"`
	Evidence []Item    `json:"evidence"`
	// Activity is what agents did in the case besides look-ups: notes
	// added, evidence kept, runbooks run, exports written.
	Activity []Activity `json:"activity"`
	// Events are the dated records gathered for the customer's timeline
	// (transactions, wallet history) from an approved session; the
	// consent audit is read again each time instead.
	Events []Event `json:"events,omitempty"`
	// State is the case's place in the desk's queue (state.go).
	State State `json:"state,omitzero"`
	// Revision counts the writes of the file; Updated and UpdatedBy say
	// the last one (shared.go).
	Revision  int       `json:"revision,omitempty"`
	Updated   time.Time `json:"updated,omitzero"`
	UpdatedBy string    `json:"updatedBy,omitempty"`
}

// Lookup is one look-up made under the ticket.
type Lookup struct {
	Time  time.Time `json:"time"`
	Agent string    `json:"agent"`
	// Kind is "user" or "onboarding".
	Kind   string `json:"kind"`
	ID     string `json:"id"`
	Region string `json:"region"`
	// Answer says what the gateway answered ("consent status complete",
	// "no consent set (404)").
	Answer string `json:"answer"`
}

// Note is a free-text note; Text may hold several lines.
type Note struct {
	// ID tells two notes apart when merging copies of a case (newID).
	ID    string    `json:"id,omitempty"`
	Time  time.Time `json:"time"`
	Agent string    `json:"agent"`
	Text  string    `json:"text"`
	// Draft marks a reply drafted by a runbook, for the agent to edit.
	Draft string `json:"draftFrom,omitempty"`
	// Edited is when the text was last edited: of two agents' edits of a
	// note, the later is kept.
	Edited time.Time `json:"edited,omitzero"`
}

// Request is where an answer came from.
type Request struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	// Region is "EU" or "US".
	Region string `json:"region"`
	Status int    `json:"status,omitempty"`
	// Via says which credentials read it: "client key" or "approved
	// session".
	Via string `json:"via"`
}

// String is the request as one line: "GET /v1/card/status (EU, approved session)".
func (r Request) String() string {
	return r.Method + " " + r.Path + " (" + r.Region + ", " + r.Via + ")"
}

// Item is one piece of evidence: what the agent saw, copied with its
// provenance.
type Item struct {
	Time  time.Time `json:"time"`
	Agent string    `json:"agent"`
	// Title says what it is: "Card screen", "selected consent", "fact:
	// card status".
	Title string `json:"title"`
	// Text is what was copied, as the screen showed it (secrets masked).
	Text    string  `json:"text"`
	Request Request `json:"request"`
	// AnsweredAt is when the gateway's answer arrived.
	AnsweredAt time.Time `json:"answeredAt"`
	// SHA256 is the hex SHA-256 of the gateway's answer body, exactly as
	// it came over the wire.
	SHA256 string `json:"sha256"`
	// More are the other answers a fact was drawn from (an address looked
	// up under every currency), each with its request and hash.
	More []Answered `json:"moreAnswers,omitempty"`
}

// Answered is one more answer of a piece of evidence.
type Answered struct {
	Request    Request   `json:"request"`
	AnsweredAt time.Time `json:"answeredAt"`
	SHA256     string    `json:"sha256"`
}

// Activity is one thing an agent did.
type Activity struct {
	ID     string    `json:"id,omitempty"`
	Time   time.Time `json:"time"`
	Agent  string    `json:"agent"`
	Action string    `json:"action"`
	Detail string    `json:"detail,omitempty"`
}

// Event is one dated record for the timeline.
type Event struct {
	Time   string `json:"time"`
	Source string `json:"source"`
	Text   string `json:"text"`
	// Key identifies the record at its source, so that a record read
	// twice is kept once.
	Key string `json:"key"`
}

// New starts a case for a ticket.
func New(ticket, tenant string, now time.Time) *Case {
	return &Case{Version: Version, Ticket: strings.TrimSpace(ticket), Tenant: tenant, Created: now.UTC()}
}

// AddLookup records a look-up.
func (c *Case) AddLookup(l Lookup) { c.Lookups = append(c.Lookups, l) }

// AddNote records a note and the act of adding it.
func (c *Case) AddNote(n Note) {
	if n.ID == "" {
		n.ID = newID()
	}
	c.Notes = append(c.Notes, n)
	what := "note added"
	if n.Draft != "" {
		what = "reply drafted by runbook " + n.Draft
	}
	c.Did(Activity{Time: n.Time, Agent: n.Agent, Action: what})
}

// AddEvidence records evidence and the act of keeping it.
func (c *Case) AddEvidence(it Item) {
	c.Evidence = append(c.Evidence, it)
	c.Did(Activity{Time: it.Time, Agent: it.Agent, Action: "evidence kept", Detail: it.Title + " from " + it.Request.String()})
}

// Did records something else the agent did.
func (c *Case) Did(a Activity) {
	if a.ID == "" {
		a.ID = newID()
	}
	c.Activity = append(c.Activity, a)
}

// newID is a random id for an entry, so that two entries made at the
// same instant by the same agent are both kept when copies merge.
func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// AddEvents keeps the timeline records not kept already.
func (c *Case) AddEvents(events []Event) {
	seen := make(map[string]bool, len(c.Events))
	for _, e := range c.Events {
		seen[e.Key] = true
	}
	for _, e := range events {
		if !seen[e.Key] {
			seen[e.Key] = true
			c.Events = append(c.Events, e)
		}
	}
}

// Load reads a case file. A symbolic link is refused here as Save
// refuses it: opened, the case could not be kept, and every note the
// agent added would be lost at each write.
func Load(path string) (*Case, error) {
	if err := refuseSymlink(path, "open the file it points to instead"); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("the case file: %w", err)
	}
	var c Case
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("%s is not a case file: %w", path, err)
	}
	if c.Version != Version || c.Ticket == "" {
		return nil, fmt.Errorf("%s is not a case file of this version (version %d, ticket %q)", path, c.Version, c.Ticket)
	}
	return &c, nil
}

// Save writes the case whole: a temporary file in the same folder,
// owner-only, renamed over path, so a crash leaves the old file or the
// new one, never half of one. The folder is made owner-only if new.
func (c *Case) Save(path string) error {
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("the cases folder: %w", err)
	}
	if err := refuseSymlink(path, "refusing to write through it"); err != nil {
		return err
	}
	// The temporary file's name is the one AdoptOrphans looks for.
	if err := atomicfile.WriteVia(path, orphanPattern, atomicfile.Bytes(append(data, '\n'))); err != nil {
		return fmt.Errorf("the case file: %w", err)
	}
	return nil
}

// refuseSymlink is the error Load and Save give when path is a symbolic
// link, advice saying what to do instead; nil for anything else.
func refuseSymlink(path, advice string) error {
	if info, err := os.Lstat(path); err == nil && info.Mode()&os.ModeSymlink != 0 {
		return errors.New("the case file " + path + " is a symbolic link; " + advice)
	}
	return nil
}

// PathFor is the file of a ticket's case in dir.
func PathFor(dir, ticket string) string {
	return filepath.Join(dir, "case-"+fileSafe(ticket)+".json")
}

// fileSafe keeps the characters of a ticket a file name can carry.
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, s)
}

// Clone is a copy that shares nothing the case may change, for a write
// made outside the model while the case goes on.
func (c *Case) Clone() *Case {
	out := *c
	out.Lookups = slices.Clone(c.Lookups)
	out.Notes = slices.Clone(c.Notes)
	out.Evidence = slices.Clone(c.Evidence)
	for i := range out.Evidence {
		out.Evidence[i].More = slices.Clone(c.Evidence[i].More)
	}
	out.Activity = slices.Clone(c.Activity)
	out.Events = slices.Clone(c.Events)
	return &out
}
