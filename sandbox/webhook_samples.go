package sandbox

import (
	"time"
)

// sampleObject is the event_object of a test event of eventType about u:
// the user's real card for card events, otherwise an object of the same
// shape as the real event's with sample values. Each is marked "test": true.
// Call with s.mu held.
func sampleObject(u *userRecord, eventType string, now time.Time) (string, map[string]any) {
	var id string
	var obj map[string]any
	switch eventType {
	case WebhookEventCardFrozen, WebhookEventCardUnfrozen, WebhookEventCardOrdered, WebhookEventCardActivated:
		card := cardJSON{ID: uuidFrom("test-card", u.ID), HolderName: "TEST CARD", ExpiryDate: "2030/12", PanLast4: "4242",
			Status: "ACTIVE", Type: "VIRTUAL", OrderedAt: now.UTC().Format(time.RFC3339), Network: "VISA"}
		if u.Card != nil {
			card = u.Card.toJSON()
		}
		// A test event says what its type says happened, whatever the
		// card is now: card.frozen carries a FROZEN card.
		switch eventType {
		case WebhookEventCardFrozen:
			card.Status = cardFrozen
		case WebhookEventCardUnfrozen, WebhookEventCardActivated:
			card.Status = cardActive
		}
		id = card.ID
		obj = map[string]any{"id": card.ID, "holderName": card.HolderName, "expiryDate": card.ExpiryDate, "panLast4": card.PanLast4,
			"status": card.Status, "type": card.Type, "orderedAt": card.OrderedAt, "network": card.Network}
	case WebhookEventKYCStatusChanged:
		id = u.ID
		obj = map[string]any{"userId": u.ID, "previousVerificationState": "PENDING", "verificationState": u.Verification}
	case WebhookEventOrderStatusChanged:
		id = uuidFrom("test-order", u.ID)
		obj = map[string]any{"orderId": id, "requestId": uuidFrom("test-order-request", u.ID), "productId": "prod_virtual_card",
			"status": ordCompleted, "previousStatus": ordPending, "paidAt": now.UTC().Format(time.RFC3339)}
	case WebhookEventConsentGranted, WebhookEventConsentRevoked:
		id = uuidFrom("test-consent", u.ID, eventType)
		obj = map[string]any{"consentSetId": uuidFrom("test-consent-set", u.ID), "consentId": id,
			"consentType": "marketingNotifications", "consentStatus": "granted"}
		if eventType == WebhookEventConsentRevoked {
			obj["consentStatus"] = "revoked"
			obj["revokedConsentId"] = uuidFrom("test-consent", u.ID, "original")
			obj["revocationTimestamp"] = now.UTC().Format(time.RFC3339)
		}
	case WebhookEventDelegationCompleted:
		id = "0x" + hexFrom(64, "test-delegation-tx", u.ID)
		obj = map[string]any{"chain": "evm", "network": "linea", "address": "0x" + hexFrom(40, "test-delegation-address", u.ID),
			"currency": "usdc", "amount": "100", "txHash": id}
	case WebhookEventWithdrawalSent:
		id = "0x" + hexFrom(64, "test-withdrawal-tx", u.ID)
		obj = map[string]any{"walletId": uuidFrom("test-credit-wallet", u.ID), "amount": "25.00", "fee": "0.45",
			"received": "24.55", "currency": "usdc", "toAddress": "0x" + hexFrom(40, "test-withdrawal-address", u.ID), "txHash": id}
	default:
		id = uuidFrom("test-object", u.ID, eventType)
		obj = map[string]any{"id": id}
	}
	obj["test"] = true
	return id, obj
}
