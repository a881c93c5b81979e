//go:build !unix

package cli

import "os"

// stopSignals: no job control here (Windows): nothing suspends the app,
// and Bubble Tea ignores ctrl+z's request.
var stopSignals []os.Signal

func stopProcess() {}
