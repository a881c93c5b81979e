package webhooks

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox/webhookreceiver"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
)

// gatewayRewrite is a transport between the app and the sandbox that
// changes answers as another gateway might: keys masked in create and
// rotate answers, no delivery log.
type gatewayRewrite struct {
	maskKeys     atomic.Bool
	noDeliveries bool
}

var keyInAnswer = regexp.MustCompile(`"apiKey":"whsec_[0-9a-f]{60}([0-9a-f]{4})"`)

func (g *gatewayRewrite) RoundTrip(req *http.Request) (*http.Response, error) {
	if g.noDeliveries && strings.HasSuffix(req.URL.Path, "/deliveries") {
		return &http.Response{StatusCode: http.StatusNotFound, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(`{"message":"Not Found"}`)), Request: req}, nil
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil || req.Method != http.MethodPost || !g.maskKeys.Load() {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	body = keyInAnswer.ReplaceAll(body, []byte(`"apiKey":"whsk_****…$1"`))
	resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	resp.Header.Del("Content-Length")
	return resp, nil
}

func withGateway(g *gatewayRewrite) screentest.Option {
	return screentest.WithConfig(func(c *apiclient.Config) { c.HTTPClient = &http.Client{Transport: g} })
}

func TestWebhooksMaskedKeyIsNeverPresentedAsTheKey(t *testing.T) {
	g := &gatewayRewrite{}
	g.maskKeys.Store(true)
	a := newApp(t, "alice@demo.test", withGateway(g))
	a.Keys("a")
	a.Fill("Ops", "https://example.test/hooks")
	a.Keys("tab", "tab", "space", "ctrl+s", "y")
	s := a.Screen()
	screentest.MustShow(t, s, `Signing key of the new webhook "Ops"`, "As answered: whsk_****…", "returned this key masked",
		"R rotate the key", `webhook "Ops" added; the gateway returned its key masked`)
	screentest.MustNotShow(t, s, "Store it now", "y copy the key")
	// y copies nothing: the masked text is not a key.
	a.Keys("y")
	if n := a.Notice(); n != "nothing to copy" {
		t.Fatalf("y on a masked key: notice %q", n)
	}
	// R rotates, with the confirmation; a masked rotation answer is said
	// to be masked again, a whole one is shown once.
	a.Keys("R")
	a.MustShow(t, `Rotate the signing key of "Ops"?`, "/rotate-key")
	a.Keys("y")
	a.MustShow(t, `New signing key of "Ops"`, "returned this key masked", "the gateway returned the new one")
	g.maskKeys.Store(false)
	a.Keys("R", "y")
	s = a.Screen()
	screentest.MustShow(t, s, `New signing key of "Ops"`, "Store it now", "y copy the key")
	if !fullKey.MatchString(s) {
		t.Fatalf("the whole key is not shown:\n%s", s)
	}
	a.Keys("y")
	a.MustShow(t, `copied the signing key of "Ops"`)
}

// failingReceiver answers every delivery with status.
func failingReceiver(t *testing.T, status int) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(status) }))
	t.Cleanup(srv.Close)
	return srv.URL + "/hooks"
}

func TestWebhooksDetailShowsDeliveryAttempts(t *testing.T) {
	a := newApp(t, "alice@demo.test")
	flakyWithAttempts(t, a)
	a.Keys("r", "j", "j", "enter")
	s := a.Screen()
	screentest.MustShow(t, s, "Delivery attempts", "card.frozen", "FAILED", "#1  503 Service Unavailable", "next try",
		"#5  503 Service Unavailable")
	// The latest attempt is one readable line, never the gateway's JSON.
	screentest.MustShow(t, s, "Last delivery  card.frozen · failed · attempt 5 · the receiver answered 503 · ")
	if strings.Contains(s, `{"`) {
		t.Errorf("the detail shows raw JSON:\n%s", s)
	}

	// The seeded configurations have had no event.
	a.Keys("esc", "k", "k", "enter")
	a.MustShow(t, "Webhook Ledger sync", "No event sent to it yet.")
}

func TestWebhooksDetailSaysAttemptsUnavailableElsewhere(t *testing.T) {
	a := newApp(t, "alice@demo.test", withGateway(&gatewayRewrite{noDeliveries: true}))
	a.Keys("enter")
	a.MustShow(t, "Webhook Ledger sync", "Delivery attempts are not available from this gateway")
}

func TestWebhooksOpenByID(t *testing.T) {
	a := newApp(t, "alice@demo.test")
	hook := hooksOnServer(a)[1]
	a.Keys("f")
	a.MustShow(t, "Open a webhook by id", "GET /v1/webhooks/{id}")
	a.Type("no-such-id")
	a.Keys("enter")
	s := a.Screen()
	screentest.MustShow(t, s, "No webhook with this id (404)", "no-such-id")
	screentest.MustNotShow(t, s, "as the gateway sent it")
	a.Keys("ctrl+u")
	a.Type(hook.ID)
	a.Keys("enter")
	s = a.Screen()
	screentest.MustShow(t, s, "Webhook "+hook.ID, "as the gateway sent it", "Name", hook.Name, "API key", "whsec_********",
		"Event types", "Is active", "Created at")
	// Dates read as every date of the app, not as the wire's ISO text.
	screentest.MustShow(t, s, screenkit.FormatTime(hook.CreatedAt))
	screentest.MustNotShow(t, s, hook.CreatedAt)
	if fullKey.MatchString(s) {
		t.Fatal("a full key is on screen")
	}
	a.Keys("esc")
	a.MustShow(t, "2 endpoints · limit 5")
}

// waitVerified waits for the listener's newest delivery to be a verified
// eventType.
func waitVerified(t *testing.T, rcv *webhookreceiver.Receiver, eventType string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if h := rcv.History(); len(h) > 0 && h[0].EventType == eventType {
			if !h[0].Verified {
				t.Fatalf("%s rejected: %s", eventType, h[0].Detail)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s arrived: %+v", eventType, rcv.History())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestWebhooksPointAtInAppListener(t *testing.T) {
	l, opt := screentest.WithInAppListener(t, true)
	rcv, url := l.Receiver, l.URL
	a := newApp(t, "alice@demo.test", opt)

	// L: a new configuration for the listener, its key handed over.
	a.Keys("L")
	a.MustShow(t, "Add a webhook for the in-app listener?", "POST /v1/webhooks", url)
	a.Keys("y")
	a.MustShow(t, "3 endpoints · limit 5", "deliveries show on the Events screen")
	if hooks := hooksOnServer(a); hooks[2].URL != url || len(hooks[2].EventTypes) != len(apiclient.SandboxEmittedEventTypes)+len(apiclient.SandboxSimulatedEventTypes) {
		t.Fatalf("stored %+v", hooks[2])
	}
	if err := a.Client.FreezeCard(t.Context()); err != nil {
		t.Fatal(err)
	}
	waitVerified(t, rcv, "card.frozen")

	// l on an existing one: its url changes and its key is rotated, since
	// the listener never saw it whole.
	ledger := hooksOnServer(a)[0]
	a.Keys("l")
	a.MustShow(t, `Point "Ledger sync" at the in-app listener?`, "PUT /v1/webhooks/"+ledger.ID,
		`{"url":"`+url+`"}`, "POST /v1/webhooks/"+ledger.ID+"/rotate-key")
	a.Keys("y")
	a.MustShow(t, `"Ledger sync" now delivers to the in-app listener`)
	if hooksOnServer(a)[0].URL != url {
		t.Fatal("the url did not change on the gateway")
	}
	if _, err := a.Client.SandboxTrigger(t.Context(), "kyc.status.changed", ""); err != nil {
		t.Fatal(err)
	}
	waitVerified(t, rcv, "kyc.status.changed")
	// Once keyed, l again has nothing to do.
	a.Keys("l")
	a.MustShow(t, "already delivers to the in-app listener")
}

func TestWebhooksListenerOnARealGatewayExplainsListen(t *testing.T) {
	_, opt := screentest.WithInAppListener(t, false)
	a := newApp(t, "alice@demo.test", opt)
	a.Keys("l")
	s := a.Screen()
	screentest.MustShow(t, s, "cannot receive from this gateway", "public HTTPS", "cardterm listen --addr", "--forward-to")
	if len(hooksOnServer(a)) != 2 || hooksOnServer(a)[0].URL != "https://hooks.acme.test/ledger" {
		t.Fatal("something was sent")
	}
	a.Keys("esc")
	a.MustShow(t, "2 endpoints · limit 5")
}

func TestWebhooksListenerWithAMaskedKeySaysDeliveriesWillBeRejected(t *testing.T) {
	g := &gatewayRewrite{}
	g.maskKeys.Store(true)
	l, opt := screentest.WithInAppListener(t, true)
	rcv := l.Receiver
	a := newApp(t, "alice@demo.test", opt, withGateway(g))
	a.Keys("L", "y")
	a.MustShow(t, "3 endpoints · limit 5")
	if n := a.Notice(); !strings.Contains(n, "returned its key masked") || !strings.Contains(n, "rejected until R rotates it") {
		t.Fatalf("notice %q", n)
	}
	if err := a.Client.FreezeCard(t.Context()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(rcv.History()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no delivery arrived")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if d := rcv.History()[0]; d.Verified {
		t.Fatal("a delivery verified although the listener was given no key")
	}
}

func TestWebhooksWithoutInAppListener(t *testing.T) {
	a := newApp(t, "alice@demo.test")
	a.Keys("L")
	if n := a.Notice(); !strings.Contains(n, "no in-app listener runs in this session") {
		t.Fatalf("notice %q", n)
	}
	if len(hooksOnServer(a)) != 2 {
		t.Fatal("a webhook was added")
	}
}

// GET /v1/webhooks/{id}/deliveries is the sandbox's, not the gateway
// interface's: on any other gateway the detail never asks for it and says
// why no attempts are listed.
func TestWebhooksDetailAsksForAttemptsOfTheSandboxOnly(t *testing.T) {
	a := newApp(t, "alice@demo.test", screentest.AsRemote("staging"))
	a.Keys("enter")
	a.MustShow(t, "Webhook Ledger sync", "Delivery attempts are shown for the sandbox gateway only")
	a.Keys("r")
	for _, r := range a.Server.Requests() {
		if strings.HasSuffix(r.Path, "/deliveries") {
			t.Fatalf("asked a gateway other than the sandbox for %s %s", r.Method, r.Path)
		}
	}
	sandbox := newApp(t, "alice@demo.test")
	sandbox.Keys("enter")
	asked := false
	for _, r := range sandbox.Server.Requests() {
		asked = asked || strings.HasSuffix(r.Path, "/deliveries")
	}
	if !asked {
		t.Fatal("the sandbox was not asked for the delivery log")
	}
}

// At 80x24 a long name is cut with "…", never mid-word without a mark;
// a delivery's event id and its attempts are not cut at all: the id takes
// a line of its own, an attempt wraps under its number.
func TestWebhooksDetailMarksWhatItCuts(t *testing.T) {
	a := newApp(t, "alice@demo.test", screentest.WithSize(80, 24))
	name := "Supercalifragilisticexpialidocious ledger synchronisation endpoint"
	if _, err := a.Client.CreateWebhook(t.Context(), apiclient.WebhookCreate{Name: name, URL: failingReceiver(t, 503),
		EventTypes: []string{"card.frozen"}, IsActive: true}); err != nil {
		t.Fatal(err)
	}
	if err := a.Client.FreezeCard(t.Context()); err != nil {
		t.Fatal(err)
	}
	hook := hooksOnServer(a)[2]
	deadline := time.Now().Add(5 * time.Second)
	var deliveries []apiclient.WebhookDelivery
	for deliveries, _ = a.Client.WebhookDeliveries(t.Context(), hook.ID); len(deliveries) == 0 || len(deliveries[0].Attempts) == 0; deliveries, _ = a.Client.WebhookDeliveries(t.Context(), hook.ID) {
		if time.Now().After(deadline) {
			t.Fatal("no attempt recorded")
		}
		time.Sleep(5 * time.Millisecond)
	}
	a.Keys("r", "j", "j", "enter")
	s := a.Screen()
	screentest.MustShow(t, s, "Delivery attempts", "event "+deliveries[0].EventID)
	for _, line := range strings.Split(s, "\n") {
		if strings.Contains(line, "Webhook Supercal") && !strings.HasSuffix(strings.TrimRight(line, " "), "…") {
			t.Errorf("cut without a mark: %q", line)
		}
	}
	a.Keys("end")
	screentest.MustShow(t, a.Screen(), "#1  503 Service Unavailable")
}
