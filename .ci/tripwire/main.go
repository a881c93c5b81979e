// Command tripwire is a loopback listener that no test may reach: .ci/run
// points a default profile, CARDTERM_BASE_URL and the proxy variables at it
// while `go test ./...` runs, then fails if it received anything. It
// writes its URL to -url-file, logs each request to -log and runs until
// it is stopped.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	urlFile := flag.String("url-file", "", "where to write the listener's URL")
	logFile := flag.String("log", "", "where to log each request received")
	flag.Parse()
	requests, err := os.OpenFile(*logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		log.Fatal(err)
	}
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	server := &http.Server{
		ReadHeaderTimeout: 5 * time.Second,
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			// CONNECT (a proxied https request) comes here too.
			fmt.Fprintf(requests, "%s %s %s\n", r.Method, r.Host, r.URL)
			http.Error(w, "tripwire: no test may reach this listener", http.StatusTeapot)
		}),
	}
	if err := os.WriteFile(*urlFile, []byte("http://"+listener.Addr().String()), 0o600); err != nil {
		log.Fatal(err)
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	go func() { <-stop; _ = server.Close() }()
	if err := server.Serve(listener); err != http.ErrServerClosed {
		log.Fatal(err)
	}
}
