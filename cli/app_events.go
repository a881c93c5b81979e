package cli

import (
	"net/url"
	"os"
	"strings"

	"cardterm/apiclient"
	"cardterm/sandbox/webhookreceiver"
)

// inAppEvents is the app's own webhook listener: a receiver served on a
// free loopback port for as long as the app runs. The Events screen shows
// what it receives; the Webhooks screen points configurations at it and
// hands it the signing keys the gateway shows whole.
type inAppEvents struct {
	receiver *webhookreceiver.Receiver
	url      string
	// sandbox: the gateway announced itself as the sandbox, which
	// delivers to loopback receivers and sends test events.
	sandbox bool
}

// withInAppEvents starts the in-app listener for gw and makes closing gw
// close it too. It verifies with $CARDTERM_WEBHOOK_KEY until keys come
// from the Webhooks screen. When the listener cannot start, the app runs
// without it and the Events screen says so.
func withInAppEvents(gw gateway) gateway {
	gw.events.sandbox = gw.sandbox
	receiver, err := webhookreceiver.New(webhookreceiver.Options{})
	if err != nil {
		return gw
	}
	if key := strings.TrimSpace(os.Getenv(webhookKeyEnv)); key != "" {
		_ = receiver.AddKey(key) // a masked key cannot verify; it is left out
	}
	listener, err := webhookreceiver.Start("127.0.0.1:0", receiver)
	if err != nil {
		return gw
	}
	gw.events.receiver, gw.events.url = receiver, listener.URL
	closeGateway := gw.close
	gw.close = func() {
		_ = listener.Close()
		receiver.Close()
		closeGateway()
	}
	return gw
}

// isLoopbackURL reports whether a gateway URL names this machine (a
// `cardterm sandbox` in another terminal).
func isLoopbackURL(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && apiclient.IsLoopbackHost(u.Hostname())
}
