package sandbox

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Where each event comes from (the interface names only kyc.status.changed
// and card.activated; the rest are the sandbox's names for the moments the
// product has):
//
//	card.frozen            POST /v1/card/freeze changed ACTIVE to FROZEN
//	card.unfrozen          POST /v1/card/unfreeze changed FROZEN to ACTIVE
//	card.ordered           a card was issued: POST /v1/card/order, or a paid card order completed
//	card.activated         right after card.ordered: a new card is ACTIVE at once
//	kyc.status.changed     POST /sandbox/kyc changed a user's verificationState
//	order.status.changed   GET /v1/order/{id} found the order in a new status (the sandbox
//	                       derives an order's status from time, so it notices on a read)
//	consent.granted        PATCH /v2/consent/onboarding/{id} linked a set to a user: one per granted consent
//	consent.revoked        DELETE /v2/consent/consentSet/{id}/consent/{id}
//	delegation.completed   a post-approval (EVM or Solana) was accepted
//	withdrawal.sent        POST /v1/wallet/credit/withdraw sent a withdrawal
//	transaction.authorized POST /sandbox/simulate made an authorization (simulate.go)
//	transaction.declined   ... a decline (or an authorization on a card not ACTIVE)
//	transaction.cleared    ... a clearing of a pending authorization
//	transaction.refunded   ... a refund of a cleared authorization
//	transaction.reversed   ... a reversal, or a pending authorization expired (authorization_expiry.go)
//
// POST /sandbox/trigger (and Server.Trigger) sends a test event of any type.

// WebhookEventTypes lists every event type the sandbox emits, in the order
// the README documents them.
var WebhookEventTypes = []string{
	WebhookEventCardFrozen, WebhookEventCardUnfrozen, WebhookEventCardOrdered, WebhookEventCardActivated,
	WebhookEventKYCStatusChanged, WebhookEventOrderStatusChanged, WebhookEventConsentGranted,
	WebhookEventConsentRevoked, WebhookEventDelegationCompleted, WebhookEventWithdrawalSent,
}

// SimulatedEventTypes are the event types of simulated card activity
// (simulate.go), sent only when a partner asks for it.
var SimulatedEventTypes = []string{
	WebhookEventTransactionAuthorized, WebhookEventTransactionDeclined, WebhookEventTransactionCleared,
	WebhookEventTransactionRefunded, WebhookEventTransactionReversed,
}

// WebhookEventOrigin says in a few words what emits eventType (the table
// above), for the shell completion of cardterm sandbox trigger; "" for a
// type the sandbox never emits by itself.
func WebhookEventOrigin(eventType string) string {
	switch eventType {
	case WebhookEventCardFrozen:
		return "a card was frozen"
	case WebhookEventCardUnfrozen:
		return "a card was unfrozen"
	case WebhookEventCardOrdered:
		return "a card was issued"
	case WebhookEventCardActivated:
		return "a new card is active"
	case WebhookEventKYCStatusChanged:
		return "a user's verification changed"
	case WebhookEventOrderStatusChanged:
		return "a card order changed status"
	case WebhookEventConsentGranted:
		return "a consent set was linked: one per granted consent"
	case WebhookEventConsentRevoked:
		return "a consent was revoked"
	case WebhookEventDelegationCompleted:
		return "a delegation post-approval was accepted"
	case WebhookEventWithdrawalSent:
		return "a credit withdrawal was sent"
	case WebhookEventTransactionAuthorized:
		return "a card payment was authorized (sandbox simulate)"
	case WebhookEventTransactionDeclined:
		return "a card payment was declined (sandbox simulate)"
	case WebhookEventTransactionCleared:
		return "an authorization was cleared (sandbox simulate)"
	case WebhookEventTransactionRefunded:
		return "a cleared payment was refunded (sandbox simulate)"
	case WebhookEventTransactionReversed:
		return "a pending authorization was reversed or expired (sandbox simulate, sandbox clock)"
	}
	return ""
}

// Sandbox-only event types (see the table above).
const (
	WebhookEventCardOrdered         = "card.ordered"
	WebhookEventOrderStatusChanged  = "order.status.changed"
	WebhookEventConsentGranted      = "consent.granted"
	WebhookEventConsentRevoked      = "consent.revoked"
	WebhookEventDelegationCompleted = "delegation.completed"
	WebhookEventWithdrawalSent      = "withdrawal.sent"
)

// webhookSubscriber is a configuration an event was sent to.
type webhookSubscriber struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	URL  string `json:"url"`
}

// emitLocked builds the event eventType about object (objectID) of userID
// ("" when no user is known) on be's partner and starts a delivery to each
// active configuration subscribed to it. It returns the event and where it
// goes. Call with s.mu held; the deliveries run on their own.
func (s *Server) emitLocked(be *backend, userID, eventType, objectID string, object any) (webhookEvent, []webhookSubscriber) {
	ev := s.newEventLocked(be, userID, eventType, objectID, object)
	return ev, s.sendEventLocked(be, ev)
}

// newEventLocked builds an event with a new id. Call with s.mu held.
func (s *Server) newEventLocked(be *backend, userID, eventType, objectID string, object any) webhookEvent {
	now := s.now()
	p := s.webhookPartnerOf(be)
	return webhookEvent{
		APIVersion:    webhookAPIVersion,
		EventID:       uuidFrom("event", eventType, userID, objectID, now.Format(time.RFC3339Nano), strconv.Itoa(p.seq), randID()),
		EventCategory: strings.SplitN(eventType, ".", 2)[0], EventType: eventType, UserID: userID,
		EventObjectID: objectID, EventObject: object, OccurredAt: now.UTC().Format(time.RFC3339),
	}
}

// sendEventLocked starts a delivery of ev to each active configuration of
// be's partner subscribed to its type and returns where it goes. Call with
// s.mu held; the deliveries run on their own.
func (s *Server) sendEventLocked(be *backend, ev webhookEvent) []webhookSubscriber {
	body, err := json.Marshal(ev)
	if err != nil {
		return nil
	}
	p := s.webhookPartnerOf(be)
	s.addToHistoryLocked(p, ev, body)
	var to []webhookSubscriber
	for _, h := range p.hooks {
		if h.Active && slices.Contains(h.EventTypes, ev.EventType) {
			to = append(to, s.startDeliveryLocked(p, h, ev.EventID, ev.EventType, body))
		}
	}
	return to
}

// startDeliveryLocked records a delivery of body (the event eventID) to h
// and sends it in the background. Call with s.mu held.
func (s *Server) startDeliveryLocked(p *webhookPartner, h *webhookConfig, eventID, eventType string, body []byte) webhookSubscriber {
	t := webhookTarget{partner: p, hookID: h.ID, record: s.startDeliveryRecordLocked(p, h, eventID, eventType, body)}
	go s.webhookDeliver(t, body)
	return webhookSubscriber{ID: h.ID, Name: h.Name, URL: h.URL}
}

// emitCardLocked emits eventType about u's card. Call with s.mu held.
func (s *Server) emitCardLocked(be *backend, u *userRecord, eventType string) {
	if u.Card == nil {
		return
	}
	card := u.Card.toJSON()
	s.emitLocked(be, u.ID, eventType, card.ID, card)
}

// emitCardIssuedLocked announces a new card: ordered, then activated
// (the sandbox's cards are ACTIVE as soon as they exist). Call with s.mu held.
func (s *Server) emitCardIssuedLocked(be *backend, u *userRecord) {
	s.emitCardLocked(be, u, WebhookEventCardOrdered)
	s.emitCardLocked(be, u, WebhookEventCardActivated)
}

// randID is a short random string that keeps event ids unique.
func randID() string { return webhookNewKey() }
