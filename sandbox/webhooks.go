package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Webhook rules (the interface's "Webhooks" section, and the gateway's public
// reference where the interface says "not shown"):
//   - bearer token only (no x-client-key); the token picks the partner
//     (tenant + environment); every VERIFIED user of it may manage its
//     webhooks, others get 403.
//   - the acme PRODUCTION environment has no notification service: every
//     webhook endpoint answers 503 there.
//   - name 1..255 characters, url https with a host, event_types at least one
//     dotted name, metadata an object; violations answer 400 {message}.
//     SANDBOX-ONLY: a plain http url is accepted when its host is a loopback
//     address (a receiver on this machine such as `cardterm listen`, as
//     RFC 8252 allows for OAuth redirects); a real gateway requires HTTPS.
//   - at most webhookMaxPerPartner configurations per partner (400 beyond).
//   - apiKey is masked in every answer except the create and rotate-key
//     answers, which show the new key once. PUT never changes it (400 when
//     a body tries).

// webhookMaxPerPartner is how many webhook configurations a partner may have.
const webhookMaxPerPartner = 5

// webhookMaxName is the interface's name limit.
const webhookMaxName = 255

// webhookMaxMetadataBytes bounds a metadata object (the interface does not say).
const webhookMaxMetadataBytes = 8 << 10

// webhookEventRE is the shape of an event type: lower-case dotted words.
var webhookEventRE = lazyRegexp{pattern: `^[a-z0-9_]+(\.[a-z0-9_]+)+$`}

// webhookUnavailableMsg is the 503 message of an environment without a
// notification service.
const webhookUnavailableMsg = "Notification service is not configured for this environment"

// webhookRoutes registers the webhook endpoints (called from routes).
func (s *Server) webhookRoutes() {
	webhookRoute := routeSpec{fam: familyMessage, ident: identBearerOnly, auth: true, verified: true}
	s.handle("GET /v1/webhooks", webhookRoute, s.webhookList)
	s.handle("POST /v1/webhooks", webhookRoute, s.webhookCreate)
	s.handle("GET /v1/webhooks/{id}", webhookRoute, s.webhookGet)
	s.handle("PUT /v1/webhooks/{id}", webhookRoute, s.webhookUpdate)
	s.handle("DELETE /v1/webhooks/{id}", webhookRoute, s.webhookDelete)
	s.handle("POST /v1/webhooks/{id}/rotate-key", webhookRoute, s.webhookRotate)
	s.handle("GET /v1/webhooks/{id}/deliveries", webhookRoute, s.webhookDeliveries) // sandbox-only
}

// webhookJSON is the wire form of a webhook configuration.
type webhookJSON struct {
	ID           string              `json:"id"`
	Tenant       string              `json:"tenant"`
	Name         string              `json:"name"`
	URL          string              `json:"url"`
	APIKey       string              `json:"apiKey"`
	EventTypes   []string            `json:"eventTypes"`
	IsActive     bool                `json:"isActive"`
	Metadata     json.RawMessage     `json:"metadata"`
	CreatedAt    string              `json:"createdAt"`
	UpdatedAt    string              `json:"updatedAt"`
	LastDelivery *webhookDeliveryLog `json:"lastDelivery,omitempty"`
}

// toJSON encodes h; the key is masked unless fullKey. Callers hold s.mu.
func (h *webhookConfig) toJSON(tenant string, fullKey bool) webhookJSON {
	key := webhookMask(h.APIKey)
	if fullKey {
		key = h.APIKey
	}
	var last *webhookDeliveryLog
	if h.last != nil {
		l := *h.last
		last = &l
	}
	return webhookJSON{ID: h.ID, Tenant: tenant, Name: h.Name, URL: h.URL, APIKey: key,
		EventTypes: slices.Clone(h.EventTypes), IsActive: h.Active, Metadata: slices.Clone(h.Metadata),
		CreatedAt: h.CreatedAt.UTC().Format(time.RFC3339), UpdatedAt: h.UpdatedAt.UTC().Format(time.RFC3339),
		LastDelivery: last}
}

// webhookMask keeps the prefix and the last 4 characters of a signing key.
func webhookMask(key string) string {
	if len(key) <= 10 {
		return strings.Repeat("*", 8)
	}
	prefix := ""
	if i := strings.Index(key, "_"); i >= 0 && i < 8 {
		prefix = key[:i+1]
	}
	return prefix + strings.Repeat("*", 8) + key[len(key)-4:]
}

// webhookOpen runs the checks every webhook handler shares: the environment
// must have a notification service. It returns the partner's store and
// has answered when ok is false. The caller must not hold s.mu.
func (s *Server) webhookOpen(c *call) (*webhookPartner, bool) {
	if c.be.key.Tenant == "acme" && c.be.key.Env == "production" {
		c.fail(http.StatusServiceUnavailable, webhookUnavailableMsg)
		return nil, false
	}
	s.mu.Lock()
	p := s.webhookPartnerOf(c.be)
	s.mu.Unlock()
	return p, true
}

// webhookList: GET /v1/webhooks.
func (s *Server) webhookList(c *call) {
	p, ok := s.webhookOpen(c)
	if !ok {
		return
	}
	s.mu.Lock()
	out := convertAll(p.hooks, func(h *webhookConfig) webhookJSON { return h.toJSON(c.be.key.Tenant, false) })
	s.mu.Unlock()
	c.json(http.StatusOK, out)
}

// webhookNotFound is the 404 message of an id the partner has no configuration for.
const webhookNotFound = "Webhook configuration not found"

// webhookAnswer answers 200 with what answer returns for the configuration the
// path's {id} names (answer runs with s.mu held, so it may change it), or
// 404 when p has none.
func webhookAnswer(c *call, p *webhookPartner, answer func(h *webhookConfig) any) {
	c.answerFound(webhookNotFound, func() any {
		if h := p.find(c.r.PathValue("id")); h != nil {
			return answer(h)
		}
		return nil
	})
}

// webhookGet: GET /v1/webhooks/{id}, answered with the configuration itself.
func (s *Server) webhookGet(c *call) {
	p, ok := s.webhookOpen(c)
	if !ok {
		return
	}
	webhookAnswer(c, p, func(h *webhookConfig) any { return h.toJSON(c.be.key.Tenant, false) })
}

// webhookInput is a create or update body; nil means "not given".
type webhookInput struct {
	Name       *string         `json:"name"`
	URL        *string         `json:"url"`
	EventTypes *[]string       `json:"event_types"`
	IsActive   *bool           `json:"is_active"`
	Metadata   json.RawMessage `json:"metadata"`
	// The key changes only through rotate-key; these catch attempts.
	APIKey  json.RawMessage `json:"apiKey"`
	APIKey2 json.RawMessage `json:"api_key"`
}

// check validates the given fields; create also requires name, url and
// event_types. It returns the message of the first problem.
func (in *webhookInput) check(create bool) string {
	if in.APIKey != nil || in.APIKey2 != nil {
		return "The signing key cannot be set here; use POST /v1/webhooks/{id}/rotate-key"
	}
	if create {
		switch {
		case in.Name == nil:
			return "name is required"
		case in.URL == nil:
			return "url is required"
		case in.EventTypes == nil:
			return "event_types is required"
		}
	}
	if in.Name != nil {
		n := strings.TrimSpace(*in.Name)
		switch {
		case n == "":
			return "name must not be empty"
		case utf8.RuneCountInString(n) > webhookMaxName:
			return fmt.Sprintf("name must be at most %d characters", webhookMaxName)
		}
		*in.Name = n
	}
	if in.URL != nil {
		if msg := webhookCheckURL(*in.URL); msg != "" {
			return msg
		}
		*in.URL = strings.TrimSpace(*in.URL)
	}
	if in.EventTypes != nil {
		if len(*in.EventTypes) == 0 {
			return "event_types must contain at least one event type"
		}
		var clean []string
		for _, e := range *in.EventTypes {
			e = strings.TrimSpace(e)
			if !webhookEventRE.get().MatchString(e) {
				return fmt.Sprintf("Invalid event type %q: use dotted lower-case names such as card.activated", e)
			}
			if !slices.Contains(clean, e) {
				clean = append(clean, e)
			}
		}
		*in.EventTypes = clean
	}
	if in.Metadata != nil {
		m := bytes.TrimSpace(in.Metadata)
		var obj map[string]any
		switch {
		case len(m) == 0 || m[0] != '{' || json.Unmarshal(m, &obj) != nil:
			return "metadata must be an object"
		case len(m) > webhookMaxMetadataBytes:
			return fmt.Sprintf("metadata must be at most %d bytes", webhookMaxMetadataBytes)
		}
		in.Metadata = m
	}
	return ""
}

// webhookCheckURL says what is wrong with a webhook url, "" when nothing.
func webhookCheckURL(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	switch {
	case err != nil || u.Host == "" || u.Hostname() == "":
		return "url must be a valid HTTPS URL"
	case u.Scheme == "http" && loopbackHost(u):
		// a local receiver (sandbox-only)
	case u.Scheme != "https":
		return "url must use HTTPS"
	case u.User != nil:
		return "url must not contain credentials"
	}
	return ""
}

// apply sets the fields in gives and keeps the others: what create sets
// over the defaults and update over the stored configuration.
func (h *webhookConfig) apply(in webhookInput) {
	if in.Name != nil {
		h.Name = *in.Name
	}
	if in.URL != nil {
		h.URL = *in.URL
	}
	if in.EventTypes != nil {
		h.EventTypes = *in.EventTypes
	}
	if in.IsActive != nil {
		h.Active = *in.IsActive
	}
	if in.Metadata != nil {
		h.Metadata = in.Metadata
	}
}

// webhookDecode reads a create or update body, answering 400 on a problem.
func webhookDecode(c *call, create bool) (webhookInput, bool) {
	var in webhookInput
	if !c.decode(&in) {
		return in, false
	}
	if msg := in.check(create); msg != "" {
		c.fail(http.StatusBadRequest, msg)
		return in, false
	}
	return in, true
}

// webhookCreate: POST /v1/webhooks -> 201 {success, data} with the full key.
func (s *Server) webhookCreate(c *call) {
	p, ok := s.webhookOpen(c)
	if !ok {
		return
	}
	in, ok := webhookDecode(c, true)
	if !ok {
		return
	}
	key := webhookNewKey()
	s.mu.Lock()
	if len(p.hooks) >= webhookMaxPerPartner {
		s.mu.Unlock()
		c.fail(http.StatusBadRequest, fmt.Sprintf("Maximum of %d webhook configurations per partner reached", webhookMaxPerPartner))
		return
	}
	now := s.now()
	p.seq++
	h := &webhookConfig{ID: uuidFrom("webhook", c.be.key.String(), fmt.Sprint(p.seq), now.String()),
		APIKey: key, Active: true, Metadata: json.RawMessage(`{}`), CreatedAt: now, UpdatedAt: now}
	h.apply(in)
	p.hooks = append(p.hooks, h)
	s.keepPartnerLocked(p)
	out := h.toJSON(c.be.key.Tenant, true)
	s.mu.Unlock()
	c.json(http.StatusCreated, map[string]any{"success": true, "data": out})
}

// webhookUpdate: PUT /v1/webhooks/{id}; only the given fields change.
func (s *Server) webhookUpdate(c *call) {
	p, ok := s.webhookOpen(c)
	if !ok {
		return
	}
	id := c.r.PathValue("id")
	s.mu.Lock()
	known := p.find(id) != nil
	s.mu.Unlock()
	if !known {
		c.fail(http.StatusNotFound, webhookNotFound)
		return
	}
	in, ok := webhookDecode(c, false)
	if !ok {
		return
	}
	webhookAnswer(c, p, func(h *webhookConfig) any { // 404 when deleted meanwhile
		h.apply(in)
		h.UpdatedAt = s.now()
		s.keepPartnerLocked(p)
		return map[string]any{"success": true, "data": h.toJSON(c.be.key.Tenant, false)}
	})
}

// webhookDelete: DELETE /v1/webhooks/{id} -> {success: true}.
func (s *Server) webhookDelete(c *call) {
	p, ok := s.webhookOpen(c)
	if !ok {
		return
	}
	webhookAnswer(c, p, func(h *webhookConfig) any {
		p.hooks = slices.DeleteFunc(p.hooks, func(other *webhookConfig) bool { return other == h })
		s.keepPartnerLocked(p)
		s.keepDeliveriesLocked(p, h, nil, h.deliveries)
		return success
	})
}

// webhookRotate: POST /v1/webhooks/{id}/rotate-key -> {success, data} with the
// new key in full, once; the old key stops signing at once.
func (s *Server) webhookRotate(c *call) {
	p, ok := s.webhookOpen(c)
	if !ok {
		return
	}
	key := webhookNewKey()
	webhookAnswer(c, p, func(h *webhookConfig) any {
		h.APIKey = key
		h.UpdatedAt = s.now()
		s.keepPartnerLocked(p)
		return map[string]any{"success": true, "data": h.toJSON(c.be.key.Tenant, true)}
	})
}
