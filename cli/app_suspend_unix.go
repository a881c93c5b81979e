//go:build unix

package cli

import (
	"os"
	"syscall"
)

// stopSignals are the job-control signals that suspend the app.
var stopSignals = []os.Signal{syscall.SIGTSTP}

// stopProcess stops this process as SIGTSTP's default action would: once
// the app watches SIGTSTP, that default no longer applies, so it sends
// itself SIGSTOP (which cannot be caught). The shell sees a stopped job,
// and fg continues it with SIGCONT, on which Bubble Tea takes the
// terminal back.
func stopProcess() { _ = syscall.Kill(os.Getpid(), syscall.SIGSTOP) }
