package support

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"

	tea "charm.land/bubbletea/v2"

	"cardterm/domain/atomicfile"
	"cardterm/screens/screenkit"
	"cardterm/ui"
	"cardterm/ui/table"
)

// recentLookup is one look-up kept for next time: the id, its region and
// the ticket it was worked under, never the customer's data.
type recentLookup struct {
	Kind   caseKind `json:"kind"`
	ID     string   `json:"id"`
	US     bool     `json:"us,omitempty"`
	Ticket string   `json:"ticket,omitempty"`
	// Demo marks a sandbox demo user offered before any look-up; never
	// saved.
	Demo string `json:"-"`
}

// same reports whether two look-ups are of one id in one region.
func (r recentLookup) same(o recentLookup) bool {
	return r.Kind == o.Kind && r.ID == o.ID && r.US == o.US
}

type recentLookups []recentLookup

// maxRecent is how many look-ups are kept.
const maxRecent = 20

var lookupColumns = []table.Column{{Title: "Kind", Width: 10}, {Title: "Region", Width: 6}, {Title: "Id", Min: 20}, {Title: "Ticket", Min: 8}}

// demoUserColumns list the sandbox's demo users before any look-up: they
// have no ticket, so the last column is the demo account they sign in as.
var demoUserColumns = []table.Column{{Title: "Kind", Width: 10}, {Title: "Region", Width: 6}, {Title: "Id", Min: 20}, {Title: "Demo user", Min: 9}}

// stateMu serializes the read-merge-write of state files within the
// process: two look-ups in quick succession must not drop each other.
var stateMu sync.Mutex

// readRecent reads a state file; a missing one is an empty list.
func readRecent(path string) (recentLookups, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out recentLookups
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, errors.New(path + " is not a list of look-ups; it will be rewritten")
	}
	return out, nil
}

// merge puts first in front of list, keeping every other look-up once
// and at most maxRecent in all. A look-up already there keeps its ticket
// when first brings none.
func merge(first recentLookup, list recentLookups) recentLookups {
	if i := slices.IndexFunc(list, first.same); i >= 0 && first.Ticket == "" {
		first.Ticket = list[i].Ticket
	}
	out := recentLookups{first}
	for _, r := range list {
		if !r.same(first) && r.Demo == "" {
			out = append(out, r)
		}
	}
	if len(out) > maxRecent {
		out = out[:maxRecent]
	}
	return out
}

// loadRecent reads the state file in a command.
func (s *Screen) loadRecent() tea.Cmd {
	path := s.opts.StateFile
	if path == "" {
		return nil
	}
	_, cmd := ui.Go(s.Requests, func(context.Context) (recentLookups, error) {
		stateMu.Lock()
		defer stateMu.Unlock()
		return readRecent(path)
	})
	return cmd
}

// gotRecent merges what the file held behind the look-ups made since the
// console opened.
func (s *Screen) gotRecent(msg ui.Result[recentLookups]) {
	if msg.Err != nil {
		return // a missing or broken file only means no history
	}
	for _, r := range msg.Value {
		if !slices.ContainsFunc(s.recent, r.same) && len(s.recent) < maxRecent {
			s.recent = append(s.recent, r)
		}
	}
	s.syncLookups()
}

// shownLookups is what the look-up list offers: the recent look-ups, or
// the sandbox's demo users while there are none.
func (s *Screen) shownLookups() recentLookups {
	if len(s.recent) > 0 || len(s.opts.DemoUsers) == 0 {
		return s.recent
	}
	out := make(recentLookups, len(s.opts.DemoUsers))
	for i, u := range s.opts.DemoUsers {
		out[i] = recentLookup{Kind: caseUser, ID: u.ID, US: u.US, Demo: u.Username}
	}
	return out
}

func (s *Screen) syncLookups() {
	list := s.shownLookups()
	columns := lookupColumns
	rows := make([][]string, len(list))
	for i, r := range list {
		label := r.Ticket
		if r.Demo != "" {
			label, columns = r.Demo, demoUserColumns
		}
		rows[i] = []string{string(r.Kind), regionName(r.US), r.ID, label}
	}
	screenkit.KeepCursor(&s.lookups, func() {
		s.lookups.SetColumns(columns)
		s.lookups.SetRows(rows)
	})
}

// openSelectedLookup opens the look-up under the cursor in its region,
// with its ticket.
func (s *Screen) openSelectedLookup() tea.Cmd {
	r, ok := screenkit.Selected(&s.lookups, s.shownLookups())
	if !ok {
		return nil
	}
	return s.lookUp(r.Kind, r.ID, r.US, r.Ticket)
}

// remember puts a look-up first in the history and saves it: the file is
// read, merged and written in one command, so a look-up made before the
// list was read (cardterm support USER_ID) keeps every earlier one. The
// file is 0600: ids of customers are not for other users of the machine.
func (s *Screen) remember(r recentLookup) tea.Cmd {
	s.recent = merge(r, s.recent)
	s.syncLookups()
	path := s.opts.StateFile
	if path == "" {
		return nil
	}
	_, cmd := ui.Go(s.Requests, func(context.Context) (recentLookups, error) {
		stateMu.Lock()
		defer stateMu.Unlock()
		saved, _ := readRecent(path) // a broken file is rewritten
		list := merge(r, saved)
		data, err := json.MarshalIndent(list, "", "  ")
		if err != nil {
			return nil, err
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, err
		}
		return list, atomicfile.Write(path, atomicfile.Bytes(data))
	})
	return cmd
}
