//go:build !unix

package actionlog

import (
	"errors"
	"os"
	"path/filepath"
)

// openForAppend opens the log to read its ends and append, refusing a
// symbolic link and anything but a regular file. Other systems have no
// O_NOFOLLOW, owner id or flock in the standard library: the link is
// checked before opening, and appends are serialized in this process only.
func openForAppend(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	if err := refuseLink(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		f.Close()
		return nil, errors.New("it is not a regular file; refused")
	}
	return f, nil
}

// openForRead opens the log to read it, with openForAppend's refusals.
func openForRead(path string) (*os.File, error) {
	if err := refuseLink(path); err != nil {
		return nil, err
	}
	return os.Open(path)
}

func refuseLink(path string) error {
	if info, err := os.Lstat(path); err == nil && info.Mode()&os.ModeSymlink != 0 {
		return errors.New("it is a symbolic link; refused (the log must be a file of its own)")
	}
	return nil
}

// readFlags open a file to read.
const readFlags = os.O_RDONLY
