package sandbox

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Deliveries (DESIGN.md): a JSON event {api_version, event_id,
// event_category, event_type, user_id, event_object_id, event_object,
// occurred_at} is POSTed to every ACTIVE configuration of the user's partner
// subscribed to its type, asynchronously, once (no retries), each attempt
// bounded by whDeliveryTimeout. Headers: X-Timestamp (unix seconds of the
// sandbox clock) and X-Signature = hex HMAC-SHA256(apiKey, timestamp + "." +
// body). The outcome of the latest attempt is shown on the configuration as
// lastDelivery (a field the interface does not show).
//
// Emitted events: card.activated when a card is ordered (it is ACTIVE at
// once), and the sandbox-only card.frozen / card.unfrozen on freeze and
// unfreeze. kyc.status.changed is never emitted: the sandbox has no
// verification transitions.

// whDeliveryTimeout bounds one delivery attempt.
const whDeliveryTimeout = 10 * time.Second

// whAPIVersion is the api_version of the deliveries.
const whAPIVersion = "v1"

// whDefaultClient delivers when Options.WebhookClient is nil. It does not
// follow redirects (a redirect could leave HTTPS).
var whDefaultClient = &http.Client{
	Timeout:       whDeliveryTimeout,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// whEvent is the delivery body, in the DESIGN.md field order.
type whEvent struct {
	APIVersion    string `json:"api_version"`
	EventID       string `json:"event_id"`
	EventCategory string `json:"event_category"`
	EventType     string `json:"event_type"`
	UserID        string `json:"user_id"`
	EventObjectID string `json:"event_object_id"`
	EventObject   any    `json:"event_object"`
	OccurredAt    string `json:"occurred_at"`
}

// whDeliveryLog is the outcome of a configuration's latest delivery.
type whDeliveryLog struct {
	EventID   string `json:"eventId"`
	EventType string `json:"eventType"`
	At        string `json:"at"`
	Status    int    `json:"status,omitempty"` // the receiver's HTTP status
	Error     string `json:"error,omitempty"`  // why no status arrived
}

// whStatusWriter remembers the status a wrapped handler answered.
type whStatusWriter struct {
	http.ResponseWriter
	status int
}

func (w *whStatusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *whStatusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// whEmitAfter wraps a card handler: when it answers 200, the event
// eventType about the user's card is delivered to the partner's webhooks.
// The card handlers stay as they are.
func (s *Server) whEmitAfter(eventType string, h func(*call)) func(*call) {
	return func(c *call) {
		sw := &whStatusWriter{ResponseWriter: c.w}
		c.w = sw
		h(c)
		if sw.status == http.StatusOK {
			s.whEmitCard(c, eventType)
		}
	}
}

// whEmitCard builds the event about c.user's card and starts its deliveries.
func (s *Server) whEmitCard(c *call, eventType string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.user == nil || c.user.Card == nil {
		return
	}
	card := c.user.Card.toJSON()
	now := s.now()
	p := s.whPartnerOf(c.be)
	ev := whEvent{
		APIVersion: whAPIVersion, EventID: uuidFrom("event", eventType, c.user.ID, now.Format(time.RFC3339Nano), strconv.Itoa(p.seq), randID()),
		EventCategory: strings.SplitN(eventType, ".", 2)[0], EventType: eventType, UserID: c.user.ID,
		EventObjectID: card.ID, EventObject: card, OccurredAt: now.UTC().Format(time.RFC3339),
	}
	body, err := json.Marshal(ev)
	if err != nil {
		return
	}
	for _, h := range p.hooks {
		if h.Active && slices.Contains(h.EventTypes, eventType) {
			go s.whDeliver(p, h.ID, h.URL, h.APIKey, ev, body)
		}
	}
}

// randID is a short random string that keeps event ids unique.
func randID() string {
	k, err := whNewKey()
	if err != nil {
		return strconv.FormatInt(time.Now().UnixNano(), 10)
	}
	return k
}

// WebhookSignature is the X-Signature of a delivery: hex HMAC-SHA256 of
// timestamp + "." + body under the configuration's API key. Exported so
// partners' tests can sign like the sandbox.
func WebhookSignature(apiKey, timestamp string, body []byte) string {
	m := hmac.New(sha256.New, []byte(apiKey))
	m.Write([]byte(timestamp))
	m.Write([]byte("."))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// whDeliver sends one event to one configuration and records the outcome.
func (s *Server) whDeliver(p *whPartner, id, target, key string, ev whEvent, body []byte) {
	ts := strconv.FormatInt(s.now().Unix(), 10)
	log := whDeliveryLog{EventID: ev.EventID, EventType: ev.EventType, At: s.now().UTC().Format(time.RFC3339)}
	client := s.opts.WebhookClient
	if client == nil {
		client = whDefaultClient
		if !whLoopback(target) {
			log.Error = "not sent: without Options.WebhookClient the sandbox delivers to loopback hosts only"
			s.whRecord(p, id, log)
			return
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), whDeliveryTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		log.Error = "invalid url"
		s.whRecord(p, id, log)
		return
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "cardterm-sandbox-webhooks/1")
	req.Header.Set("X-Timestamp", ts)
	req.Header.Set("X-Signature", WebhookSignature(key, ts, body))
	resp, err := client.Do(req)
	if err != nil {
		log.Error = whShortError(err)
	} else {
		log.Status = resp.StatusCode
		resp.Body.Close()
	}
	s.whRecord(p, id, log)
}

// whRecord stores the outcome on the configuration, if it still exists.
func (s *Server) whRecord(p *whPartner, id string, log whDeliveryLog) {
	s.mu.Lock()
	if h := p.find(id); h != nil {
		h.last = &log
	}
	s.mu.Unlock()
}

// whShortError is a transport error without the url (which may be long).
func whShortError(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		if ue.Timeout() {
			return fmt.Sprintf("no answer within %s", whDeliveryTimeout)
		}
		return ue.Err.Error()
	}
	return err.Error()
}

// whLoopback reports whether target's host is a loopback name or address.
func whLoopback(target string) bool {
	u, err := url.Parse(target)
	return err == nil && loopbackHost(u)
}
