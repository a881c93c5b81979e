// Command cardterm is a terminal app for the Card and Wallet Gateway: card
// holders manage their card and wallets, support agents inspect consents and
// webhooks, and partner demos run it offline on an embedded sandbox gateway.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3"; the
// module version from the build info is used otherwise.
var version = ""

// secretKeyEnv names the variable that carries the secret key: a secret
// never comes from a flag, where it would land in shell history and ps.
const secretKeyEnv = "CARDTERM_SECRET_KEY"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// options are the parsed command-line settings of the app.
type options struct {
	baseURL   string
	clientKey string
	clientID  string
	us        bool
	readOnly  bool
	timeout   time.Duration
	json      bool // run one look-up (--json) instead of the UI
	// environment names a remote gateway's environment; "" or
	// "production" marks it as production.
	environment string
	// support starts in the support console (cardterm support), on a user
	// or an onboarding id when one is given.
	support                        bool
	supportUser, supportOnboarding string
	// noSecretPrompt never asks for the secret key (look-ups need only
	// the client key, or a password from the environment).
	noSecretPrompt bool
}

func run(args []string, stdin *os.File, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "sandbox":
			if len(args) > 1 && args[1] == "trigger" {
				return runCobra(newSandboxTriggerCommand(), args[2:], stdout, stderr)
			}
			return runSandbox(args[1:], stdout, stderr)
		case "listen":
			return runCobra(newListenCommand(), args[1:], stdout, stderr)
		case "webhook":
			return runCobra(newWebhookCommand(), args[1:], stdout, stderr)
		case "version":
			fmt.Fprintln(stdout, "cardterm", appVersion())
			return 0
		}
	}
	fs := pflag.NewFlagSet("cardterm", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	var showVersion bool
	fs.StringVar(&o.baseURL, "base-url", os.Getenv("CARDTERM_BASE_URL"), "gateway base URL; without it cardterm starts the embedded sandbox gateway")
	fs.StringVar(&o.clientKey, "client-key", os.Getenv("CARDTERM_CLIENT_KEY"), "public client key (x-client-key) of your gateway credentials")
	fs.StringVar(&o.clientID, "client-id", "", "client id for orders and OAuth (default: the client key)")
	fs.BoolVar(&o.us, "us", false, "route requests to the US backend (x-us-env: true)")
	fs.BoolVar(&o.readOnly, "read-only", false, "hide and refuse every action that changes anything (for support agents)")
	fs.DurationVar(&o.timeout, "timeout", 15*time.Second, "time limit of one gateway request")
	fs.BoolVar(&o.json, "json", false, "run one read-only look-up and print it as JSON, for scripts (see Look-ups)")
	fs.StringVar(&o.environment, "environment", os.Getenv("CARDTERM_ENVIRONMENT"), "environment of a remote gateway (production, staging, sandbox); production unless set")
	fs.StringVar(&o.supportOnboarding, "onboarding", "", "with support: look up this onboarding id")
	fs.BoolVarP(&showVersion, "version", "v", false, "print the version and exit")
	fs.Usage = func() {} // --help prints below, once, to stdout
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			usage(stdout, fs)
			return 0
		}
		fmt.Fprintf(stderr, "cardterm: %v (try --help)\n", err)
		return 2
	}
	if showVersion {
		fmt.Fprintln(stdout, "cardterm", appVersion())
		return 0
	}
	if o.json {
		return runLookup(o, fs.Args(), stdin, stdout, stderr)
	}
	rest := fs.Args()
	if len(rest) > 0 && rest[0] == "support" {
		// cardterm support [USER_ID | --onboarding ID]: the support console,
		// no customer sign-in.
		o.support, rest = true, rest[1:]
		if len(rest) > 1 {
			fmt.Fprintln(stderr, "cardterm support: at most one user id (try --help)")
			return 2
		}
		if len(rest) == 1 {
			o.supportUser, rest = rest[0], nil
		}
	} else if o.supportOnboarding != "" {
		fmt.Fprintln(stderr, "cardterm: --onboarding goes with the support command (try --help)")
		return 2
	}
	if len(rest) > 0 {
		fmt.Fprintf(stderr, "cardterm: unknown command %q (try --help)\n", rest[0])
		return 2
	}
	app, err := newApp(o, stdin, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "cardterm:", err)
		return 1
	}
	defer app.close()
	if _, err := tea.NewProgram(app.root).Run(); err != nil {
		if errors.Is(err, tea.ErrInterrupted) {
			return 130 // SIGINT (ctrl+c outside raw mode): the shell's convention
		}
		fmt.Fprintln(stderr, "cardterm:", err)
		return 1
	}
	return 0
}

func usage(w io.Writer, fs *pflag.FlagSet) {
	fmt.Fprintf(w, `cardterm: the Card and Wallet Gateway in your terminal

Usage:
  cardterm                         run on the embedded sandbox gateway (demo accounts)
  cardterm --base-url URL --client-key KEY [--us]
                                   talk to a real gateway
  cardterm support [USER_ID | --onboarding ID]
                                   the support console: consents and audit trail
                                   with the client key alone, no customer sign-in
  cardterm sandbox [--addr 127.0.0.1:8080]
                                   run the sandbox gateway alone, headless
  cardterm sandbox trigger EVENT_TYPE [--user U]
                                   send a signed test event from a running sandbox
  cardterm listen [--addr 127.0.0.1:0] [--forward-to URL]
                                   receive webhook deliveries and check signatures
  cardterm webhook verify --timestamp T --signature S [--body FILE]
                                   check one captured delivery
  cardterm version                 print the version

The secret key (token refresh, consent changes) comes from $%s,
or from a masked prompt when that is unset; never from a flag.

Look-ups, for scripts: cardterm [gateway flags] --json LOOKUP [ARGS]
%s
Look-ups marked * sign in as $CARDTERM_USERNAME with $CARDTERM_PASSWORD
(on the embedded sandbox, the first demo user) and sign out after.

Flags:
%s`, secretKeyEnv, lookupUsage(), fs.FlagUsages())
}

func appVersion() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "dev"
}

// runCobra runs one of the cobra commands (listen, webhook, sandbox
// trigger) with the app's streams: 0 when it succeeds, 1 when it fails.
func runCobra(cmd *cobra.Command, args []string, stdout, stderr io.Writer) int {
	cmd.SetArgs(args)
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := cmd.ExecuteContext(ctx); err != nil {
		return 1
	}
	return 0
}
