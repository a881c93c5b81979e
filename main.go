// Command cardterm is a terminal app for the Card and Wallet Gateway: card
// holders manage their card and wallets, support agents inspect consents and
// webhooks, and partner demos run it offline on an embedded sandbox gateway.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/pflag"

	"cardterm/apiclient"
	"cardterm/apiclient/sandbox"
	"cardterm/screens"
	"cardterm/theme"
	"cardterm/ui"
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
}

func run(args []string, stdin *os.File, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "sandbox" {
		return runSandbox(args[1:], stdout, stderr)
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
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "cardterm: unknown command %q (try --help)\n", fs.Arg(0))
		return 2
	}
	app, err := newApp(o, stdin, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "cardterm:", err)
		return 1
	}
	defer app.close()
	if _, err := tea.NewProgram(app.root).Run(); err != nil {
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
  cardterm sandbox [--addr 127.0.0.1:8080]
                                   run the sandbox gateway alone, headless

The secret key (token refresh, consent changes) comes from $%s,
or from a masked prompt when that is unset; never from a flag.

Flags:
%s`, secretKeyEnv, fs.FlagUsages())
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

// app is the wired program: the root model and what must be closed after.
type app struct {
	root  tea.Model
	close func()
}

// newApp chooses the gateway (remote, or the embedded sandbox when no base
// URL is given), builds the client and the screens, and wires the root.
func newApp(o options, stdin *os.File, stderr io.Writer) (*app, error) {
	cfg := apiclient.Config{
		BaseURL:   o.baseURL,
		ClientKey: o.clientKey,
		ClientID:  o.clientID,
		US:        o.us,
		Timeout:   o.timeout,
		UserAgent: "cardterm/" + appVersion(),
	}
	closeFn := func() {}
	var demo []screens.DemoHint
	gateway := ""
	if o.baseURL == "" {
		running, err := sandbox.Start("127.0.0.1:0", sandbox.Options{})
		if err != nil {
			return nil, fmt.Errorf("starting the embedded sandbox gateway: %w", err)
		}
		closeFn = func() { _ = running.Close() }
		cfg.BaseURL = running.URL
		if cfg.ClientKey == "" {
			cfg.ClientKey = sandbox.DemoClientKey
		}
		cfg.SecretKey = sandbox.DemoSecretKey
		gateway = "SANDBOX"
		region := "eu"
		if o.us {
			region = "us"
		}
		for _, u := range sandbox.DemoUsers() {
			if u.Region == region {
				demo = append(demo, screens.DemoHint{Username: u.Username, Password: u.Password, Summary: u.Summary})
			}
		}
	} else {
		u, err := url.Parse(o.baseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("--base-url %q is not an http(s) URL", o.baseURL)
		}
		gateway = u.Host
		cfg.SecretKey = secretKey(stdin, stderr)
	}
	return &app{root: buildRoot(cfg, gateway, demo, o.readOnly), close: closeFn}, nil
}

// buildRoot wires the client, the screens and the shell. Tests build the
// same tree around their own sandbox.
func buildRoot(cfg apiclient.Config, gateway string, demo []screens.DemoHint, readOnly bool) *ui.Root {
	noColor := os.Getenv("NO_COLOR") != ""
	styles := theme.New(true, noColor)
	client := apiclient.New(cfg)
	deps := screens.Deps{
		Client:   client,
		Requests: ui.NewRequests(),
		Styles:   &styles,
		ReadOnly: readOnly,
		Demo:     demo,
		Now:      time.Now,
	}
	return ui.NewRoot(ui.RootOptions{
		Styles:   &styles,
		NoColor:  noColor,
		Requests: deps.Requests,
		SignIn:   screens.NewSignIn(deps),
		Screens: []ui.Screen{
			screens.NewAccount(deps),
			screens.NewCard(deps),
			screens.NewTransactions(deps),
			screens.NewWallets(deps),
			screens.NewWhitelist(deps),
			screens.NewDelegation(deps),
			screens.NewOrders(deps),
			screens.NewConsent(deps),
			screens.NewWebhooks(deps),
		},
		Gateway:  gateway,
		Sandbox:  gateway == "SANDBOX",
		US:       cfg.US,
		ReadOnly: readOnly,
		Session: func() (string, time.Time, bool) {
			s := client.Session()
			return s.Username, s.ExpiresAt, s.Valid()
		},
		Now:     time.Now,
		Version: appVersion(),
	})
}

// secretKey reads the secret key from the environment, or asks for it with
// a masked prompt when a terminal is attached. Empty means none: the app
// then cannot refresh sessions or change consents, and says so when asked.
func secretKey(stdin *os.File, stderr io.Writer) string {
	if v, ok := os.LookupEnv(secretKeyEnv); ok {
		return strings.TrimSpace(v)
	}
	if stdin == nil || !term.IsTerminal(stdin.Fd()) {
		return ""
	}
	fmt.Fprintf(stderr, "Secret key (x-secret-key; enter to skip, or set $%s): ", secretKeyEnv)
	b, err := term.ReadPassword(stdin.Fd())
	fmt.Fprintln(stderr)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// runSandbox is `cardterm sandbox`: the sandbox gateway alone, headless, so
// partners can point curl or a mobile dev build at it.
func runSandbox(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("cardterm sandbox", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	var faults sandbox.Faults
	fs.DurationVar(&faults.Latency, "latency", 0, "delay added to every request (fault injection)")
	fs.Float64Var(&faults.ErrorRate, "error-rate", 0, "fraction of requests answered 500 (fault injection)")
	fs.IntVar(&faults.Burst429, "burst-429", 0, "answer the next N requests with 429 (fault injection)")
	fs.BoolVar(&faults.Malformed, "malformed", false, "truncate successful bodies (fault injection)")
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprintf(stdout, "Usage: cardterm sandbox [--addr 127.0.0.1:8080]\n\nRuns the sandbox gateway alone and prints its base URL, client keys and demo users.\n\nFlags:\n%s", fs.FlagUsages())
			return 0
		}
		fmt.Fprintf(stderr, "cardterm sandbox: %v (try --help)\n", err)
		return 2
	}
	running, err := sandbox.Start(*addr, sandbox.Options{Faults: faults})
	if err != nil {
		fmt.Fprintln(stderr, "cardterm sandbox:", err)
		return 1
	}
	defer running.Close()
	w := bufio.NewWriter(stdout)
	fmt.Fprintln(w, running.Describe())
	fmt.Fprintln(w, "Press ctrl+c to stop.")
	_ = w.Flush()
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	<-stop
	return 0
}
