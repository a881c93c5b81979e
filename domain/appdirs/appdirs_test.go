package appdirs

import (
	"path/filepath"
	"testing"
)

func TestDir(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("LOCALAPPDATA", filepath.Join(home, "Local"))
	cases := []struct {
		name, goos, value, want string
	}{
		{"variable set", "linux", "/srv/config", "/srv/config"},
		{"home written ~", "linux", "~/conf", filepath.Join(home, "conf")},
		{"relative variable ignored", "linux", "conf", filepath.Join(home, ".config")},
		{"unset on Linux", "linux", "", filepath.Join(home, ".config")},
		{"unset on FreeBSD", "freebsd", "", filepath.Join(home, ".config")},
		{"unset on macOS", "darwin", "", filepath.Join(home, "Library", "Application Support")},
		{"unset on Windows", "windows", "", filepath.Join(home, "Local")},
		{"set on macOS", "darwin", "/srv/config", "/srv/config"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("XDG_CONFIG_HOME", c.value)
			if got := dir(c.goos, "XDG_CONFIG_HOME", ".config"); got != c.want {
				t.Errorf("dir(%s, %q) = %q, want %q", c.goos, c.value, got, c.want)
			}
		})
	}
}

// The environment is read on each call, not once at start.
func TestFoldersFollowTheEnvironment(t *testing.T) {
	for _, c := range []struct {
		variable string
		folder   func() string
	}{{"XDG_CONFIG_HOME", Config}, {"XDG_DATA_HOME", Data}, {"XDG_STATE_HOME", State}} {
		first, second := t.TempDir(), t.TempDir()
		t.Setenv(c.variable, first)
		if got := c.folder(); got != first {
			t.Fatalf("with %s=%s: %s", c.variable, first, got)
		}
		t.Setenv(c.variable, second)
		if got := c.folder(); got != second {
			t.Fatalf("after %s moved to %s: still %s", c.variable, second, got)
		}
	}
}
