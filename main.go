// Command cardterm is a terminal app for the Card and Wallet Gateway: card
// holders manage their card and wallets, support agents inspect consents and
// webhooks, and partner demos run it offline on an embedded sandbox gateway.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strconv"
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
	json      bool // run one look-up (--json) instead of the UI
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
	fs.BoolVar(&o.json, "json", false, "run one read-only look-up and print it as JSON, for scripts (see Look-ups)")
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
  cardterm sandbox [--addr 127.0.0.1:8080]
                                   run the sandbox gateway alone, headless

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

// app is the wired program: the root model and what must be closed after.
type app struct {
	root  tea.Model
	close func()
}

// newApp chooses the gateway, builds the client and the screens, and wires
// the root.
func newApp(o options, stdin *os.File, stderr io.Writer) (*app, error) {
	gw, err := chooseGateway(o, stdin, stderr)
	if err != nil {
		return nil, err
	}
	return &app{root: buildRoot(gw.cfg, gw.label, gw.demo, o.readOnly), close: gw.close}, nil
}

// gateway is where requests go: the client's settings, the status bar's
// label, the sandbox's demo accounts, and what to close afterwards.
type gateway struct {
	cfg   apiclient.Config
	label string
	demo  []screens.DemoHint
	close func()
}

// chooseGateway picks a remote gateway from --base-url, or starts the
// embedded sandbox gateway when none is given.
func chooseGateway(o options, stdin *os.File, stderr io.Writer) (gateway, error) {
	gw := gateway{close: func() {}, cfg: apiclient.Config{
		BaseURL:   o.baseURL,
		ClientKey: o.clientKey,
		ClientID:  o.clientID,
		US:        o.us,
		Timeout:   o.timeout,
		UserAgent: "cardterm/" + appVersion(),
	}}
	if o.baseURL != "" {
		u, err := url.Parse(o.baseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return gw, fmt.Errorf("--base-url %q is not an http(s) URL", o.baseURL)
		}
		gw.label = u.Host
		gw.cfg.SecretKey = secretKey(stdin, stderr)
		return gw, nil
	}
	running, err := sandbox.Start("127.0.0.1:0", sandbox.Options{})
	if err != nil {
		return gw, fmt.Errorf("starting the embedded sandbox gateway: %w", err)
	}
	gw.close = func() { _ = running.Close() }
	gw.cfg.BaseURL = running.URL
	if gw.cfg.ClientKey == "" {
		gw.cfg.ClientKey = sandbox.DemoClientKey
	}
	gw.cfg.SecretKey = sandbox.DemoSecretKey
	gw.label = "SANDBOX"
	region := "eu"
	if o.us {
		region = "us"
	}
	for _, u := range sandbox.DemoUsers() {
		if u.Region == region {
			gw.demo = append(gw.demo, screens.DemoHint{Username: u.Username, Password: u.Password, Summary: u.Summary})
		}
	}
	return gw, nil
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
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "cardterm sandbox: unexpected argument %q (try --help)\n", fs.Arg(0))
		return 2
	}
	// Catch the signals before saying where the gateway is: whoever reads
	// that and stops us at once must get a clean shutdown, not a kill.
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(stop)
	running, err := sandbox.Start(*addr, sandbox.Options{Faults: faults})
	if err != nil {
		fmt.Fprintln(stderr, "cardterm sandbox:", err)
		return 1
	}
	w := bufio.NewWriter(stdout)
	fmt.Fprintln(w, running.Describe())
	fmt.Fprintln(w, "Press ctrl+c to stop.")
	_ = w.Flush()
	<-stop
	if err := running.Close(); err != nil {
		fmt.Fprintln(stderr, "cardterm sandbox: stopping:", err)
		return 1
	}
	return 0
}

// lookup is one read-only look-up that --json runs without the UI, so
// support agents can script what they would look at on screen.
type lookup struct {
	args     string // the arguments, for --help
	required int    // how many arguments must be given
	signIn   bool   // it needs a signed-in user's bearer token
	run      func(ctx context.Context, c *apiclient.Client, args []string) (any, error)
}

// lookups are the look-ups by name. Their results print with every field
// the gateway sent, the unknown ones included.
var lookups = map[string]lookup{
	"user":    {signIn: true, run: func(ctx context.Context, c *apiclient.Client, _ []string) (any, error) { return c.User(ctx) }},
	"card":    {signIn: true, run: func(ctx context.Context, c *apiclient.Client, _ []string) (any, error) { return c.CardStatus(ctx) }},
	"wallets": {signIn: true, run: lookupWallets},
	"transactions": {args: "[PAGE]", signIn: true, run: func(ctx context.Context, c *apiclient.Client, a []string) (any, error) {
		page, err := optionalInt(a, "PAGE")
		if err != nil {
			return nil, err
		}
		return c.Transactions(ctx, apiclient.TransactionFilter{Page: page})
	}},
	"whitelist": {args: "CURRENCY", required: 1, signIn: true, run: func(ctx context.Context, c *apiclient.Client, a []string) (any, error) {
		return c.Whitelist(ctx, a[0])
	}},
	"chain-config": {args: "[NETWORK]", signIn: true, run: func(ctx context.Context, c *apiclient.Client, a []string) (any, error) {
		return c.ChainConfig(ctx, strings.Join(a, ""))
	}},
	"products": {signIn: true, run: func(ctx context.Context, c *apiclient.Client, _ []string) (any, error) { return c.Products(ctx) }},
	"order": {args: "ORDER_ID", required: 1, signIn: true, run: func(ctx context.Context, c *apiclient.Client, a []string) (any, error) {
		return c.OrderStatus(ctx, a[0])
	}},
	"webhooks": {signIn: true, run: func(ctx context.Context, c *apiclient.Client, _ []string) (any, error) { return c.Webhooks(ctx) }},
	"consent": {args: "USER_ID", required: 1, run: func(ctx context.Context, c *apiclient.Client, a []string) (any, error) {
		return c.UserConsent(ctx, a[0], true)
	}},
	"audit": {args: "USER_ID [OFFSET]", required: 1, run: func(ctx context.Context, c *apiclient.Client, a []string) (any, error) {
		offset, err := optionalInt(a[1:], "OFFSET")
		if err != nil {
			return nil, err
		}
		return c.ConsentAudit(ctx, a[0], 100, offset)
	}},
	"onboarding": {args: "ONBOARDING_ID", required: 1, run: func(ctx context.Context, c *apiclient.Client, a []string) (any, error) {
		return c.OnboardingConsents(ctx, a[0])
	}},
}

// lookupWallets gathers the four wallet reads, at once, into one object.
func lookupWallets(ctx context.Context, c *apiclient.Client, _ []string) (any, error) {
	var out struct {
		Internal []apiclient.InternalWallet `json:"internal"`
		Linked   []apiclient.LinkedWallet   `json:"cardLinked"`
		External []apiclient.ExternalWallet `json:"external"`
		Credit   *apiclient.CreditWallet    `json:"credit"` // null before a first credit
	}
	errs := make(chan error, 4)
	go func() { var err error; out.Internal, err = c.InternalWallets(ctx); errs <- err }()
	go func() { var err error; out.Linked, err = c.LinkedWallets(ctx); errs <- err }()
	go func() { var err error; out.External, err = c.ExternalWallets(ctx); errs <- err }()
	go func() {
		credit, err := c.CreditWallet(ctx)
		if err == nil {
			out.Credit = &credit
		} else if apiclient.IsNotFound(err) {
			err = nil
		}
		errs <- err
	}()
	var first error
	for range 4 {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return out, first
}

func optionalInt(args []string, name string) (int, error) {
	if len(args) == 0 {
		return 0, nil
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s must be a whole number, not %q", name, args[0])
	}
	return n, nil
}

// lookupUsage lists the look-ups for --help.
func lookupUsage() string {
	names := make([]string, 0, len(lookups))
	for name := range lookups {
		names = append(names, name)
	}
	slices.Sort(names)
	var b strings.Builder
	for _, name := range names {
		mark := " "
		if lookups[name].signIn {
			mark = "*"
		}
		b.WriteString(strings.TrimRight(fmt.Sprintf("  %s %-13s %s", mark, name, lookups[name].args), " ") + "\n")
	}
	return b.String()
}

// runLookup is `cardterm --json LOOKUP [ARGS]`: one look-up, its result as
// JSON on stdout, a message on stderr and exit 1 when the gateway refuses.
func runLookup(o options, args []string, stdin *os.File, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintf(stderr, "cardterm --json: name a look-up:\n%s", lookupUsage())
		return 2
	}
	lk, ok := lookups[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "cardterm --json: no look-up %q; there are:\n%s", args[0], lookupUsage())
		return 2
	}
	if len(args)-1 < lk.required {
		fmt.Fprintf(stderr, "cardterm --json %s: needs %s\n", args[0], lk.args)
		return 2
	}
	gw, err := chooseGateway(o, stdin, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "cardterm:", err)
		return 1
	}
	defer gw.close()
	client := apiclient.New(gw.cfg)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if lk.signIn {
		user, pass := os.Getenv("CARDTERM_USERNAME"), os.Getenv("CARDTERM_PASSWORD")
		if user == "" && len(gw.demo) > 0 {
			user, pass = gw.demo[0].Username, gw.demo[0].Password
		}
		if user == "" || pass == "" {
			fmt.Fprintf(stderr, "cardterm --json %s: signs in; set CARDTERM_USERNAME and CARDTERM_PASSWORD\n", args[0])
			return 2
		}
		if _, err := client.Login(ctx, user, pass); err != nil {
			fmt.Fprintln(stderr, "cardterm: sign-in:", ui.Sanitize(apiclient.ErrorMessage(err)))
			return 1
		}
		defer func() { _ = client.Logout(context.Background()) }()
	}
	v, err := lk.run(ctx, client, args[1:])
	if err != nil {
		// The message is the gateway's text: sanitized, like on screen, so
		// it cannot drive the terminal that shows stderr.
		fmt.Fprintf(stderr, "cardterm: %s: %s\n", args[0], ui.Sanitize(apiclient.ErrorMessage(err)))
		return 1
	}
	// The encoder escapes control characters, so gateway text cannot drive
	// the terminal that shows the output.
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintln(stderr, "cardterm:", err)
		return 1
	}
	return 0
}
