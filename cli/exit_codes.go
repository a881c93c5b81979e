package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"cardterm/apiclient"
	"cardterm/domain/statement"
)

// Exit codes, the same for every command and documented in --help and the
// README, so scripts can tell a refusal from a typo from a dead network.
const (
	exitOK          = 0   // done
	exitRefused     = 1   // the gateway refused (any 4xx/5xx but authentication)
	exitUsage       = 2   // bad flags or arguments, a malformed setting
	exitAuth        = 3   // not signed in, or the credentials were refused (401, 403, 498, 499)
	exitNetwork     = 4   // no answer: unreachable, timed out, TLS
	exitIncomplete  = 5   // a page walk stopped before the end: a page came again, or the cap
	exitInterrupted = 130 // ctrl+c or SIGTERM: the shell's convention
)

// usageError marks an error the user can fix by changing the command line.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// exitCodeFor classifies err into one of the exit codes above.
func exitCodeFor(err error) int {
	var usage usageError
	var apiErr *apiclient.Error
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &usage), apiclient.IsSettingError(err):
		return exitUsage
	case errors.Is(err, context.Canceled):
		return exitInterrupted
	case errors.Is(err, statement.ErrStopped):
		return exitIncomplete
	case apiclient.IsRateLimited(err):
		return exitRefused // the gateway's Retry-After, kept: nothing sent
	case errors.As(err, &apiErr):
		switch apiErr.Status {
		case 0:
			return exitNetwork
		case http.StatusUnauthorized, http.StatusForbidden, 498, 499:
			return exitAuth
		}
		return exitRefused
	}
	return exitRefused
}

// exitStatus is a command's exit code once it has printed why it failed.
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// statusError turns an exit code into a command's error: nil for 0.
func statusError(code int) error {
	if code == exitOK {
		return nil
	}
	return exitStatus(code)
}

// exitCode classifies a command's error: its own exit status, cobra's
// mistakes of the command line (usage, 2), else exitCodeFor.
func exitCode(err error) int {
	var status exitStatus
	if errors.As(err, &status) {
		return int(status)
	}
	if err != nil && isCobraUsageError(err) {
		return exitUsage
	}
	return exitCodeFor(err)
}

// isCobraUsageError recognises the command-line mistakes cobra reports
// with plain errors (flag and argument errors are wrapped as usageError
// where they are made, in cli.go).
func isCobraUsageError(err error) bool {
	msg := err.Error()
	for _, prefix := range []string{"required flag(s)", "unknown command", "unknown flag", "unknown shorthand flag", "if any flags in the group", "flag needs an argument", "invalid argument"} {
		if strings.HasPrefix(msg, prefix) {
			return true
		}
	}
	return false
}
