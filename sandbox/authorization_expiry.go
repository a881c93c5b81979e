package sandbox

import (
	"time"
)

// A pending authorization the merchant never clears is released by the
// card network after a while; the sandbox releases it after
// authorizationLifetime on its clock, as a REVERSAL record (CREDIT of what
// was still held, reversalReason EXPIRED) with its transaction.reversed
// event, the authorization turning REVERTED. It looks whenever its time
// moves (POST /sandbox/clock), before each simulated step and when a
// user's transactions are listed, so the wall clock expires them too.

// authorizationLifetime is how long an authorization stays pending.
const authorizationLifetime = 7 * 24 * time.Hour

// reasonExpired is the reversalReason of an expired authorization.
const reasonExpired = "EXPIRED"

// expireAuthorizationsLocked reverses every pending authorization past its
// lifetime, on every backend, and returns their ids. Call with s.mu held.
func (s *Server) expireAuthorizationsLocked() []string {
	var reversed []string
	for _, be := range s.backends {
		for _, u := range be.order {
			reversed = append(reversed, s.expireUserAuthorizationsLocked(be, u)...)
		}
	}
	return reversed
}

// expireUserAuthorizationsLocked reverses u's expired authorizations.
// Call with s.mu held.
func (s *Server) expireUserAuthorizationsLocked(be *backend, u *userRecord) []string {
	now := s.now()
	var reversed []string
	for i := range u.simulated {
		auth := &u.simulated[i]
		if auth.TransactionType != transactionAuthorization || auth.Status != "PENDING" {
			continue
		}
		at, err := time.Parse(time.RFC3339, auth.DateTime)
		if err != nil || now.Sub(at) < authorizationLifetime {
			continue
		}
		t := s.reversalOf(u, auth, heldCents(u, auth), reasonExpired)
		revertAuthorization(u, auth)
		u.simulated = append(u.simulated, t) // auth may point into the old array from here on
		s.emitLocked(be, u.ID, WebhookEventTransactionReversed, t.ID, t)
		reversed = append(reversed, auth.ID)
	}
	if len(reversed) > 0 {
		s.keepUserLocked(u)
	}
	return reversed
}

// reversalOf builds the REVERSAL record releasing amount cents of auth.
func (s *Server) reversalOf(u *userRecord, auth *transactionRecord, amount int, reason string) transactionRecord {
	t := s.simulatedRecord(u, transactionReversal, "CREDIT", amount, auth.TransactionCurrency)
	t.MerchantNameLocation, t.MCC, t.MCCCategory = auth.MerchantNameLocation, auth.MCC, auth.MCCCategory
	t.Status, t.AuthorizationID, t.AuthorizationCode, t.FeeAmount = "CONFIRMED", auth.ID, auth.AuthorizationCode, "0.00"
	if reason != "" {
		t.ReversalReason = reason
	}
	return t
}

// heldCents is what auth still holds: its amount and increments, less
// what was cleared or reversed of it.
func heldCents(u *userRecord, auth *transactionRecord) int {
	held, _ := amountCents(auth.TransactionAmount)
	for _, t := range u.simulated {
		if t.AuthorizationID != auth.ID {
			continue
		}
		amount, _ := amountCents(t.TransactionAmount)
		switch t.TransactionType {
		case transactionIncrement:
			held += amount
		case transactionClearing, transactionReversal:
			held -= amount
		}
	}
	return max(held, 0)
}
