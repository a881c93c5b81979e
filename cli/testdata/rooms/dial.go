package rooms

import (
	"net"
	"net/http"
)

func dial() (net.Conn, error) { return net.Dial("tcp", "127.0.0.1:1") }

func get(client *http.Client) (*http.Response, error) { return client.Get("http://127.0.0.1:1") }
