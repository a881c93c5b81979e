package cli

import (
	"net"

	"cardterm/apiclient"
)

// isLoopbackAddr reports whether a listen address takes connections from
// this machine only (an empty host is every interface).
func isLoopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	return host != "" && apiclient.IsLoopbackHost(host)
}
