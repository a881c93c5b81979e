// Package profiledata is where a card holder's own data is kept on this
// machine, one folder per profile: budgets, guard rules and the actions
// they took, notes and tags on payments. The gateway offers none of it,
// so it lives beside the app's other state (the XDG data folder, as the
// support console's case files do) and never leaves the machine.
package profiledata

import (
	"io"
	"os"
	"path/filepath"
	"strings"

	"cardterm/domain/appdirs"
	"cardterm/domain/atomicfile"
)

// Dir is the profile's folder: cardterm/holder/PROFILE in the user's data
// folder (XDG_DATA_HOME, else ~/.local/share on Linux). The environment
// is read on each call, so sealed tests get their own folder.
func Dir(profile string) string {
	base := appdirs.Data()
	if profile == "" {
		profile = "default"
	}
	return filepath.Join(base, "cardterm", "holder", FileSafe(profile))
}

// FileSafe keeps the characters a file name can carry; any other is "_".
func FileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.', r == '@':
			return r
		}
		return '_'
	}, s)
}

// WriteFile writes path through a temporary file in the same folder,
// synced and renamed, owner-only, so a reader never sees half a file and
// a crash loses nothing that was kept before.
func WriteFile(path string, write func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(path, write)
}
