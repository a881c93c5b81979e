//go:build unix

package grants

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// createExclusive creates a record (never an existing file or a link)
// and locks it for this process.
func createExclusive(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	return f, nil
}

// openIfGone opens a record and takes its lock if no process holds it:
// gone is true then, and f holds the lock. A link or another user's file
// is refused.
func openIfGone(path string) (f *os.File, gone bool, err error) {
	f, err = os.OpenFile(path, os.O_RDWR|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, false, err
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = errors.New("not a regular file; refused")
	}
	if st, ok := info.Sys().(*syscall.Stat_t); err == nil && ok && int(st.Uid) != os.Geteuid() {
		err = fmt.Errorf("it belongs to another user (uid %d); refused", st.Uid)
	}
	if err != nil {
		f.Close()
		return nil, false, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, false, nil
		}
		return nil, false, err
	}
	return f, true, nil
}
