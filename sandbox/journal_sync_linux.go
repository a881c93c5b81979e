//go:build linux

package sandbox

import (
	"os"
	"syscall"
)

// datasync makes a journal's new bytes durable; fdatasync skips the
// timestamps fsync would also write.
func datasync(f *os.File) error { return syscall.Fdatasync(int(f.Fd())) }
