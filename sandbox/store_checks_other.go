//go:build !unix

package sandbox

import "os"

// permissionsUnchecked: here modes and owners do not say who may write.
const permissionsUnchecked = true

func ownedByUs(os.FileInfo) error { return nil }
