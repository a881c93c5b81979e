package support

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
)

// caseKind says what an id is.
type caseKind string

const (
	caseUser       caseKind = "user"
	caseOnboarding caseKind = "onboarding"
)

// recentLookup is one look-up kept for next time: ids only, never data.
type recentLookup struct {
	Kind caseKind `json:"kind"`
	ID   string   `json:"id"`
}

type recentLookups []recentLookup

// maxRecent is how many look-ups are kept.
const maxRecent = 20

var lookupColumns = []ui.Column{{Title: "Kind", Width: 10}, {Title: "Id", Min: 20}}

// loadRecent reads the state file in a command.
func (s *Screen) loadRecent() tea.Cmd {
	path := s.opts.StateFile
	if path == "" {
		return nil
	}
	_, cmd := ui.Go(s.Requests, func(context.Context) (recentLookups, error) {
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
	})
	return cmd
}

func (s *Screen) gotRecent(msg ui.Result[recentLookups]) {
	if msg.Err != nil {
		return // a missing or broken file only means no history
	}
	// A look-up made while the file was read stays first.
	for _, r := range msg.Value {
		if !slices.Contains(s.recent, r) && len(s.recent) < maxRecent {
			s.recent = append(s.recent, r)
		}
	}
	s.syncLookups()
}

func (s *Screen) syncLookups() {
	rows := make([][]string, len(s.recent))
	for i, r := range s.recent {
		rows[i] = []string{string(r.Kind), r.ID}
	}
	s.lookups.SetRows(rows)
}

// remember puts a look-up first in the history and saves it (0600: ids of
// customers are not for other users of the machine).
func (s *Screen) remember(kind caseKind, id string) tea.Cmd {
	r := recentLookup{Kind: kind, ID: id}
	s.recent = slices.DeleteFunc(s.recent, func(x recentLookup) bool { return x == r })
	s.recent = slices.Insert(s.recent, 0, r)
	if len(s.recent) > maxRecent {
		s.recent = s.recent[:maxRecent]
	}
	s.syncLookups()
	path, list := s.opts.StateFile, slices.Clone(s.recent)
	if path == "" {
		return nil
	}
	_, cmd := ui.Go(s.Requests, func(context.Context) (struct{}, error) {
		data, err := json.MarshalIndent(list, "", "  ")
		if err != nil {
			return struct{}{}, err
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return struct{}{}, err
		}
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, data, 0o600); err != nil {
			return struct{}{}, err
		}
		return struct{}{}, os.Rename(tmp, path)
	})
	return cmd
}

// lookupForm asks for a user id or an onboarding id.
func lookupForm(st *theme.Styles, kind caseKind) *ui.Form {
	label, title := "User id", "Look up a customer by user id"
	if kind == caseOnboarding {
		label, title = "Onboarding id", "Look up the consent sets of an onboarding"
	}
	return ui.NewForm(st, ui.FormSpec{
		Title:  title,
		Lines:  []string{"Needs only the client key: no customer sign-in."},
		Submit: "look up",
		Fields: []ui.FieldSpec{{Key: string(kind), Label: label, CharLimit: 128, Check: func(v string) string {
			if v == "" {
				return "paste an id"
			}
			return ""
		}}},
	})
}

// caseData is one customer's case as the gateway answered it.
type caseData struct {
	kind caseKind
	id   string
	// status is the user's aggregate status (user look-ups).
	status apiclient.UserConsentStatus
	// notFound is the gateway's 404: no consent set for this id, which is
	// not the status "none".
	notFound bool
	sets     []apiclient.ConsentSet
	err      error
}

// lookUp reads a case in a command; the case shows while it loads.
func (s *Screen) lookUp(kind caseKind, id string) tea.Cmd {
	id = strings.TrimSpace(id)
	s.view, s.loading = viewCase, true
	s.kase = &caseData{kind: kind, id: id}
	s.sets.SetColumns(columnsFor(kind))
	s.sets.SetRows(nil)
	client := s.Deps.Client
	cmd := ui.Start(s.Requests, &s.loadID, func(ctx context.Context) (*caseData, error) {
		return readCase(ctx, client, kind, id), nil
	})
	return tea.Batch(cmd, s.remember(kind, id))
}

// readCase reads a user's status with the sets, or an onboarding's sets.
func readCase(ctx context.Context, client *apiclient.Client, kind caseKind, id string) *caseData {
	c := &caseData{kind: kind, id: id}
	var err error
	if kind == caseUser {
		c.status, err = client.UserConsent(ctx, id, true)
		c.sets = c.status.ConsentSets
	} else {
		var o apiclient.OnboardingConsentSets
		o, err = client.OnboardingConsents(ctx, id)
		c.sets = o.ConsentSets
	}
	switch {
	case apiclient.IsNotFound(err):
		c.notFound = true
	case err != nil:
		c.err = err
	}
	return c
}

// reload reads the case shown again (after a change, or r).
func (s *Screen) reload() tea.Cmd {
	if s.kase == nil {
		return nil
	}
	kind, id := s.kase.kind, s.kase.id
	client := s.Deps.Client
	s.loading = true
	return ui.Start(s.Requests, &s.loadID, func(ctx context.Context) (*caseData, error) {
		return readCase(ctx, client, kind, id), nil
	})
}

func (s *Screen) gotCase(msg ui.Result[*caseData]) tea.Cmd {
	if msg.ID != s.loadID || msg.Value == nil {
		return nil
	}
	s.loading = false
	s.kase = msg.Value
	s.sets.SetRows(caseRows(s.kase))
	s.SetSize(s.Width, s.Height)
	if s.kase.err != nil {
		return screenkit.Failed("looking up "+string(s.kase.kind)+" "+s.kase.id, s.kase.err)
	}
	return nil
}
