package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
)

// A data directory is checked before the sandbox uses it, as PostgreSQL
// checks its data folder: a folder other users may write to, a file the
// sandbox did not write, a symbolic link or a file of another user is
// refused with the reason, so a file another local user drops into
// the folder is never read into the store.

// SetAsideDir is the folder of a data directory where `cardterm sandbox
// repair` puts what it sets aside; the sandbox never reads it.
const SetAsideDir = "set-aside"

// checkDataDirectory refuses a data directory the sandbox must not use.
func checkDataDirectory(dir string) error {
	info, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	if info.Mode().Perm()&0o022 != 0 && !permissionsUnchecked {
		return fmt.Errorf("data directory %s: it is writable by its group or others (mode %v), so another user could change what the sandbox keeps; refusing to use it (chmod go-w %s)",
			dir, info.Mode().Perm(), dir)
	}
	if err := ownedByUs(info); err != nil {
		return fmt.Errorf("data directory %s: %v; refusing to use it", dir, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if !ourName(e.Name()) {
			return refuseDirectory(dir, path, "a file the sandbox does not write")
		}
		info, err := os.Lstat(path)
		if err != nil {
			return fmt.Errorf("data directory: %w", err)
		}
		switch {
		case info.Mode()&os.ModeSymlink != 0:
			return refuseDirectory(dir, path, "a symbolic link (the sandbox keeps only its own files here)")
		case e.Name() == SetAsideDir && !info.IsDir():
			return refuseDirectory(dir, path, "not a folder, where the sandbox keeps one")
		case e.Name() != SetAsideDir && !info.Mode().IsRegular():
			return refuseDirectory(dir, path, "it is not a regular file")
		}
		if err := ownedByUs(info); err != nil {
			return refuseDirectory(dir, path, err.Error())
		}
	}
	return nil
}

// ourName reports whether name is one the sandbox writes in a data
// directory: the database, the set-aside folder, or a journal an older
// cardterm left (store_legacy.go).
func ourName(name string) bool {
	return name == StoreFile || name == SetAsideDir || isLegacyJournal(name)
}

// refuseDirectory is the message for a data directory holding path.
func refuseDirectory(dir, path, why string) error {
	return fmt.Errorf("data directory %s holds %s: %s; refusing to use the directory (move it away)", dir, path, why)
}
