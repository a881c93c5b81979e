package sandbox

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// A data directory is checked, reading only, before the sandbox uses it,
// as PostgreSQL checks its data folder: what another local user could have
// put or changed there is refused with the reason, never read.

// SetAsideDir is the folder of a data directory where `cardterm sandbox
// repair` puts what it sets aside; the sandbox never reads it.
const SetAsideDir = "set-aside"

// checkDataDirectory refuses a data directory the sandbox must not use;
// path is its database, fresh when there is none yet.
func checkDataDirectory(dir string) (path string, fresh bool, err error) {
	info, err := os.Stat(dir)
	if err != nil {
		return "", false, fmt.Errorf("data directory: %w", err)
	}
	if info.Mode().Perm()&0o022 != 0 && !permissionsUnchecked {
		return "", false, fmt.Errorf("data directory %s: it is writable by its group or others (mode %v), so another user could change what the sandbox keeps; refusing to use it (chmod go-w %s)",
			dir, info.Mode().Perm(), dir)
	}
	if err := ownedByUs(info); err != nil {
		return "", false, fmt.Errorf("data directory %s: %v; refusing to use it", dir, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", false, fmt.Errorf("data directory: %w", err)
	}
	var journals []string
	fresh = true
	for _, entry := range entries {
		if err := checkEntry(dir, entry); err != nil {
			return "", false, err
		}
		fresh = fresh && entry.Name() != StoreFile
		if isLegacyJournal(entry.Name()) {
			journals = append(journals, filepath.Join(dir, entry.Name()))
		}
	}
	if len(journals) > 0 {
		return "", false, refuseLegacyJournals(dir, journals)
	}
	return filepath.Join(dir, StoreFile), fresh, nil
}

// checkEntry refuses an entry the sandbox did not write: a foreign name, a
// symbolic link (never followed), a file of the wrong kind or of another
// user, an empty database (bbolt would start it afresh, as if nothing was
// kept) or one that is not bbolt's.
func checkEntry(dir string, entry os.DirEntry) error {
	info, err := entry.Info() // of a link itself, as Lstat
	if err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	name, why := entry.Name(), ""
	switch {
	case name != StoreFile && name != SetAsideDir && !isLegacyJournal(name):
		why = "a file the sandbox does not write"
	case info.Mode()&os.ModeSymlink != 0:
		why = "a symbolic link (the sandbox keeps only its own files here)"
	case name == SetAsideDir && !info.IsDir():
		why = "not a folder, where the sandbox keeps one"
	case name != SetAsideDir && !info.Mode().IsRegular():
		why = "it is not a regular file"
	case name == StoreFile && info.Size() == 0:
		return refuseStore(filepath.Join(dir, name), "it is empty (0 bytes): no store, and not one to start afresh over")
	default:
		if err := ownedByUs(info); err != nil {
			why = err.Error()
		} else if name == StoreFile && !hasBoltMagic(filepath.Join(dir, name)) {
			// bbolt calls a short foreign file too small, as it would a
			// damaged store, which repair would then set aside.
			return refuseStore(filepath.Join(dir, name), "the file is not a cardterm sandbox store")
		}
	}
	if why == "" {
		return nil
	}
	return fmt.Errorf("data directory %s holds %s: %s; refusing to use the directory (move it away)", dir, filepath.Join(dir, name), why)
}

// hasBoltMagic reports whether the file starts as a bbolt database: its
// first meta page's magic number, at byte 16.
func hasBoltMagic(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return true // the open that follows says why
	}
	defer f.Close()
	var head [20]byte
	_, err = io.ReadFull(f, head[:])
	return err == nil && binary.LittleEndian.Uint32(head[16:]) == 0xED0CDAED
}
