package sandbox

import (
	"fmt"
	"net"
	"strings"
	"time"
)

// The address links point at. Hosted pages (the OAuth sign-in, set PIN)
// are opened by a phone that scanned a QR code as often as by the browser
// beside the terminal, so a sandbox listening on every interface must not
// put 127.0.0.1 or [::] in its links.

// linkBase is the base URL for links: PublicURL when set; for a listener on
// every interface (0.0.0.0 or ::) the machine's first LAN address on the
// same port; otherwise the listener's own address.
func linkBase(listened net.Addr, publicURL string) string {
	if publicURL != "" {
		return strings.TrimRight(publicURL, "/")
	}
	tcp, ok := listened.(*net.TCPAddr)
	if !ok || !tcp.IP.IsUnspecified() {
		return "http://" + listened.String()
	}
	if ip := lanAddress(); ip != nil {
		return "http://" + net.JoinHostPort(ip.String(), fmt.Sprint(tcp.Port))
	}
	return "http://" + net.JoinHostPort("127.0.0.1", fmt.Sprint(tcp.Port))
}

// lanAddress is the first IPv4 address of an interface that is up and not
// a loopback, or nil.
func lanAddress() net.IP {
	ifaces, err := net.Interfaces()
	if err != nil {
		return nil
	}
	for _, iface := range ifaces {
		if iface.Flags&net.FlagUp == 0 || iface.Flags&net.FlagLoopback != 0 {
			continue
		}
		addrs, err := iface.Addrs()
		if err != nil {
			continue
		}
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
				return n.IP.To4()
			}
		}
	}
	return nil
}

// Faults returns the faults active now.
func (s *Server) Faults() Faults {
	s.cfgMu.Lock()
	defer s.cfgMu.Unlock()
	return s.faults
}

// describe says which faults are on, for the banner, or "none".
func (f Faults) describe() string {
	var on []string
	if f.Latency > 0 {
		on = append(on, "latency "+f.Latency.Round(time.Millisecond).String()+" on every request")
	}
	if f.ErrorRate > 0 {
		on = append(on, fmt.Sprintf("%g%% of requests answered 500", f.ErrorRate*100))
	}
	if f.Burst429 > 0 {
		on = append(on, fmt.Sprintf("the next %d requests answered 429", f.Burst429))
	}
	if f.Malformed {
		on = append(on, "successful bodies truncated")
	}
	on = append(on, describeRoutes(f.Routes)...)
	if len(on) == 0 {
		return "none"
	}
	return strings.Join(on, "; ")
}
