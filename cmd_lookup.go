package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"cardterm/apiclient"
	"cardterm/ui"
)

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
	// The encoder escapes C0 controls; EscapeInvisible escapes DEL, C1,
	// bidi and zero-width characters too, so gateway text can neither drive
	// the terminal that shows the output nor reorder what it shows.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintln(stderr, "cardterm:", err)
		return 1
	}
	_, _ = stdout.Write(ui.EscapeInvisible(buf.Bytes()))
	return 0
}
