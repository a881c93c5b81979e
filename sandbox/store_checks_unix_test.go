//go:build unix

package sandbox

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fileOf is a FileInfo owned by uid.
type fileOf struct{ uid uint32 }

func (f fileOf) Name() string       { return "sandbox.journal.7" }
func (f fileOf) Size() int64        { return 0 }
func (f fileOf) Mode() os.FileMode  { return 0o600 }
func (f fileOf) ModTime() time.Time { return time.Time{} }
func (f fileOf) IsDir() bool        { return false }
func (f fileOf) Sys() any           { return &syscall.Stat_t{Uid: f.uid} }

func TestAFileOfAnotherUserIsRefused(t *testing.T) {
	us := uint32(os.Getuid())
	if err := ownedByUs(fileOf{us}); err != nil {
		t.Errorf("our own file: %v", err)
	}
	if err := ownedByUs(fileOf{us + 1}); err == nil || !strings.Contains(err.Error(), "another user") {
		t.Errorf("another user's file: %v", err)
	}
}
