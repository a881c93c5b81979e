package rooms

import (
	"context"
	"net"
)

func listenConfig() (net.Listener, error) {
	var config net.ListenConfig
	return config.Listen(context.Background(), "tcp", "127.0.0.1:0")
}
