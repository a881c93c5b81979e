package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/spf13/cobra"

	"cardterm/sandbox"
	"cardterm/sandbox/proxy"
	"cardterm/ui/sanitize"
)

// newProxyCommand is `cardterm proxy`: the validating proxy.
func newProxyCommand() *cobra.Command {
	var to, addr string
	var asJSON, expose bool
	cmd := &cobra.Command{
		Use:   "proxy [--to URL] [--addr 127.0.0.1:PORT]",
		Short: "Forward an app's requests to a gateway and check each one against the interface",
		Long: `Forward a partner app's requests to a gateway (--to URL; without it, a sandbox gateway
started in this process) and check each request and each answer against the
interface, as its OpenAPI description says it: the headers required (x-client-key,
X-Client-ID, x-secret-key, the bearer token), path ids (UUIDs), query and body fields
and their types, and the shapes of the answers. The traffic passes unchanged, byte for
byte (only the connection's own headers are not passed on); the checks never change
or hold it.

Point the app at the address printed (--addr, default a free loopback port). On a
terminal each request is a line (method, path, status, time) with the rules it broke
under it, each in the interface's words; piped, or with --json, each is one JSON line
{time, method, path, operation, status, durationMs, error, violations: [{where,
rule, detail}]}. Header values, bodies and queries are never shown: secrets travel
there. An address other than loopback needs --expose.`,
		Example: `  cardterm proxy          # in front of a sandbox of its own
  cardterm proxy --to http://127.0.0.1:8080 --addr 127.0.0.1:9090
  cardterm proxy --to https://gateway.example.com --json |
      jq 'select(.violations != [])'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !isLoopbackAddr(addr) && !expose {
				return usageError{fmt.Sprintf("--addr %s is not a loopback address: any host that reaches it could send requests through with your app's credentials (--expose allows it)", addr)}
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runProxy(ctx, cmd.OutOrStdout(), cmd.ErrOrStderr(), to, addr, asJSON)
		},
	}
	cmd.SilenceUsage = true
	f := cmd.Flags()
	f.StringVar(&to, "to", "", "the gateway's base URL (default: a sandbox gateway started for the proxy)")
	f.StringVar(&addr, "addr", "127.0.0.1:0", "address the app sends its requests to (port 0 picks a free one)")
	f.BoolVar(&asJSON, "json", false, "one JSON line per request, also on a terminal")
	f.BoolVar(&expose, "expose", false, "allow an --addr other than loopback")
	return cmd
}

// runProxy serves until ctx ends.
func runProxy(ctx context.Context, out, errOut io.Writer, to, addr string, asJSON bool) error {
	live := isTerminal(out) && !asJSON
	notes := errOut
	if live {
		notes = out
	}
	if to == "" {
		running, err := sandbox.Start("127.0.0.1:0", sandbox.Options{})
		if err != nil {
			return fmt.Errorf("starting a sandbox gateway: %w", err)
		}
		defer running.Close()
		to = running.URL
		fmt.Fprintf(notes, "Started a sandbox gateway at %s (client key %s)\n", to, sandbox.DemoClientKey)
	}
	printer := &proxyPrinter{out: out, live: live}
	p, err := proxy.New(proxy.Options{To: to, OnExchange: printer.exchange})
	if err != nil {
		return usageError{err.Error()}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", addr, err)
	}
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	fmt.Fprintf(notes, "Proxying http://%s → %s, checking each request and answer against the interface; ctrl+c stops.\n", ln.Addr(), to)
	<-ctx.Done()
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		_ = srv.Close()
	}
	printer.mu.Lock()
	defer printer.mu.Unlock()
	fmt.Fprintf(notes, "Stopped: %d request(s), %d breaking the interface.\n", printer.requests, printer.flagged)
	return nil
}

// proxyPrinter prints each exchange: a line and its violations on a
// terminal, a JSON line otherwise. Requests are answered at once, so it locks.
type proxyPrinter struct {
	out               io.Writer
	live              bool
	mu                sync.Mutex
	requests, flagged int
}

// Styles of the exchanges: verdicts in colour, the rest faint.
func proxyOKStyle() lipgloss.Style    { return lipgloss.NewStyle().Foreground(lipgloss.Green) }
func proxyBadStyle() lipgloss.Style   { return lipgloss.NewStyle().Foreground(lipgloss.Red).Bold(true) }
func proxyFaintStyle() lipgloss.Style { return lipgloss.NewStyle().Faint(true) }

func (p *proxyPrinter) exchange(ex proxy.Exchange) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.requests++
	if len(ex.Violations) > 0 {
		p.flagged++
	}
	if !p.live {
		b, _ := json.Marshal(ex)
		_, _ = p.out.Write(append(sanitize.JSON(b), '\n'))
		return
	}
	verdict := proxyOKStyle().Render("ok")
	if n := len(ex.Violations); n > 0 {
		verdict = proxyBadStyle().Render(fmt.Sprintf("%d broken rule(s)", n))
	}
	status := fmt.Sprint(ex.Status)
	if ex.Error != "" {
		status = proxyBadStyle().Render(sanitize.Text(ex.Error))
	}
	_, _ = lipgloss.Fprintf(p.out, "%s  %-6s %s  %s  %dms  %s\n", ex.Time.Local().Format("15:04:05"), sanitize.Text(ex.Method),
		sanitize.Text(ex.Path), status, ex.DurationMs, verdict)
	for _, v := range ex.Violations {
		_, _ = lipgloss.Fprintf(p.out, "    %s %-8s %s\n      %s\n", proxyBadStyle().Render("✗"), v.Where, sanitize.Text(v.Detail), proxyFaintStyle().Render("rule: "+sanitize.Text(v.Rule)))
	}
}
