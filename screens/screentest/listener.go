package screentest

import (
	"testing"
	"time"

	"cardterm/sandbox/webhookreceiver"
)

// InAppListener is the in-app webhook listener main starts for the Events
// screen, here on the app's clock.
type InAppListener struct {
	Receiver *webhookreceiver.Receiver
	URL      string
}

// WithInAppListener starts an in-app listener on a free loopback port and
// returns it with the option that mounts it in the app (the Events
// screen's feed, the Webhooks screen's l); sandboxGateway says whether the
// app's gateway is the sandbox. It closes when the test ends.
func WithInAppListener(t testing.TB, sandboxGateway bool) (*InAppListener, Option) {
	t.Helper()
	clock := func() time.Time { return Epoch }
	receiver, err := webhookreceiver.New(webhookreceiver.Options{Now: func() time.Time { return clock() }})
	if err != nil {
		t.Fatal(err)
	}
	listener, err := webhookreceiver.Start("127.0.0.1:0", receiver)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = listener.Close(); receiver.Close() })
	return &InAppListener{Receiver: receiver, URL: listener.URL}, func(s *Setup) {
		s.Shell.Events, s.Shell.EventsURL, s.Shell.Gateway.Local = receiver, listener.URL, sandboxGateway
		clock = s.Shell.Now
	}
}
