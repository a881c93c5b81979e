package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"cardterm/apiclient"
	"cardterm/domain/lazy"
	"cardterm/domain/savedview"
	"cardterm/domain/transactionview"
	"cardterm/ui/sanitize"
)

// lookup is one read-only look-up that --json (cardterm get) runs without
// the UI, so support agents can script what they would look at on screen.
// It prints the gateway's own answer, never a re-encoding of the client's
// records: what a script reads is what the gateway sent.
type lookup struct {
	args          string // the arguments, for --help
	required, max int    // how many arguments must and may be given
	signIn        bool   // it needs a signed-in user's bearer token
	// call makes the same typed call the screens make; the body it got is
	// captured (apiclient.CaptureBody) and printed.
	call func(ctx context.Context, c *apiclient.Client, args []string) error
}

// lookups are the look-ups by name, indexed at first use: a package map
// is built before main on every start.
var lookups = lazy.Value[map[string]lookup]{New: func() map[string]lookup {
	return map[string]lookup{
		"user": {signIn: true, call: func(ctx context.Context, c *apiclient.Client, _ []string) error {
			_, err := c.User(ctx)
			return err
		}},
		"card": {signIn: true, call: func(ctx context.Context, c *apiclient.Client, _ []string) error {
			_, err := c.CardStatus(ctx)
			return err
		}},
		"transactions": {args: "[PAGE]", max: 1, signIn: true, call: func(ctx context.Context, c *apiclient.Client, a []string) error {
			page, err := optionalInt(a, "PAGE", 1)
			if err != nil {
				return err
			}
			// PAGE counts from 1, as the screen's "page 1" does; the gateway's
			// query counts from 0.
			_, err = c.Transactions(ctx, apiclient.TransactionFilter{Page: max(page, 1) - 1})
			return err
		}},
		"whitelist": {args: "CURRENCY", required: 1, max: 1, signIn: true, call: func(ctx context.Context, c *apiclient.Client, a []string) error {
			_, err := c.Whitelist(ctx, a[0])
			return err
		}},
		"chain-config": {args: "[NETWORK]", max: 1, signIn: true, call: func(ctx context.Context, c *apiclient.Client, a []string) error {
			_, err := c.ChainConfig(ctx, strings.Join(a, ""))
			return err
		}},
		"products": {signIn: true, call: func(ctx context.Context, c *apiclient.Client, _ []string) error {
			_, err := c.Products(ctx)
			return err
		}},
		"order": {args: "ORDER_ID", required: 1, max: 1, signIn: true, call: func(ctx context.Context, c *apiclient.Client, a []string) error {
			_, err := c.OrderStatus(ctx, a[0])
			return err
		}},
		"webhooks": {signIn: true, call: func(ctx context.Context, c *apiclient.Client, _ []string) error {
			_, err := c.Webhooks(ctx)
			return err
		}},
		"webhook": {args: "WEBHOOK_ID", required: 1, max: 1, signIn: true, call: func(ctx context.Context, c *apiclient.Client, a []string) error {
			_, err := c.Webhook(ctx, a[0])
			return err
		}},
		"consent": {args: "USER_ID", required: 1, max: 1, call: func(ctx context.Context, c *apiclient.Client, a []string) error {
			_, err := c.UserConsent(ctx, a[0], true)
			return err
		}},
		"audit": {args: "USER_ID [OFFSET]", required: 1, max: 2, call: func(ctx context.Context, c *apiclient.Client, a []string) error {
			offset, err := optionalInt(a[1:], "OFFSET", 0)
			if err != nil {
				return err
			}
			_, err = c.ConsentAudit(ctx, a[0], apiclient.ConsentAuditMaxLimit, offset)
			return err
		}},
		"consent-set": {args: "CONSENT_SET_ID", required: 1, max: 1, call: func(ctx context.Context, c *apiclient.Client, a []string) error {
			_, err := c.ConsentSet(ctx, a[0])
			return err
		}},
		"onboarding": {args: "ONBOARDING_ID", required: 1, max: 1, call: func(ctx context.Context, c *apiclient.Client, a []string) error {
			_, err := c.OnboardingConsents(ctx, a[0])
			return err
		}},
	}
}}

// transactionsInView is the transactions look-up with a saved view's
// filters; PAGE still counts from 1.
func transactionsInView(view savedview.View) func(context.Context, *apiclient.Client, []string) error {
	return func(ctx context.Context, c *apiclient.Client, a []string) error {
		page, err := optionalInt(a, "PAGE", 1)
		if err != nil {
			return err
		}
		filter := transactionview.Filter(view)
		filter.Page = max(page, 1) - 1
		_, err = c.Transactions(ctx, filter)
		return err
	}
}

// walletsLookup gathers the four wallet reads, at once, into one object
// whose members are the gateway's four bodies as sent; credit is null
// before a first credit (the gateway's 404).
func walletsLookup(ctx context.Context, c *apiclient.Client) ([]byte, error) {
	type part struct {
		name string
		call func(context.Context) error
		body []byte
		err  error
	}
	parts := []*part{
		{name: "internal", call: func(ctx context.Context) error { _, err := c.InternalWallets(ctx); return err }},
		{name: "cardLinked", call: func(ctx context.Context) error { _, err := c.LinkedWallets(ctx); return err }},
		{name: "external", call: func(ctx context.Context) error { _, err := c.ExternalWallets(ctx); return err }},
		{name: "credit", call: func(ctx context.Context) error { _, err := c.CreditWallet(ctx); return err }},
	}
	done := make(chan struct{}, len(parts))
	for _, p := range parts {
		go func() {
			p.err = p.call(apiclient.CaptureBody(ctx, &p.body))
			done <- struct{}{}
		}()
	}
	for range parts {
		<-done
	}
	var out bytes.Buffer
	out.WriteByte('{')
	for i, p := range parts {
		if p.err != nil {
			if p.name == "credit" && apiclient.IsNotFound(p.err) {
				p.body, p.err = []byte("null"), nil
			} else {
				return p.body, p.err
			}
		}
		if i > 0 {
			out.WriteByte(',')
		}
		fmt.Fprintf(&out, "%q:%s", p.name, bytes.TrimSpace(p.body))
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}

// optionalInt reads an optional whole-number argument of at least least.
func optionalInt(args []string, name string, least int) (int, error) {
	if len(args) == 0 {
		return least, nil
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < least {
		return 0, usageError{fmt.Sprintf("%s must be a whole number from %d, not %q", name, least, args[0])}
	}
	return n, nil
}

// lookupNames lists every look-up, wallets included, in order.
func lookupNames() []string {
	names := []string{"wallets"}
	for name := range lookups.Get() {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// lookupUsage lists the look-ups for --help; * marks those that sign in.
func lookupUsage() string {
	var b strings.Builder
	for _, name := range lookupNames() {
		lk, mark := lookups.Get()[name], "*"
		if name != "wallets" && !lk.signIn {
			mark = " "
		}
		b.WriteString(strings.TrimRight(fmt.Sprintf("  %s %-13s %s", mark, name, lk.args), " ") + "\n")
	}
	return b.String()
}

// runLookup is `cardterm get LOOKUP [ARGS]` (command names it in
// messages): one look-up, the gateway's answer as indented JSON on stdout.
// With o.json (--json) an error answer is printed on stdout too, as the
// gateway sent it. Exit codes: exit_codes.go (2 for a usage error, 1 when
// the gateway refuses, 3 for authentication, 4 when it cannot be
// reached). It never prompts: every look-up needs only the client key,
// or a user's password from the environment.
func runLookup(o options, args []string, std streams, command string) int {
	args, view, err := argsInView(o, args, std.stderr)
	if err != nil {
		return lookupFailed(std.stderr, command, "", err)
	}
	name, err := checkLookupArgs(args)
	if err != nil {
		return lookupFailed(std.stderr, command, "", err)
	}
	// No look-up needs the secret key: neither a prompt nor the keyring
	// is asked (the keyring may warn, or start daemons, for nothing).
	o.noPrompt, o.secrets = true, nil
	gw, err := chooseGateway(o, std.stdin, std.stderr)
	if err != nil {
		return lookupFailed(std.stderr, command, name, asUsage(err))
	}
	defer gw.close()
	client := apiclient.New(gw.cfg)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	body, err := lookupBody(ctx, client, gw, name, args[1:], view)
	if err != nil {
		if o.json && len(bytes.TrimSpace(body)) > 0 {
			// As gh api: the gateway's error answer on stdout, made as
			// safe to show as a successful one.
			if out, jsonErr := indentBody(body); jsonErr == nil {
				_, _ = std.stdout.Write(out)
			} else {
				fmt.Fprintln(std.stdout, sanitize.Text(string(body)))
			}
		}
		return lookupFailed(std.stderr, command, name, err)
	}
	if o.jq != nil {
		// --jq: as cardterm api --jq (strings unquoted, one result a line).
		if err := printJQ(ctx, std.stdout, isTerminal(std.stdout), o.jq, body); err != nil {
			lookupFailed(std.stderr, command, name, err)
			return exitRefused
		}
		return exitOK
	}
	show := indentBody
	if isTerminal(std.stdout) && os.Getenv("NO_COLOR") == "" {
		show = colorJSON // coloured on a terminal, plain in a pipe
	}
	out, err := show(body)
	if err != nil {
		lookupFailed(std.stderr, command, name, fmt.Errorf("the gateway's answer is not JSON: %w", err))
		return exitRefused
	}
	_, _ = std.stdout.Write(out)
	return exitOK
}

// checkLookupArgs returns the look-up's name, or a usage error.
func checkLookupArgs(args []string) (string, error) {
	if len(args) == 0 {
		return "", usageError{"name a look-up:\n" + lookupUsage()}
	}
	name := args[0]
	if name == "wallets" {
		if len(args) > 1 {
			return "", usageError{fmt.Sprintf("wallets takes no arguments, not %q", args[1])}
		}
		return name, nil
	}
	lk, ok := lookups.Get()[name]
	switch {
	case !ok:
		return "", usageError{fmt.Sprintf("no look-up %q.%s There are:\n%s", name, didYouMean(name, lookupNames()), lookupUsage())}
	case len(args)-1 < lk.required:
		return "", usageError{fmt.Sprintf("%s needs %s", name, lk.args)}
	case len(args)-1 > lk.max:
		return "", usageError{fmt.Sprintf("%s takes %s, not %q", name, strings.TrimSpace(lk.args+" (nothing more)"), strings.Join(args[1:], " "))}
	}
	return name, nil
}

// lookupBody signs in when the look-up needs it and returns the body the
// gateway answered, an error answer's too (with its error).
func lookupBody(ctx context.Context, client *apiclient.Client, gw gateway, name string, args []string, view *savedview.View) ([]byte, error) {
	var refusal []byte
	signOut, err := lookupSignIn(apiclient.CaptureBody(ctx, &refusal), client, gw, name)
	if err != nil {
		return refusal, err
	}
	defer signOut()
	return lookupCall(ctx, client, name, args, view)
}

// lookupSignIn signs in when the look-up needs a user (signOut signs out
// again; a look-up without one gets a signOut that does nothing).
func lookupSignIn(ctx context.Context, client *apiclient.Client, gw gateway, name string) (signOut func(), err error) {
	if name != "wallets" && !lookups.Get()[name].signIn {
		return func() {}, nil
	}
	_, signOut, err = signIn(ctx, client, gw, name)
	return signOut, err
}

// lookupCall makes the look-up's call and returns the body the gateway
// sent, with a saved view's filters when one is given.
func lookupCall(ctx context.Context, client *apiclient.Client, name string, args []string, view *savedview.View) ([]byte, error) {
	if name == "wallets" {
		return walletsLookup(ctx, client)
	}
	lk := lookups.Get()[name]
	if view != nil && view.Screen == "transactions" {
		lk.call = transactionsInView(*view)
	}
	var body []byte
	err := lk.call(apiclient.CaptureBody(ctx, &body), client, args)
	return body, err
}

// lookupMessage is the one-line reason of a failed look-up.
func lookupMessage(err error) string {
	var usage usageError
	if errors.As(err, &usage) {
		return usage.msg
	}
	msg := apiclient.ErrorMessage(err)
	if strings.HasPrefix(err.Error(), "sign-in: ") {
		msg = "sign-in: " + msg
	}
	return msg
}

// indentBody checks that body is JSON and indents it by two spaces, then
// escapes what the terminal could act on. JSON text holds no raw C0
// control (the gateway must escape them); sanitize.JSON escapes DEL, C1,
// bidi and zero-width characters as \uXXXX, so gateway text can neither
// drive the terminal that shows the output nor reorder what it shows.
func indentBody(body []byte) ([]byte, error) {
	body = bytes.TrimSpace(body)
	if !json.Valid(body) {
		return nil, errInvalidJSON
	}
	var b bytes.Buffer
	if err := json.Indent(&b, body, "", "  "); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return sanitize.JSON(b.Bytes()), nil
}

// signInUser is who look-ups and cardterm api sign in as: $CARDTERM_USERNAME
// with $CARDTERM_PASSWORD, else, on the embedded sandbox, its first demo
// user. A password without a username is refused (exit 2): it would sign
// in as someone else.
func signInUser(gw gateway) (user, pass string, err error) {
	user, pass = os.Getenv("CARDTERM_USERNAME"), os.Getenv("CARDTERM_PASSWORD")
	switch {
	case user == "" && pass != "":
		return "", "", usageError{"$CARDTERM_PASSWORD is set without $CARDTERM_USERNAME; set both (or neither, on the embedded sandbox, for its first demo user)"}
	case user == "" && len(gw.demo) > 0:
		return gw.demo[0].Username, gw.demo[0].Password, nil
	}
	return user, pass, nil
}

// signIn signs client in as signInUser's user for what (a look-up, an
// endpoint, a command) and returns who signed in and the sign-out to
// defer. A refused sign-in's error says "sign-in: " (lookupMessage keeps
// it).
func signIn(ctx context.Context, client *apiclient.Client, gw gateway, what string) (user string, signOut func(), err error) {
	user, pass, err := signInUser(gw)
	if err == nil && (user == "" || pass == "") {
		err = usageError{what + " signs in; set CARDTERM_USERNAME and CARDTERM_PASSWORD"}
	}
	if err != nil {
		return "", nil, err
	}
	if _, err := client.Login(ctx, user, pass); err != nil {
		return "", nil, fmt.Errorf("sign-in: %w", err)
	}
	return user, func() { _ = client.Logout(context.Background()) }, nil
}
