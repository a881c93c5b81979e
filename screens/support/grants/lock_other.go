//go:build !unix

package grants

import (
	"encoding/json"
	"errors"
	"os"
)

// createExclusive creates a record (never an existing file). Without
// flock, whether its process is gone is told by its PID (openIfGone).
func createExclusive(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
}

// openIfGone opens a record whose process (by the PID it holds) is no
// longer running.
func openIfGone(path string) (f *os.File, gone bool, err error) {
	if info, err := os.Lstat(path); err != nil {
		return nil, false, err
	} else if !info.Mode().IsRegular() {
		return nil, false, errors.New("not a regular file; refused")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false, err
	}
	var g Grant
	if err := json.Unmarshal(data, &g); err != nil {
		return nil, false, err
	}
	if g.PID == os.Getpid() {
		return nil, false, nil
	}
	if p, err := os.FindProcess(g.PID); err == nil {
		p.Release()
		return nil, false, nil // still running (Windows opens the process)
	}
	f, err = os.OpenFile(path, os.O_RDWR, 0)
	return f, err == nil, err
}
