package savedview

import (
	"os"
	"path/filepath"
	"testing"
)

// Views are kept per profile, a name saved again replaces the view, the
// file is owner-only, and a filter comes back as it went.
func TestStoreKeepsEachProfilesViews(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "views.json")
	acme, other := Store{Path: path, Profile: "acme"}, Store{Path: path}
	filter := map[string]string{"dateTo": "2026-01-31", "searchKey": "Amazon"}
	for _, save := range []func() error{
		func() error {
			return acme.Save(View{Screen: "transactions", Name: "jan", Filter: map[string]string{"searchKey": "old"}})
		},
		func() error {
			return acme.Save(View{Screen: "transactions", Name: "jan", Filter: filter})
		},
		func() error { return other.Save(View{Screen: "transactions", Name: "mine"}) },
	} {
		if err := save(); err != nil {
			t.Fatal(err)
		}
	}
	views, err := acme.Load()
	if err != nil || len(views) != 1 {
		t.Fatalf("acme's views: %+v %v", views, err)
	}
	if got := views[0].Filter; got["searchKey"] != "Amazon" || got["dateTo"] != "2026-01-31" {
		t.Fatalf("filter back: %+v", got)
	}
	if names := Names(mustLoad(t, other), "transactions"); len(names) != 1 || names[0] != "mine" {
		t.Fatalf("no profile's views: %v", names)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("file mode: %v %v", info.Mode(), err)
	}
	for _, bad := range []string{"", "  ", "tab\there", string(make([]byte, 41))} {
		if CheckName(bad) == nil {
			t.Errorf("name %q accepted", bad)
		}
	}
}

func mustLoad(t *testing.T, s Store) []View {
	t.Helper()
	views, err := s.Load()
	if err != nil {
		t.Fatal(err)
	}
	return views
}
