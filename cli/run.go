// Package cli is cardterm's command line: the command tree (one file per
// command), the settings that every command resolves, the gateway and
// client factory, and the exit codes. main.go only calls Run.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/charmbracelet/fang"

	"cardterm/ui/sanitize"
	"github.com/spf13/cobra"
)

// secretKeyEnv names the variable that carries the secret key: a secret
// never comes from a flag, where it would land in shell history and ps.
const secretKeyEnv = "CARDTERM_SECRET_KEY"

// streams are the process's standard streams, which commands use rather
// than os.Std*, so tests can run them.
type streams struct {
	stdin          *os.File
	stdout, stderr io.Writer
	// messages is stdout for cobra and fang (help, completion, what a
	// command says); nil means stdout.
	messages io.Writer
}

// Run executes the command line and returns the exit code (exit_codes.go).
func Run(args []string, stdin *os.File, stdout, stderr io.Writer) int {
	honourNoColor()
	// Everything is written through these (terminal_output.go): on a
	// terminal no escape sequence but colour gets through.
	safeOut, safeErr := newTerminalOutput(stdout), newTerminalOutput(stderr)
	defer func() { _ = safeOut.Flush(); _ = safeErr.Flush() }()
	stdout, stderr = safeOut, safeErr
	// Help, completion scripts and messages go through cobra's output,
	// with no line ending in spaces; what commands print as data (get,
	// api) goes to stdout as it is.
	messages, flush := trimmedOutput(stdout)
	defer flush()
	std := streams{stdin: stdin, stdout: stdout, stderr: stderr, messages: messages}
	if len(args) == 0 {
		return runWithoutArguments(std)
	}
	root := newAppCommand(std)
	addSubcommands(root, std)
	plainFlagUsages(root) // flag_usage.go
	return execute(root, args, std)
}

// runWithoutArguments starts the app as the root command would, without
// building the command line: with nothing to parse, the command tree,
// cobra and fang took 0.4 ms of the start between main and Bubble Tea's
// (docs/performance.md). An error other than an exit status is shown by
// fang, through a command that fails with it, as every command's is.
func runWithoutArguments(std streams) int {
	o, err := resolveCommandOptions(givenFlags{}, std)
	if err == nil {
		err = runApp(o, std)
	}
	var status exitStatus
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &status):
		return int(status)
	}
	failed := newAppCommand(std)
	failed.RunE = func(*cobra.Command, []string) error { return err }
	return execute(failed, []string{}, std)
}

// execute runs the command line args on root through fang and returns
// the exit code.
func execute(root *cobra.Command, args []string, std streams) int {
	root.SetArgs(args)
	// The command that ran, to know whether it has already said why it
	// failed: it turns SilenceErrors on while it runs (webhook verify).
	var ran *cobra.Command
	var silentBefore bool
	root.PersistentPreRun = func(cmd *cobra.Command, _ []string) { ran, silentBefore = cmd, cmd.SilenceErrors }
	// A command that has said why it failed (the app interrupted, a
	// look-up) ends with its exit status kept here, not returned to fang:
	// fang asks the terminal for its background colour before handling
	// any error, and that query could wait forever on a terminal that had
	// just been handed back (seen after ctrl+c in the app under tmux).
	var said exitStatus
	keepExitStatus(root, &said)
	err := fang.Execute(context.Background(), root,
		fang.WithVersion(currentVersion().String()),
		fang.WithoutManpage(), // cmd_man.go writes a proper one
		fang.WithColorSchemeFunc(helpColors(isTerminal(std.stdout))),
		fang.WithErrorHandler(func(w io.Writer, styles fang.Styles, err error) {
			var status exitStatus
			if errors.As(err, &status) || ran != nil && ran.SilenceErrors && !silentBefore {
				return // the command has said why
			}
			printError(w, isTerminal(std.stderr), styles, err, commandOf(err, ran))
		}),
	)
	if err == nil && said != exitOK {
		return int(said)
	}
	return exitCode(err)
}

// keepExitStatus makes every command of the tree that ends with an
// exitStatus (it has printed its own message) end without an error, the
// status kept in *said for run to return.
func keepExitStatus(cmd *cobra.Command, said *exitStatus) {
	if run := cmd.RunE; run != nil {
		cmd.RunE = func(c *cobra.Command, args []string) error {
			err := run(c, args)
			var status exitStatus
			if errors.As(err, &status) {
				*said = status
				return nil
			}
			return err
		}
	}
	for _, sub := range cmd.Commands() {
		keepExitStatus(sub, said)
	}
}

// commandError is an error with the command it is about, known where a
// flag or an argument is refused (before the command runs).
type commandError struct {
	command string
	err     error
}

func (e commandError) Error() string { return e.err.Error() }
func (e commandError) Unwrap() error { return e.err }

// commandOf is the command a usage error is about, so its message names
// the command used ("cardterm get: ..."); other errors are cardterm's.
func commandOf(err error, ran *cobra.Command) string {
	var known commandError
	switch {
	case exitCode(err) != exitUsage:
		return "cardterm"
	case errors.As(err, &known):
		return known.command
	case ran != nil:
		return ran.CommandPath()
	}
	return "cardterm"
}

// printError shows a command's error: styled on a terminal, one plain
// "COMMAND: ..." line for scripts and logs, where COMMAND is what the
// user ran for a usage error, else cardterm. The text is kept as written
// (fang's own handler capitalises words, which mangles names such as
// $CARDTERM_TIMEOUT).
func printError(w io.Writer, styled bool, styles fang.Styles, err error, command string) {
	usage := exitCode(err) == exitUsage
	// An error may quote a file, a gateway or a jq program: its text is
	// sanitized here, the one place every returned error is shown.
	message := sanitize.Multiline(err.Error())
	if !styled {
		fmt.Fprintf(w, "%s: %s\n", command, message)
		if usage {
			fmt.Fprintln(w, "Try --help for usage.")
		}
		return
	}
	fmt.Fprintln(w, styles.ErrorHeader.String())
	fmt.Fprintln(w, styles.ErrorText.UnsetTransform().Render(message))
	fmt.Fprintln(w)
	if usage {
		fmt.Fprintln(w, styles.ErrorText.UnsetTransform().Render("Try --help for usage."))
		fmt.Fprintln(w)
	}
}
