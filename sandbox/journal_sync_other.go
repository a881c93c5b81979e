//go:build !linux

package sandbox

import "os"

// datasync makes a journal's new bytes durable.
func datasync(f *os.File) error { return f.Sync() }
