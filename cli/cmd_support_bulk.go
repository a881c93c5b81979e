package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"cardterm/apiclient"
	"cardterm/domain/bulklookup"
	"cardterm/ui/sanitize"
)

// bulkFlags are the flags of `cardterm support bulk`.
type bulkFlags struct {
	output     string
	format     string
	onboarding bool
	concurrent int
}

// newSupportBulkCommand is `cardterm support bulk FILE|-`: many
// customers' consent status with the client key alone.
func newSupportBulkCommand(std streams) *cobra.Command {
	var flags bulkFlags
	var given givenFlags
	cmd := &cobra.Command{
		Use:   "bulk FILE|-",
		Short: "Look many customers up: each id's consent status and what is missing, as CSV or JSON lines",
		Long: `Reads user ids (or, with --onboarding, onboarding ids), one a line, from
FILE or stdin (-), and writes one line per id with the tenant's client key
alone: the consent status (complete, incomplete, none), the required
consents missing and the number of sets; a user id not found in the
region is looked up in the other (its line names the region that has it),
an id the gateway does not know reads "not found", and text that is not an id (an e-mail, a space) is
refused on its own line without a request. Blank lines and # comments are
skipped; an id given twice is looked up once.

At most --concurrent requests are in flight at once, and a 429's
Retry-After is waited out. With --output FILE the run can be resumed: a
second run skips the ids the file holds and appends the rest. ctrl+c
stops it; every line written is whole, so the file stays valid. On a
terminal a progress bar shows on stderr.`,
		Example: `  cardterm support bulk ids.txt --output status.csv
  cardterm support bulk - --format jsonl < ids.txt
  cardterm support bulk onboardings.txt --onboarding \
      --output onb.jsonl --format jsonl`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o, err := resolveCommandOptions(given, std)
			if err != nil {
				return err
			}
			return runBulk(o, flags, args[0], std)
		},
	}
	cmd.Flags().StringVarP(&flags.output, "output", "o", "", "write to FILE, appending to what an earlier run wrote there (default: stdout)")
	cmd.Flags().StringVar(&flags.format, "format", bulklookup.CSV, "csv or jsonl")
	cmd.Flags().BoolVar(&flags.onboarding, "onboarding", false, "the ids are onboarding ids")
	cmd.Flags().IntVar(&flags.concurrent, "concurrent", 4, fmt.Sprintf("requests in flight at once (1 to %d)", bulklookup.MaxConcurrent))
	given = addSettingFlags(cmd, gatewaySettings)
	return cmd
}

func runBulk(o options, flags bulkFlags, from string, std streams) error {
	format := strings.ToLower(flags.format)
	if format != bulklookup.CSV && format != bulklookup.JSONL {
		return usageError{"cardterm support bulk: --format is csv or jsonl, not " + sanitize.Text(flags.format)}
	}
	if flags.concurrent < 1 || flags.concurrent > bulklookup.MaxConcurrent {
		return usageError{fmt.Sprintf("cardterm support bulk: --concurrent is from 1 to %d", bulklookup.MaxConcurrent)}
	}
	ids, err := readBulkIDs(from, std)
	if err != nil {
		return err
	}
	out, done, err := openBulkOutput(flags.output, format, std.stdout)
	if err != nil {
		return err
	}
	defer out.Close()
	o.noPrompt, o.support = true, true // the client key alone: no secret key is asked for
	gw, err := chooseGateway(o, nil, std.stderr)
	if err != nil {
		return err
	}
	defer gw.close()
	gw.cfg.SecretKey = ""
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	run := bulklookup.Run{Client: apiclient.New(gw.cfg), Kind: bulklookup.User, Region: regionOf(gw.cfg.US), Format: format, Concurrent: flags.concurrent}
	if flags.onboarding {
		run.Kind = bulklookup.Onboarding
	} else {
		other := gw.cfg
		other.US = !other.US
		run.Other, run.OtherRegion = apiclient.New(other), regionOf(other.US)
	}
	bar := newBulkBar(std.stderr)
	run.Progress = bar.show
	sum, err := run.Do(ctx, ids, done, out)
	bar.clear()
	if serr := out.Sync(); err == nil {
		err = serr
	}
	fmt.Fprintln(std.stderr, bulkSummary(sum, len(ids), flags.output))
	switch {
	case err != nil:
		return err
	case sum.Stopped:
		return exitStatus(exitInterrupted)
	}
	return nil
}

// readBulkIDs reads the ids from a file or stdin (-).
func readBulkIDs(from string, std streams) ([]string, error) {
	var r io.Reader = std.stdin
	if from != "-" {
		f, err := os.Open(from)
		if err != nil {
			return nil, fmt.Errorf("the ids: %w", err)
		}
		defer f.Close()
		r = f
	}
	ids, err := bulklookup.ReadIDs(r)
	if err == nil && len(ids) == 0 {
		err = usageError{"cardterm support bulk: no id in " + from}
	}
	return ids, err
}

// bulkOutput is where lines go: a file (synced at the end) or stdout.
type bulkOutput interface {
	io.Writer
	Sync() error
	Close() error
}

// stdoutOutput is stdout, which is not synced or closed.
type stdoutOutput struct{ io.Writer }

func (stdoutOutput) Sync() error  { return nil }
func (stdoutOutput) Close() error { return nil }

// terminalLines writes lines to a terminal cleaned of escape sequences
// and control characters (an id read from a file may hold them).
type terminalLines struct{ w io.Writer }

func (t terminalLines) Write(p []byte) (int, error) {
	if _, err := io.WriteString(t.w, sanitize.Multiline(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// openBulkOutput opens the output, reading what an earlier run wrote.
func openBulkOutput(path, format string, stdout io.Writer) (bulkOutput, map[string]bool, error) {
	if path == "" || path == "-" {
		if isTerminal(stdout) {
			stdout = terminalLines{stdout} // the ids come from a file
		}
		_, err := stdout.Write(bulklookup.Header(format))
		return stdoutOutput{stdout}, map[string]bool{}, err
	}
	done, fresh, err := bulklookup.Resume(path, format)
	if err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, nil, err
	}
	if fresh {
		if _, err := f.Write(bulklookup.Header(format)); err != nil {
			f.Close()
			return nil, nil, err
		}
	}
	return f, done, nil
}

// bulkSummary says what a run did, on stderr.
func bulkSummary(sum bulklookup.Summary, total int, output string) string {
	var parts []string
	for _, s := range []string{"complete", "incomplete", "none", bulklookup.NotFound, bulklookup.Malformed, bulklookup.Failed} {
		if n := sum.ByStatus[s]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, s))
		}
	}
	line := fmt.Sprintf("cardterm: %d of %d id(s) written", sum.Written, total)
	if sum.Skipped > 0 {
		line += fmt.Sprintf(", %d already in %s", sum.Skipped, output)
	}
	if len(parts) > 0 {
		line += " (" + strings.Join(parts, ", ") + ")"
	}
	if sum.Stopped {
		line += "; stopped: run the same command again to go on"
	}
	return line
}

// bulkBar is the progress bar on a terminal's stderr.
type bulkBar struct {
	out  io.Writer
	on   bool
	last time.Time
}

func newBulkBar(stderr io.Writer) *bulkBar { return &bulkBar{out: stderr, on: isTerminal(stderr)} }

// show redraws the bar, at most ten times a second (and at the end).
func (b *bulkBar) show(done, total int, _ bulklookup.Line) {
	if !b.on || (done < total && time.Since(b.last) < 100*time.Millisecond) {
		return
	}
	b.last = time.Now()
	const width = 30
	filled := width * done / max(total, 1)
	fmt.Fprintf(b.out, "\r\x1b[2K[%s%s] %d/%d ids", strings.Repeat("█", filled), strings.Repeat("░", width-filled), done, total)
}

func (b *bulkBar) clear() {
	if b.on && !b.last.IsZero() {
		fmt.Fprint(b.out, "\r\x1b[2K")
	}
}

// regionOf names the backend a client reads.
func regionOf(us bool) string {
	if us {
		return "US"
	}
	return "EU"
}
