package cli

import (
	"io"

	"github.com/charmbracelet/fang"
)

// lookupFailed prints why a look-up (cardterm get, cardterm --json LOOKUP)
// ended, as every command's error reads in a script or a log: through
// printError, named by commandOf. A mistake on the command line starts
// with the command used ("cardterm get: ") and ends with the hint to
// --help; the gateway's refusal, no answer or an answer that is not JSON
// starts "cardterm: LOOKUP: ". It returns the exit code err calls for.
// The line is plain even on a terminal: fang's styled block would ask the
// terminal for its background first.
func lookupFailed(stderr io.Writer, command, lookup string, err error) int {
	if lookup != "" {
		err = lookupError{lookup: lookup, err: err}
	}
	err = commandError{command: command, err: err}
	printError(stderr, false, fang.Styles{}, err, commandOf(err, nil))
	return exitCodeFor(err)
}

// lookupError is a look-up's failure, named by the look-up: its text is
// the one-line reason (lookupMessage); its kind (exitCodeFor) the
// cause's.
type lookupError struct {
	lookup string
	err    error
}

func (e lookupError) Error() string { return e.lookup + ": " + lookupMessage(e.err) }
func (e lookupError) Unwrap() error { return e.err }

// asUsage makes err a mistake on the command line (a setting, a flag).
func asUsage(err error) error { return usageError{err.Error()} }
