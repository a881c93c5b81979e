// Package e2e holds cardterm's end-to-end tests: they build the binary once
// (TestMain) and run it as a user or a script does, in tmux (type keys, read
// the screen) or piped (read stdout, stderr and the exit code), against the
// sandbox gateway over HTTP. The process is sealed from the machine's own
// settings (uitest.Seal). The tests of the commands' internals stay in cli.
package e2e
