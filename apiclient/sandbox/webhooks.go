package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
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
//   - at most whMaxPerPartner configurations per partner (400 beyond).
//   - apiKey is masked in every answer except the create and rotate-key
//     answers, which show the new key once. PUT never changes it (400 when
//     a body tries).

// whMaxPerPartner is how many webhook configurations a partner may have.
const whMaxPerPartner = 5

// whMaxName is the interface's name limit.
const whMaxName = 255

// whMaxMetadataBytes bounds a metadata object (the interface does not say).
const whMaxMetadataBytes = 8 << 10

// whEventRE is the shape of an event type: lower-case dotted words.
var whEventRE = regexp.MustCompile(`^[a-z0-9_]+(\.[a-z0-9_]+)+$`)

// whUnavailableMsg is the 503 message of an environment without a
// notification service.
const whUnavailableMsg = "Notification service is not configured for this environment"

// webhookRoutes registers the webhook endpoints (called from routes).
func (s *Server) webhookRoutes() {
	wh := routeSpec{fam: famMessage, ident: identBearerOnly, auth: true, verified: true}
	s.handle("GET /v1/webhooks", wh, s.whList)
	s.handle("POST /v1/webhooks", wh, s.whCreate)
	s.handle("GET /v1/webhooks/{id}", wh, s.whGet)
	s.handle("PUT /v1/webhooks/{id}", wh, s.whUpdate)
	s.handle("DELETE /v1/webhooks/{id}", wh, s.whDelete)
	s.handle("POST /v1/webhooks/{id}/rotate-key", wh, s.whRotate)
	s.handle("GET /v1/webhooks/{id}/deliveries", wh, s.whDeliveries) // sandbox-only
}

// whJSON is the wire form of a webhook configuration.
type whJSON struct {
	ID           string          `json:"id"`
	Tenant       string          `json:"tenant"`
	Name         string          `json:"name"`
	URL          string          `json:"url"`
	APIKey       string          `json:"apiKey"`
	EventTypes   []string        `json:"eventTypes"`
	IsActive     bool            `json:"isActive"`
	Metadata     json.RawMessage `json:"metadata"`
	CreatedAt    string          `json:"createdAt"`
	UpdatedAt    string          `json:"updatedAt"`
	LastDelivery *whDeliveryLog  `json:"lastDelivery,omitempty"`
}

// toJSON encodes h; the key is masked unless fullKey. Callers hold s.mu.
func (h *whHook) toJSON(tenant string, fullKey bool) whJSON {
	key := whMask(h.APIKey)
	if fullKey {
		key = h.APIKey
	}
	var last *whDeliveryLog
	if h.last != nil {
		l := *h.last
		last = &l
	}
	return whJSON{ID: h.ID, Tenant: tenant, Name: h.Name, URL: h.URL, APIKey: key,
		EventTypes: slices.Clone(h.EventTypes), IsActive: h.Active, Metadata: slices.Clone(h.Metadata),
		CreatedAt: h.CreatedAt.UTC().Format(time.RFC3339), UpdatedAt: h.UpdatedAt.UTC().Format(time.RFC3339),
		LastDelivery: last}
}

// whMask keeps the prefix and the last 4 characters of a signing key.
func whMask(key string) string {
	if len(key) <= 10 {
		return strings.Repeat("*", 8)
	}
	prefix := ""
	if i := strings.Index(key, "_"); i >= 0 && i < 8 {
		prefix = key[:i+1]
	}
	return prefix + strings.Repeat("*", 8) + key[len(key)-4:]
}

// whOpen runs the checks every webhook handler shares: the environment
// must have a notification service. It returns the partner's store and
// has answered when ok is false. The caller must not hold s.mu.
func (s *Server) whOpen(c *call) (*whPartner, bool) {
	if c.be.key.Tenant == "acme" && c.be.key.Env == "production" {
		c.fail(http.StatusServiceUnavailable, whUnavailableMsg)
		return nil, false
	}
	s.mu.Lock()
	p := s.whPartnerOf(c.be)
	s.mu.Unlock()
	return p, true
}

// whList: GET /v1/webhooks.
func (s *Server) whList(c *call) {
	p, ok := s.whOpen(c)
	if !ok {
		return
	}
	s.mu.Lock()
	out := convertAll(p.hooks, func(h *whHook) whJSON { return h.toJSON(c.be.key.Tenant, false) })
	s.mu.Unlock()
	c.json(http.StatusOK, out)
}

// whNotFound is the 404 message of an id the partner has no configuration for.
const whNotFound = "Webhook configuration not found"

// whAnswer answers 200 with what answer returns for the configuration the
// path's {id} names (answer runs with s.mu held, so it may change it), or
// 404 when p has none.
func whAnswer(c *call, p *whPartner, answer func(h *whHook) any) {
	c.answerFound(whNotFound, func() any {
		if h := p.find(c.r.PathValue("id")); h != nil {
			return answer(h)
		}
		return nil
	})
}

// whGet: GET /v1/webhooks/{id}, answered with the configuration itself.
func (s *Server) whGet(c *call) {
	p, ok := s.whOpen(c)
	if !ok {
		return
	}
	whAnswer(c, p, func(h *whHook) any { return h.toJSON(c.be.key.Tenant, false) })
}

// whInput is a create or update body; nil means "not given".
type whInput struct {
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
func (in *whInput) check(create bool) string {
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
		case utf8.RuneCountInString(n) > whMaxName:
			return fmt.Sprintf("name must be at most %d characters", whMaxName)
		}
		*in.Name = n
	}
	if in.URL != nil {
		if msg := whCheckURL(*in.URL); msg != "" {
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
			if !whEventRE.MatchString(e) {
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
		case len(m) > whMaxMetadataBytes:
			return fmt.Sprintf("metadata must be at most %d bytes", whMaxMetadataBytes)
		}
		in.Metadata = m
	}
	return ""
}

// whCheckURL says what is wrong with a webhook url, "" when nothing.
func whCheckURL(raw string) string {
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
func (h *whHook) apply(in whInput) {
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

// whDecode reads a create or update body, answering 400 on a problem.
func whDecode(c *call, create bool) (whInput, bool) {
	var in whInput
	if !c.decode(&in) {
		return in, false
	}
	if msg := in.check(create); msg != "" {
		c.fail(http.StatusBadRequest, msg)
		return in, false
	}
	return in, true
}

// whCreate: POST /v1/webhooks -> 201 {success, data} with the full key.
func (s *Server) whCreate(c *call) {
	p, ok := s.whOpen(c)
	if !ok {
		return
	}
	in, ok := whDecode(c, true)
	if !ok {
		return
	}
	key := whNewKey()
	s.mu.Lock()
	if len(p.hooks) >= whMaxPerPartner {
		s.mu.Unlock()
		c.fail(http.StatusBadRequest, fmt.Sprintf("Maximum of %d webhook configurations per partner reached", whMaxPerPartner))
		return
	}
	now := s.now()
	p.seq++
	h := &whHook{ID: uuidFrom("webhook", c.be.key.String(), fmt.Sprint(p.seq), now.String()),
		APIKey: key, Active: true, Metadata: json.RawMessage(`{}`), CreatedAt: now, UpdatedAt: now}
	h.apply(in)
	p.hooks = append(p.hooks, h)
	out := h.toJSON(c.be.key.Tenant, true)
	s.mu.Unlock()
	c.json(http.StatusCreated, map[string]any{"success": true, "data": out})
}

// whUpdate: PUT /v1/webhooks/{id}; only the given fields change.
func (s *Server) whUpdate(c *call) {
	p, ok := s.whOpen(c)
	if !ok {
		return
	}
	id := c.r.PathValue("id")
	s.mu.Lock()
	known := p.find(id) != nil
	s.mu.Unlock()
	if !known {
		c.fail(http.StatusNotFound, whNotFound)
		return
	}
	in, ok := whDecode(c, false)
	if !ok {
		return
	}
	whAnswer(c, p, func(h *whHook) any { // 404 when deleted meanwhile
		h.apply(in)
		h.UpdatedAt = s.now()
		return map[string]any{"success": true, "data": h.toJSON(c.be.key.Tenant, false)}
	})
}

// whDelete: DELETE /v1/webhooks/{id} -> {success: true}.
func (s *Server) whDelete(c *call) {
	p, ok := s.whOpen(c)
	if !ok {
		return
	}
	whAnswer(c, p, func(h *whHook) any {
		p.hooks = slices.DeleteFunc(p.hooks, func(other *whHook) bool { return other == h })
		return success
	})
}

// whRotate: POST /v1/webhooks/{id}/rotate-key -> {success, data} with the
// new key in full, once; the old key stops signing at once.
func (s *Server) whRotate(c *call) {
	p, ok := s.whOpen(c)
	if !ok {
		return
	}
	key := whNewKey()
	whAnswer(c, p, func(h *whHook) any {
		h.APIKey = key
		h.UpdatedAt = s.now()
		return map[string]any{"success": true, "data": h.toJSON(c.be.key.Tenant, true)}
	})
}
