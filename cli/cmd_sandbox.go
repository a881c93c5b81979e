package cli

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"

	"github.com/spf13/cobra"

	"cardterm/sandbox"
)

// newSandboxCommand is `cardterm sandbox`: the sandbox gateway alone,
// headless, so partners can point curl or a mobile dev build at it;
// `cardterm sandbox trigger` sends test events from a running one.
func newSandboxCommand(std streams) *cobra.Command {
	addr := "127.0.0.1:8080"
	var opts sandbox.Options
	var faults []string
	var fixture string
	var given givenFlags
	cmd := &cobra.Command{
		Use:   "sandbox",
		Short: "Run the sandbox gateway alone, headless",
		Long: `Run the sandbox gateway alone and print its base URL, client keys and demo
users; ctrl+c or SIGTERM stops it cleanly. Point cardterm --base-url, curl or a
mobile dev build at it.

With --data DIR ($CARDTERM_SANDBOX_DATA, or a profile's sandbox_data) the sandbox keeps its state in DIR/sandbox.db: every change is
on disk before it is answered, and a restart on the same DIR answers as before
(kill -9 included). A file in DIR that is not a cardterm sandbox store, a damaged
one (named with the byte offset and page of the damage), an empty or
symbolic-link database, a file of another user or one the sandbox does not write,
and a DIR writable by its group or others are refused (exit 1) with the file and
the reason, and left untouched; repair mends a damaged store. Without --data the state
lives in memory and is gone when the sandbox stops. reset, export and import
work on a DIR no running sandbox has open.

--fault 'METHOD PATH=STATUS,latency=DURATION' (repeatable) makes one endpoint slow,
failing or both while the others answer as usual: METHOD may be *, PATH a pattern
where * stands for one segment (/v1/order/*), STATUS an error status (400-599,
answered in the endpoint's error shape; 429 with Retry-After). The first fault
that matches a request applies. Any request may also ask for its own status with
the header Prefer: code=NNN (as Prism takes it); the answer carries
X-Sandbox-Fault saying which fault made it.`,
		Example: `  cardterm sandbox --addr 127.0.0.1:8080
  # links use this machine's LAN address
  cardterm sandbox --addr 0.0.0.0:8080
  # links through a tunnel or proxy
  cardterm sandbox --public-url https://demo.example
  # a slow, flaky gateway
  cardterm sandbox --latency 300ms --error-rate 0.1
  # one endpoint slow, then failing
  cardterm sandbox --fault 'GET /v1/card/status=503,latency=2s'
  cardterm sandbox --fault 'POST /v1/card/freeze=latency=3s' \
      --fault '* /v1/wallet/*=500'
  # one request's status
  curl -H 'Prefer: code=429' -H 'x-client-key: ...' \
      http://127.0.0.1:8080/v1/user
  # keep the state across restarts
  cardterm sandbox --data ./.sandbox
  cardterm --base-url http://127.0.0.1:8080`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.PublicURL != "" {
				if u, err := url.Parse(opts.PublicURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
					return usageError{fmt.Sprintf("--public-url %q is not an http(s) URL", opts.PublicURL)}
				}
			}
			for _, spec := range faults {
				fault, err := sandbox.ParseRouteFault(spec)
				if err != nil {
					return usageError{"--" + err.Error()}
				}
				opts.Faults.Routes = append(opts.Faults.Routes, fault)
			}
			settings, err := resolveCommandOptions(given, streams{stdout: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr()})
			if err != nil {
				return err
			}
			if fixture != "" {
				if settings.sandboxData != "" {
					return usageError{"cardterm sandbox: --fixture starts from a fixture in memory; --data keeps a data directory (sandbox import puts a fixture there)"}
				}
				data, err := os.ReadFile(fixture)
				if err != nil {
					return usageError{"--fixture: " + err.Error()}
				}
				if err := sandbox.CheckFixture(bytes.NewReader(data)); err != nil {
					return usageError{"--fixture " + fixture + ": " + err.Error()}
				}
				opts.Fixture = data
			}
			if dir := settings.sandboxData; dir != "" {
				store, err := sandbox.OpenStore(dir)
				if err != nil {
					return storeError{err}
				}
				defer store.Close()
				opts.Store = store
			}
			return runSandbox(cmd.Context(), addr, opts, std)
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", addr, "address to listen on")
	f.DurationVar(&opts.Faults.Latency, "latency", 0, "delay added to every request (fault injection)")
	f.Float64Var(&opts.Faults.ErrorRate, "error-rate", 0, "fraction of requests answered 500 (fault injection)")
	f.IntVar(&opts.Faults.Burst429, "burst-429", 0, "answer the next N requests with 429 (fault injection)")
	f.BoolVar(&opts.Faults.Malformed, "malformed", false, "truncate successful bodies (fault injection)")
	f.StringArrayVar(&faults, "fault", nil, "make one endpoint slow or failing: 'GET /v1/card/status=503,latency=2s' (repeatable)")
	f.StringVar(&opts.PublicURL, "public-url", "", "base URL put in links and QR codes (hosted pages), when phones reach the sandbox another way; listening on all interfaces, links use the LAN address")
	f.StringVar(&fixture, "fixture", "", "start from this fixture (sandbox export's shape, or cardterm support reproduce's), in memory")
	f.BoolVar(&opts.AltShapes, "alt-shapes", false, "answer what the interface leaves unspecified with other field names and nesting (tests tolerant clients)")
	given = addSettingFlags(cmd, sandboxSettings)
	cmd.AddCommand(newSandboxTriggerCommand(), newSandboxSimulateCommand(), newSandboxResendCommand(), newSandboxLogsCommand(), newSandboxClockCommand(), newSandboxEventsCommand(),
		newSandboxResetCommand(), newSandboxExportCommand(), newSandboxImportCommand(), newSandboxRepairCommand())
	return cmd
}

// runSandbox serves until ctx ends (fang cancels it on ctrl+c and
// SIGTERM; the signals are caught before the address is printed, so
// whoever reads it and stops us at once gets a clean shutdown).
func runSandbox(ctx context.Context, addr string, opts sandbox.Options, std streams) error {
	running, err := sandbox.Start(addr, opts)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(std.stdout)
	fmt.Fprintln(w, running.Describe())
	fmt.Fprintln(w, "Press ctrl+c to stop.")
	_ = w.Flush()
	<-ctx.Done()
	if err := running.Close(); err != nil {
		return fmt.Errorf("stopping: %w", err)
	}
	return nil
}
