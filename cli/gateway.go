package cli

import (
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"

	"cardterm/apiclient"
	"cardterm/sandbox"
	"cardterm/screens/screenkit"
)

// The gateway and client factory every command uses: where requests go
// (a remote gateway or the embedded sandbox) and the client's settings.

// gateway is where requests go: the client's settings, the status bar's
// label, the sandbox's demo accounts, and what to close afterwards.
type gateway struct {
	cfg   apiclient.Config
	label string
	// sandbox: the embedded sandbox. A --base-url gateway is not known
	// at start; its answers tell the client (apiclient.KnownSandbox).
	sandbox bool
	// embedded: the sandbox this process started (its demo users are
	// the seeded ones).
	embedded bool
	// demoSecretKey: the embedded sandbox's secret key of the demo
	// tenant whose client key is in use; "" for any other gateway.
	demoSecretKey string
	demo          []screenkit.DemoHint
	close         func()
	events        inAppEvents // the in-app webhook listener (app_events.go)
}

// chooseGateway picks a remote gateway from --base-url, or starts the
// embedded sandbox gateway when none is given.
func chooseGateway(o options, stdin *os.File, stderr io.Writer) (gateway, error) {
	start, err := prepareGateway(o, stdin, stderr)
	if err != nil {
		return gateway{}, err
	}
	return start()
}

// prepareGateway does what choosing the gateway may fail on because of
// the command line or ask on the terminal (the debug log, the base URL, a
// secret key), and returns what finishes it: starting the embedded
// sandbox, which reads nothing from the terminal, so that the app can
// run it while Bubble Tea starts (app_start.go).
func prepareGateway(o options, stdin *os.File, stderr io.Writer) (start func() (gateway, error), err error) {
	cfg, closeLog, err := clientConfig(o)
	if err != nil {
		return nil, err
	}
	if o.baseURL == "" {
		return func() (gateway, error) { return startEmbedded(o, cfg, closeLog) }, nil
	}
	gw, err := remoteGateway(o, cfg, closeLog, stdin, stderr)
	if err != nil {
		return nil, err
	}
	return func() (gateway, error) { return gw, nil }, nil
}

// remoteGateway is the --base-url gateway for cfg, with its secret key.
func remoteGateway(o options, cfg apiclient.Config, closeLog func(), stdin *os.File, stderr io.Writer) (gateway, error) {
	gw := gateway{close: closeLog, cfg: cfg}
	host, err := checkBaseURL(o.baseURL)
	if err != nil {
		closeLog()
		return gw, err
	}
	gw.label = host
	// Nothing is asked at start: what the gateway is comes from its
	// answers (apiclient.KnownSandbox). A `cardterm sandbox` on a
	// demo tenant's client key gets that tenant's public keys, which
	// the client sends only once the gateway announced itself.
	// A profile is a saved configuration of a real gateway: its
	// secret key is asked for as usual.
	if cred, ok := sandbox.CredentialFor(gw.cfg.ClientKey); ok {
		gw.cfg.SandboxSecretKey, gw.cfg.SandboxClientID = cred.SecretKey, cred.ClientID
		if !o.profileInUse {
			gw.cfg.SecretKey = secretKey(o, stdin, stderr, false)
			return gw, nil
		}
	}
	// The support console needs only the client key; it asks for the
	// secret key when an action needs it.
	gw.cfg.SecretKey = secretKey(o, stdin, stderr, !o.support && !o.noPrompt)
	return gw, nil
}

// startEmbedded starts the embedded sandbox gateway for cfg, whose debug
// log closeLog closes.
func startEmbedded(o options, cfg apiclient.Config, closeLog func()) (gateway, error) {
	gw := gateway{close: closeLog, cfg: cfg}
	running, err := sandbox.Start("127.0.0.1:0", sandbox.Options{})
	if err != nil {
		closeLog()
		return gw, fmt.Errorf("starting the embedded sandbox gateway: %w", err)
	}
	gw.close = func() { _ = running.Close(); closeLog() }
	gw.cfg.BaseURL = running.URL
	gw.cfg.Sandbox = true // started here: known, never asked
	gw.asSandbox()
	gw.embedded = true
	if cred, ok := sandbox.CredentialFor(gw.cfg.ClientKey); ok {
		gw.demoSecretKey = cred.SecretKey
		if gw.cfg.ClientID == "" {
			gw.cfg.ClientID = cred.ClientID
		}
	}
	region := "eu"
	if o.us {
		region = "us"
	}
	// The prefill follows the tenant of the client key in use, not always
	// the first one.
	for _, u := range sandbox.DemoUsersFor(gw.cfg.ClientKey) {
		if u.Region == region {
			gw.demo = append(gw.demo, screenkit.DemoHint{Username: u.Username, Password: u.Password, Summary: u.Summary})
		}
	}
	if !o.support {
		gw.cfg.SecretKey = gw.demoSecretKey
	}
	return gw, nil
}

// asSandbox makes gw the sandbox's: the SANDBOX badge, and the demo
// tenant's client key unless one is set.
func (gw *gateway) asSandbox() {
	gw.sandbox, gw.label = true, "SANDBOX"
	if gw.cfg.ClientKey == "" {
		gw.cfg.ClientKey = sandbox.DemoClientKey
	}
}

// clientConfig is a gateway client's configuration from the resolved
// settings: every command that sends requests (the app, the look-ups,
// profile check, sandbox trigger, listen's forwards) builds its client
// from it, so each honours the same base URL, client key, US routing,
// timeout, debug log and user agent. close closes the debug log.
func clientConfig(o options) (cfg apiclient.Config, close func(), err error) {
	logger, closeLog, err := openDebugLog(o.debugFile)
	if err != nil {
		return cfg, nil, err
	}
	cfg = apiclient.Config{
		Logger:    logger,
		BaseURL:   o.baseURL,
		ClientKey: o.clientKey,
		ClientID:  o.clientID,
		US:        o.us,
		Timeout:   o.timeout,
		UserAgent: "cardterm/" + appVersion(),
		ReadOnly:  o.readOnly,
	}
	if o.proxy != "" {
		cfg.HTTPClient = &http.Client{Transport: throughProxy(o.proxy)}
	}
	return cfg, closeLog, nil
}

// throughProxy is a transport that sends through the proxy at raw (checked
// by its setting), except requests to this machine (the embedded sandbox,
// a local one, listen's loopback targets).
func throughProxy(raw string) *http.Transport {
	proxy, _ := url.Parse(raw)
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.Proxy = func(r *http.Request) (*url.URL, error) {
		host := r.URL.Hostname()
		if ip := net.ParseIP(host); host == "localhost" || ip != nil && ip.IsLoopback() {
			return nil, nil
		}
		return proxy, nil
	}
	return transport
}

// checkBaseURL returns the host of an http(s) base URL, or a usage error.
func checkBaseURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", usageError{fmt.Sprintf("--base-url %q is not an http(s) URL", raw)}
	}
	return u.Host, nil
}

// openDebugLog opens the debug log (appending, owner-only) and returns
// its logger; no file, no logger.
func openDebugLog(path string) (*slog.Logger, func(), error) {
	if path == "" {
		return nil, func() {}, nil
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("the debug log: %w", err)
	}
	return slog.New(slog.NewTextHandler(f, nil)), func() { _ = f.Close() }, nil
}
