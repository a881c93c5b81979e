package sandbox

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"time"
)

// Event types the sandbox knows. The interface names only kyc.status.changed
// and card.activated ("complete list: not shown"); the others are
// SANDBOX-ONLY, plausible names for what the sandbox itself emits
// (webhook_events.go says when each is emitted).
const (
	WebhookEventKYCStatusChanged = "kyc.status.changed"
	WebhookEventCardActivated    = "card.activated"
	// WebhookEventCardFrozen is sandbox-only: emitted on POST /v1/card/freeze.
	WebhookEventCardFrozen = "card.frozen"
	// WebhookEventCardUnfrozen is sandbox-only: emitted on POST /v1/card/unfreeze.
	WebhookEventCardUnfrozen = "card.unfrozen"
	// WebhookEventTransactionCreated is sandbox-only: accepted in
	// subscriptions; the sandbox never emits it (its transactions are seeded).
	WebhookEventTransactionCreated = "transaction.created"
)

// webhookConfig is a stored webhook configuration.
type webhookConfig struct {
	ID, Name, URL string
	APIKey        string // the signing key in full; answers mask it
	EventTypes    []string
	Active        bool
	Metadata      json.RawMessage // always a JSON object
	CreatedAt     time.Time
	UpdatedAt     time.Time
	last          *webhookDeliveryLog      // the latest delivery attempt
	deliveries    []*webhookDeliveryRecord // the latest events sent, oldest first (webhook_history.go)
	deliverySeq   int                      // the last delivery's seq
}

// webhookPartner is one partner's (tenant + environment) webhook state.
type webhookPartner struct {
	home  backendKey       // the eu backend that holds it; its tenant and environment name the partner
	hooks []*webhookConfig // creation order
	seq   int              // configurations created so far, for ids
	// events are the partner's latest events, oldest first (event_history.go).
	events   []keptEvent
	eventSeq int  // the last event's seq
	stored   bool // a data directory holds its record (persist.go)
}

func (p *webhookPartner) index(id string) int {
	for i, h := range p.hooks {
		if h.ID == id {
			return i
		}
	}
	return -1
}

func (p *webhookPartner) find(id string) *webhookConfig {
	if i := p.index(id); i >= 0 {
		return p.hooks[i]
	}
	return nil
}

// webhookPartnerOf returns the webhook state of be's partner, which lives on
// the partner's eu backend (webhooks are per tenant + environment, not per
// region), seeding it on first use. The caller holds s.mu.
func (s *Server) webhookPartnerOf(be *backend) *webhookPartner {
	home := s.backends[backendKey{be.key.Tenant, be.key.Env, "eu"}]
	if home == nil {
		home = be
	}
	if home.webhooks == nil {
		home.webhooks = seedWebhooks(home.key)
	}
	return home.webhooks
}

// webhookSeed is one seeded configuration.
type webhookSeed struct {
	name, url string
	events    []string
	active    bool
	metadata  string
	created   string
}

// seedWebhookTable: acme sandbox shows an active and a paused endpoint;
// globex sandbox has 4, one below the limit of 5, so adding two shows the
// refusal. Seeded keys are derived, never shown (they are masked). Made at
// first use.
var seedWebhookTable = lazy[map[backendKey][]webhookSeed]{build: func() map[backendKey][]webhookSeed {
	return map[backendKey][]webhookSeed{
		{"acme", "sandbox", "eu"}: {
			{"Ledger sync", "https://hooks.acme.test/ledger", []string{WebhookEventCardActivated, WebhookEventKYCStatusChanged}, true,
				`{"team":"finance","env":"staging"}`, "2025-09-01T08:00:00Z"},
			{"CRM (paused)", "https://crm.acme.test/cardterm", []string{WebhookEventKYCStatusChanged}, false,
				`{"owner":"support"}`, "2025-10-15T14:30:00Z"},
		},
		{"globex", "sandbox", "eu"}: {
			{"Fraud monitor", "https://fraud.globex.test/in", []string{WebhookEventCardActivated}, true, `{}`, "2025-05-02T09:00:00Z"},
			{"Data lake", "https://lake.globex.test/events", []string{WebhookEventKYCStatusChanged, WebhookEventCardActivated}, true, `{"sink":"s3"}`, "2025-05-03T09:00:00Z"},
			{"Support desk", "https://desk.globex.test/hook", []string{WebhookEventKYCStatusChanged}, true, `{}`, "2025-06-10T12:00:00Z"},
			{"Legacy bridge", "https://legacy.globex.test/hook", []string{WebhookEventCardActivated}, false, `{"deprecated":true}`, "2025-07-20T16:00:00Z"},
		},
	}
}}

// seedWebhooks builds the seeded state of a partner.
func seedWebhooks(k backendKey) *webhookPartner {
	p := &webhookPartner{home: k}
	for _, sd := range seedWebhookTable.get()[k] {
		p.seq++
		at, _ := time.Parse(time.RFC3339, sd.created)
		id := uuidFrom("webhook", k.String(), sd.name)
		p.hooks = append(p.hooks, &webhookConfig{
			ID: id, Name: sd.name, URL: sd.url, APIKey: "whsec_" + hexFrom(64, "webhook-key", id),
			EventTypes: append([]string(nil), sd.events...), Active: sd.active, Metadata: json.RawMessage(sd.metadata),
			CreatedAt: at, UpdatedAt: at,
		})
	}
	return p
}

// webhookNewKey makes a fresh random signing key, "whsec_" and 64 hex digits.
// crypto/rand.Read never returns an error (it crashes instead), so neither
// does webhookNewKey.
func webhookNewKey() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return "whsec_" + hex.EncodeToString(b[:])
}
