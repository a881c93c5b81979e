package sandbox

import (
	"net/http"
	"strings"
)

// More card activity (SANDBOX-ONLY, beside simulate.go):
//
//	increment  an INCREMENTAL_AUTHORIZATION (PENDING DEBIT, authorizationId) adds
//	           to a pending authorization (a hotel, a fuel pump); sent as
//	           transaction.authorized; a clearing may then take the sum
//	clearing   may be partial (amount below what is authorized) and repeated
//	           (several clearings of one authorization, split shipments)
//	           until the authorized amount is cleared; the first one turns the
//	           authorization CONFIRMED, each one is a spending of its own
//	reversal   the merchant cancels a pending authorization: a REVERSAL
//	           (CONFIRMED CREDIT of what it held, authorizationId), the
//	           authorization and its increments turn REVERTED;
//	           transaction.reversed. The sandbox reverses whole holds: to keep
//	           part of one, clear that part.
//	atm        an ATM withdrawal: an authorization with MCC 6011, channel
//	           ATM and the ATM fee, cleared like any other
//
// Expiry follows the sandbox clock (authorization_expiry.go). Amounts in
// another currency are billed in EUR as every simulated step is.

// mccATM is the merchant category code of cash at an ATM.
const mccATM = "6011"

// atmFeeCents is the sandbox's fee for a withdrawal at an ATM, in EUR.
const atmFeeCents = 250

// atmWithdrawal makes an authorization a cash withdrawal at an ATM.
func atmWithdrawal(t *transactionRecord) {
	t.Channel, t.MCCCategory = "ATM", "CASH"
	fee, _ := amountCents(t.FeeAmount)
	t.FeeAmount = cents(fee + atmFeeCents)
}

// eventTypeOf is the event a new simulated record sends.
func eventTypeOf(t transactionRecord) string {
	switch {
	case t.Status == "DECLINED":
		return WebhookEventTransactionDeclined
	case t.TransactionType == transactionClearing:
		return WebhookEventTransactionCleared
	case t.TransactionType == transactionRefund:
		return WebhookEventTransactionRefunded
	case t.TransactionType == transactionReversal:
		return WebhookEventTransactionReversed
	}
	return WebhookEventTransactionAuthorized
}

// sumOf adds up the amounts of the records of auth of the given type.
func sumOf(u *userRecord, auth *transactionRecord, transactionType string) int {
	sum := 0
	for _, t := range u.simulated {
		if t.AuthorizationID == auth.ID && t.TransactionType == transactionType {
			amount, _ := amountCents(t.TransactionAmount)
			sum += amount
		}
	}
	return sum
}

// authorizedCents is auth's amount with its increments.
func authorizedCents(u *userRecord, auth *transactionRecord) int {
	amount, _ := amountCents(auth.TransactionAmount)
	return amount + sumOf(u, auth, transactionIncrement)
}

// clearedCents is what the clearings of auth took.
func clearedCents(u *userRecord, auth *transactionRecord) int {
	return sumOf(u, auth, transactionClearing)
}

// clearable is the authorization a clearing takes and its amount: the one
// named, else the latest pending one, else the latest cleared in part;
// by default all that is left of it.
func (s *Server) clearable(u *userRecord, in simulateRequest) (*transactionRecord, int, error) {
	auth, err := findAuthorization(u, in.AuthorizationID, "PENDING")
	if err != nil && strings.TrimSpace(in.AuthorizationID) == "" {
		for i := len(u.simulated) - 1; i >= 0 && err != nil; i-- {
			if t := &u.simulated[i]; t.TransactionType == transactionAuthorization && t.Status == "CONFIRMED" &&
				clearedCents(u, t) < authorizedCents(u, t) {
				auth, err = t, nil
			}
		}
	}
	if err != nil {
		return nil, 0, err
	}
	left := authorizedCents(u, auth) - clearedCents(u, auth)
	if (auth.Status != "PENDING" && auth.Status != "CONFIRMED") || left <= 0 {
		return nil, 0, refuseSimulation(http.StatusConflict, "Authorization %s is %s with nothing left to clear", auth.ID, auth.Status)
	}
	amount := left
	if strings.TrimSpace(in.Amount) != "" {
		if amount, err = stepAmount(in, auth); err != nil {
			return nil, 0, err
		}
	}
	if amount > left {
		return nil, 0, refuseSimulation(http.StatusConflict, "a clearing of %s %s is more than the %s %s left to clear of authorization %s",
			cents(amount), auth.TransactionCurrency, cents(left), auth.TransactionCurrency, auth.ID)
	}
	return auth, amount, nil
}

// setStatusWithIncrements sets auth's status and its increments'.
func setStatusWithIncrements(u *userRecord, auth *transactionRecord, status string) {
	auth.Status = status
	for i := range u.simulated {
		if t := &u.simulated[i]; t.AuthorizationID == auth.ID && t.TransactionType == transactionIncrement {
			t.Status = status
		}
	}
}

// confirmAuthorization records a clearing of auth: it is CONFIRMED, with
// its first clearing's id.
func confirmAuthorization(u *userRecord, auth *transactionRecord, clearingID string) {
	setStatusWithIncrements(u, auth, "CONFIRMED")
	if auth.ClearingID == "" {
		auth.ClearingID = clearingID
	}
}

// revertAuthorization records the release of auth's hold.
func revertAuthorization(u *userRecord, auth *transactionRecord) {
	setStatusWithIncrements(u, auth, "REVERTED")
}

// pendingAuthorization is the pending authorization a step refers to.
func pendingAuthorization(u *userRecord, in simulateRequest, step string) (*transactionRecord, error) {
	auth, err := findAuthorization(u, in.AuthorizationID, "PENDING")
	if err != nil {
		return nil, err
	}
	if auth.Status != "PENDING" {
		return nil, refuseSimulation(http.StatusConflict, "Authorization %s is %s: only a PENDING authorization can take %s", auth.ID, auth.Status, step)
	}
	return auth, nil
}

// incrementAuthorization adds to a pending authorization.
func (s *Server) incrementAuthorization(u *userRecord, in simulateRequest) (transactionRecord, *transactionRecord, error) {
	auth, err := pendingAuthorization(u, in, "an increment")
	if err != nil {
		return transactionRecord{}, nil, err
	}
	if strings.TrimSpace(in.Amount) == "" {
		return transactionRecord{}, nil, refuseSimulation(http.StatusBadRequest, "an increment needs its amount (what is added to the authorization)")
	}
	amount, err := stepAmount(in, auth)
	if err != nil {
		return transactionRecord{}, nil, err
	}
	t := s.simulatedRecord(u, transactionIncrement, "DEBIT", amount, auth.TransactionCurrency)
	t.MerchantNameLocation, t.MCC, t.MCCCategory, t.Channel = auth.MerchantNameLocation, auth.MCC, auth.MCCCategory, auth.Channel
	t.Status, t.AuthorizationID, t.AuthorizationCode = "PENDING", auth.ID, auth.AuthorizationCode
	return t, auth, nil
}

// reverseAuthorization releases a pending authorization whole.
func (s *Server) reverseAuthorization(u *userRecord, in simulateRequest) (transactionRecord, *transactionRecord, error) {
	auth, err := pendingAuthorization(u, in, "a reversal")
	if err != nil {
		return transactionRecord{}, nil, err
	}
	held := heldCents(u, auth)
	if strings.TrimSpace(in.Amount) != "" {
		amount, err := stepAmount(in, auth)
		if err != nil {
			return transactionRecord{}, nil, err
		}
		if amount != held {
			return transactionRecord{}, nil, refuseSimulation(http.StatusBadRequest,
				"a reversal releases the whole %s %s authorization %s holds; to keep part of it, clear that part", cents(held), auth.TransactionCurrency, auth.ID)
		}
	}
	reason := strings.ToUpper(strings.TrimSpace(in.Reason))
	if reason == "" {
		reason = "MERCHANT_CANCELLED"
	}
	if !reasonRE.get().MatchString(reason) {
		return transactionRecord{}, nil, refuseSimulation(http.StatusBadRequest, "reason %q must be an upper-case code such as MERCHANT_CANCELLED", in.Reason)
	}
	t := s.reversalOf(u, auth, held, reason)
	revertAuthorization(u, auth)
	return t, auth, nil
}
