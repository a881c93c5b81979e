//go:build !unix

package casefile

import "sync"

// lockMu stands in for flock where Go's standard library has none: writes
// are serialized within this process only (two consoles on Windows rely
// on the merge alone).
var lockMu sync.Mutex

func lockFile(string) (func(), error) {
	lockMu.Lock()
	return lockMu.Unlock, nil
}
