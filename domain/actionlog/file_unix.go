//go:build unix

package actionlog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// currentUID is whose files the log accepts (a test stands in for
// another user).
var currentUID = os.Geteuid

// openForAppend opens the log to read its ends and append, refusing a
// symbolic link (O_NOFOLLOW: no check-then-open race), anything but a
// regular file (O_NONBLOCK: a FIFO put there cannot hang the app) and a
// file of another user; the file is locked (flock) until closed.
func openForAppend(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600)
	if err != nil {
		return nil, explainOpen(path, err)
	}
	if err := checkFile(f); err != nil {
		f.Close()
		return nil, err
	}
	if err := tighten(f); err != nil {
		f.Close()
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("locking it: %w", err)
	}
	return f, nil
}

// openForRead opens the log to read it, with openForAppend's refusals.
func openForRead(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		return nil, explainOpen(path, err)
	}
	if err := checkFile(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// explainOpen says a symbolic link in plain words (open answers ELOOP).
func explainOpen(path string, err error) error {
	if info, lerr := os.Lstat(path); lerr == nil && info.Mode()&os.ModeSymlink != 0 {
		return errors.New("it is a symbolic link; refused (the log must be a file of its own)")
	}
	return err
}

// checkFile refuses what is not a regular file of this user.
func checkFile(f *os.File) error {
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("it is not a regular file (%v); refused", info.Mode().Type())
	}
	if st, ok := info.Sys().(*syscall.Stat_t); ok && int(st.Uid) != currentUID() {
		return fmt.Errorf("it belongs to another user (uid %d); refused", st.Uid)
	}
	return nil
}

// tighten makes a file others can read or write owner-only.
func tighten(f *os.File) error {
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if info.Mode().Perm()&0o077 == 0 {
		return nil
	}
	if err := f.Chmod(0o600); err != nil {
		return fmt.Errorf("it is open to other users and cannot be made owner-only: %w", err)
	}
	return nil
}

// readFlags open a file to read; O_NONBLOCK so that opening a FIFO
// returns at once, before openRegular's check.
const readFlags = os.O_RDONLY | syscall.O_NONBLOCK
