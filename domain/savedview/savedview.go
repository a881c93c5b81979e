// Package savedview keeps the user's saved views: a screen's filter saved
// under a name, per profile, in a state file, so the app's palette and
// `cardterm get … --view NAME` open it again after a restart.
package savedview

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"cardterm/domain/atomicfile"
)

// View is one saved filter.
type View struct {
	// Screen is the screen's ID ("transactions"); Name the user's name.
	Screen string `json:"screen"`
	Name   string `json:"name"`
	// Filter is the screen's filter fields, by the gateway's query names.
	Filter map[string]string `json:"filter"`
}

// Store is the state file of one profile's views.
type Store struct {
	Path string
	// Profile names whose views these are ("" for no profile).
	Profile string
}

// file is the state file: each profile's views.
type file struct {
	Profiles map[string][]View `json:"profiles"`
}

// profileKey is how the file names the settings without a profile.
func (s Store) profileKey() string {
	if s.Profile == "" {
		return "(no profile)"
	}
	return s.Profile
}

// Load is the profile's views; a missing file is none.
func (s Store) Load() ([]View, error) {
	f, err := s.read()
	return f.Profiles[s.profileKey()], err
}

func (s Store) read() (file, error) {
	f := file{Profiles: map[string][]View{}}
	data, err := os.ReadFile(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return f, fmt.Errorf("%s: not a views file: %w", s.Path, err)
	}
	if f.Profiles == nil {
		f.Profiles = map[string][]View{}
	}
	return f, nil
}

// Save keeps v, replacing the profile's view of the same screen and name,
// and writes the file whole (a temporary file renamed), owner-only.
func (s Store) Save(v View) error {
	if err := CheckName(v.Name); err != nil {
		return err
	}
	f, err := s.read()
	if err != nil {
		return err
	}
	views := slices.DeleteFunc(f.Profiles[s.profileKey()], func(old View) bool {
		return old.Screen == v.Screen && old.Name == v.Name
	})
	f.Profiles[s.profileKey()] = append(views, v)
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(s.Path, atomicfile.Bytes(append(data, '\n')))
}

// CheckName refuses a name that is empty, too long or holds a control
// character.
func CheckName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return errors.New("a view needs a name")
	case len(name) > 40:
		return errors.New("a view's name is at most 40 characters")
	case strings.ContainsFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f }):
		return errors.New("a view's name cannot hold control characters")
	}
	return nil
}

// Find is the view of screen called name.
func Find(views []View, screen, name string) (View, bool) {
	i := slices.IndexFunc(views, func(v View) bool { return v.Screen == screen && v.Name == name })
	if i < 0 {
		return View{}, false
	}
	return views[i], true
}

// Names lists the names of screen's views, for messages and completion.
func Names(views []View, screen string) []string {
	var names []string
	for _, v := range views {
		if v.Screen == screen {
			names = append(names, v.Name)
		}
	}
	return names
}

// FromWhitelist is the whitelist's currency and quick filter as a view's
// fields.
func FromWhitelist(currency, search string) map[string]string {
	return map[string]string{"currency": currency, "search": search}
}

// Whitelist is a view's currency (lower case, as the gateway names it)
// and quick filter.
func (v View) Whitelist() (currency, search string) {
	return strings.ToLower(strings.TrimSpace(v.Filter["currency"])), v.Filter["search"]
}

// FromConsent is a consent look-up, a user's or an onboarding's id, as a
// view's fields.
func FromConsent(userID, onboardingID string) map[string]string {
	return map[string]string{"userId": userID, "onboardingId": onboardingID}
}

// Consent is a view's look-up: a user's id or an onboarding's.
func (v View) Consent() (userID, onboardingID string) {
	return strings.TrimSpace(v.Filter["userId"]), strings.TrimSpace(v.Filter["onboardingId"])
}

// FromEvents is the events' quick filter as a view's fields.
func FromEvents(search string) map[string]string { return map[string]string{"search": search} }

// Events is a view's quick filter of the events.
func (v View) Events() (search string) { return v.Filter["search"] }
