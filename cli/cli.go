package cli

import (
	"cmp"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

// The command tree. Every command's RunE returns an error classified into
// the exit codes below (exit_codes.go); mistakes of the command line are
// usageError (2).

// exitCodesHelp is the exit-code table of --help.
const exitCodesHelp = `Exit codes:
  0    done
  1    the gateway refused (any error answer but authentication)
  2    usage: a bad flag, argument or setting
  3    authentication: not signed in, or the credentials were refused
  4    network: no answer (unreachable, timed out, TLS)
  5    incomplete: a walk of every page stopped before the end (a page came again)
  130  interrupted (ctrl+c, SIGTERM)`

// newRootCommand builds `cardterm` and its subcommands.
func newRootCommand(std streams) *cobra.Command {
	root := newAppCommand(std)
	addSubcommands(root, std)
	return root
}

// newAppCommand is the root command alone: the app, --json and the
// settings' flags. With no arguments Run starts the app without it
// (runWithoutArguments); it fails with the app's error there.
func newAppCommand(std streams) *cobra.Command {
	var given givenFlags
	var asJSON bool
	root := &cobra.Command{
		Use:   "cardterm",
		Short: "The Card and Wallet Gateway in your terminal",
		Long: `cardterm is the Card and Wallet Gateway in your terminal: card holders manage
their card, PIN, wallets, whitelist and delegation; support agents inspect
consents, audit trails and webhooks; partner demos run offline on the
embedded sandbox gateway, which starts when no --base-url is given.

Settings come, each on its own, from a flag, else its environment variable,
else the profile in use (--profile, $` + envProfile + `, or the default one set
with cardterm profile use), else the embedded sandbox.

The secret key (token refresh, consent changes) comes from $` + secretKeyEnv + `,
else the OS keyring entry of the profile, else a masked prompt; never from a
flag.

For scripts: cardterm get LOOKUP [ARGS] runs one look-up and prints it as JSON
(cardterm --json LOOKUP is the same), and cardterm api [METHOD] PATH sends a
request to any endpoint.

` + exitCodesHelp,
		Example: `  # the embedded sandbox with its demo accounts
  cardterm
  # a real gateway
  cardterm --base-url https://gateway.example.com \
      --client-key ck_live_...
  # a saved profile, and its support console
  cardterm --profile acme
  cardterm support --profile acme 6f1c...
  # one look-up as JSON, and any endpoint
  cardterm get consent USER_ID
  cardterm api /v1/card/status --jq .status
  # the sandbox gateway alone, for curl or a mobile build
  cardterm sandbox --addr 127.0.0.1:8080
  # profiles, and completion for bash
  cardterm profile add acme --base-url https://gateway.example.com \
      --client-key ck_live_...
  source <(cardterm completion bash)`,
		Args: func(cmd *cobra.Command, args []string) error {
			if asJSON || len(args) == 0 {
				return nil
			}
			return unknownCommand(cmd, args[0])
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o, err := resolveCommandOptions(given, std)
			if err != nil {
				return err
			}
			if asJSON {
				o.json = true
				return statusError(runLookup(o, args, std, "cardterm --json"))
			}
			return runApp(o, std)
		},
	}
	root.Flags().BoolVar(&asJSON, "json", false, "run one look-up and print it as JSON (the same as cardterm get LOOKUP --json)")
	root.Flags().BoolP("version", "v", false, "print the version, commit, build date, Go version and platform")
	given = addSettingFlags(root, appSettings)
	root.Flags().SortFlags = false
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return commandError{command: c.CommandPath(), err: usageError{err.Error()}}
	})
	root.SetVersionTemplate("{{.Version}}")
	if std.stdin != nil {
		root.SetIn(std.stdin)
	}
	root.SetOut(cmp.Or(std.messages, std.stdout))
	root.SetErr(std.stderr)
	return root
}

// addSubcommands adds every command under the root, with help and
// completion.
func addSubcommands(root *cobra.Command, std streams) {
	sandboxCmd := newSandboxCommand(std)
	root.AddCommand(
		newSupportCommand(std),
		newGetCommand(std),
		newWaitCommand(std),
		sandboxCmd,
		newListenCommand(),
		newWebhookCommand(),
		newProfileCommand(std),
		newVersionCommand(),
		newManCommand(),
		newKeysCommand(),
		newAPICommand(std),
		newGuardCommand(std),
		newProxyCommand(),
		newCertifyCommand(),
	)
	// The app, look-ups, listen and profile check handle signals
	// themselves (Bubble Tea, runLookup, after their prompts); elsewhere
	// the signals keep their default, so a masked prompt stays
	// interruptible by ctrl+c.
	cancelOnSignal(sandboxCmd)
	// cobra would add these when it runs; added now (after the streams,
	// which completion captures) so their arguments are checked too.
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	completeFlagValues(root)
	root.ValidArgsFunction = completeRootArgs
	wrapArgsErrors(root)
}

// newVersionCommand is `cardterm version`: the same text as --version, or
// with --json the same facts as JSON.
func newVersionCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version, commit, build date, Go version and platform",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), currentVersion().json())
			}
			_, err := fmt.Fprint(cmd.OutOrStdout(), currentVersion().String())
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print them as one JSON object")
	return cmd
}

// cancelOnSignal gives each command of the trees a context cancelled by
// ctrl+c or SIGTERM, so servers (sandbox, listen) stop cleanly and
// requests end. Only while the command runs: elsewhere the signals keep
// their default (a prompt can be interrupted).
func cancelOnSignal(cmds ...*cobra.Command) {
	for _, cmd := range cmds {
		if run := cmd.RunE; run != nil {
			cmd.RunE = func(c *cobra.Command, args []string) error {
				ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
				defer stop()
				c.SetContext(ctx)
				return run(c, args)
			}
		}
		cancelOnSignal(cmd.Commands()...)
	}
}

// wrapArgsErrors makes every command's argument check a usage error (2),
// so extra or missing arguments never exit 1 or pass silently.
func wrapArgsErrors(cmd *cobra.Command) {
	if check := cmd.Args; check != nil {
		cmd.Args = func(c *cobra.Command, args []string) error {
			if err := check(c, args); err != nil {
				if _, ok := err.(usageError); !ok {
					err = usageError{err.Error()}
				}
				return commandError{command: c.CommandPath(), err: err}
			}
			return nil
		}
	} else if !cmd.Runnable() {
		// A group (profile, webhook): a word that is no subcommand.
		cmd.Args = func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				return commandError{command: c.CommandPath(), err: unknownCommand(c, args[0])}
			}
			return nil
		}
	}
	if !cmd.Runnable() && cmd.HasSubCommands() {
		// cobra shows a group's help without checking its arguments;
		// running it checks them first.
		cmd.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
	}
	for _, sub := range cmd.Commands() {
		wrapArgsErrors(sub)
	}
}
