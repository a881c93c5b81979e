package rooms

import (
	"crypto/tls"
	"net"
)

func listenTLS(config *tls.Config) (net.Listener, error) {
	return tls.Listen("tcp", "127.0.0.1:0", config)
}
