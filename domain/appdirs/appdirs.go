// Package appdirs says where cardterm keeps the user's files: the XDG
// base directories ($XDG_CONFIG_HOME, $XDG_DATA_HOME, $XDG_STATE_HOME)
// when set to an absolute path, else the system's own folders, the ones
// earlier releases used: ~/.config, ~/.local/share and ~/.local/state on
// Linux and the BSDs, ~/Library/Application Support on macOS,
// %LOCALAPPDATA% on Windows.
//
// The environment is read on each call, so a sealed test that moves it
// gets its own folders, and nothing is read when the program starts (the
// library this replaces read the user-dirs file and listed font folders
// before main, on every start).
package appdirs

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Config is the user's configuration folder.
func Config() string { return dir(runtime.GOOS, "XDG_CONFIG_HOME", ".config") }

// Data is the user's data folder.
func Data() string { return dir(runtime.GOOS, "XDG_DATA_HOME", ".local/share") }

// State is the user's state folder (what a program keeps between runs
// that is not worth a backup).
func State() string { return dir(runtime.GOOS, "XDG_STATE_HOME", ".local/state") }

// dir is the folder $variable names, else the system's own for goos;
// unixHome is the folder under the home on Linux and the BSDs.
func dir(goos, variable, unixHome string) string {
	home, _ := os.UserHomeDir()
	if named := expandHome(os.Getenv(variable), home); named != "" && filepath.IsAbs(named) {
		return named
	}
	switch goos {
	case "darwin", "ios":
		return filepath.Join(home, "Library", "Application Support")
	case "windows":
		if local := os.Getenv("LOCALAPPDATA"); local != "" {
			return local
		}
		return filepath.Join(home, "AppData", "Local")
	}
	return filepath.Join(home, filepath.FromSlash(unixHome))
}

// expandHome writes a leading ~ as the home folder.
func expandHome(path, home string) string {
	if path == "~" {
		return home
	}
	if rest, ok := strings.CutPrefix(path, "~/"); ok && home != "" {
		return filepath.Join(home, rest)
	}
	return path
}
