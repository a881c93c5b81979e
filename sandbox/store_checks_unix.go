//go:build unix

package sandbox

import (
	"fmt"
	"os"
	"syscall"
)

// permissionsUnchecked: Unix modes say who may write.
const permissionsUnchecked = false

// ownedByUs refuses a file another user owns.
func ownedByUs(info os.FileInfo) error {
	st, ok := info.Sys().(*syscall.Stat_t)
	if uid := os.Getuid(); ok && int(st.Uid) != uid {
		return fmt.Errorf("it belongs to another user (uid %d, not %d)", st.Uid, uid)
	}
	return nil
}
