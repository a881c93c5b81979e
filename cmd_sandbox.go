package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/pflag"

	"cardterm/apiclient/sandbox"
)

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
