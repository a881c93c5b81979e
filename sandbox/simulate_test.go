package sandbox

import (
	"encoding/json"
	"testing"
)

// simulate posts one step to POST /sandbox/simulate.
func simulate(e *env, body map[string]any) resp {
	e.t.Helper()
	return e.do("POST", "/sandbox/simulate", secretHdr(), body)
}

// firstTransactions is the first page of the user's transactions.
func firstTransactions(t *testing.T, e *env, tok string) []map[string]any {
	t.Helper()
	r := e.do("GET", "/v1/card/transactions", bearer(tok), nil)
	want(t, r, 200, "")
	var list []map[string]any
	if err := json.Unmarshal(r.Raw, &list); err != nil {
		t.Fatal(err)
	}
	return list
}

func TestSimulatedPaymentLifecycleIsListedAndDelivered(t *testing.T) {
	e := newEnv(t, Options{})
	rc := newLoopbackReceiver(t)
	alice, _ := e.login("alice@demo.test")
	_, key := subscribe(t, e, alice, rc.srv.URL+"/hooks", "transaction.authorized", "transaction.cleared", "transaction.refunded", "transaction.declined")

	auth := simulate(e, map[string]any{"type": "authorization", "user": "alice@demo.test", "amount": "12.50", "currency": "EUR",
		"merchant": "Coffee Corner", "mcc": "5814"})
	want(t, auth, 200, "")
	authID := auth.JSON["transaction"].(map[string]any)["id"].(string)
	clearing := simulate(e, map[string]any{"type": "clearing", "user": "alice@demo.test"})
	want(t, clearing, 200, "")
	refund := simulate(e, map[string]any{"type": "refund", "user": "alice@demo.test", "amount": "2.50"})
	want(t, refund, 200, "")
	decline := simulate(e, map[string]any{"type": "decline", "user": "alice@demo.test", "amount": "99", "merchant": "Big Shop", "reason": "LIMIT_EXCEEDED"})
	want(t, decline, 200, "")

	list := firstTransactions(t, e, alice)
	top := list[:4]
	if top[0]["status"] != "DECLINED" || top[0]["declineReason"] != "LIMIT_EXCEEDED" || top[0]["transactionType"] != "AUTHORIZATION" {
		t.Fatalf("newest is not the decline: %v", top[0])
	}
	if top[1]["transactionType"] != "REFUND" || top[1]["sign"] != "CREDIT" || top[1]["authorizationId"] != authID || top[1]["transactionAmount"] != "2.50" {
		t.Fatalf("refund: %v", top[1])
	}
	if top[2]["transactionType"] != "CLEARING" || top[2]["status"] != "CONFIRMED" || top[2]["authorizationId"] != authID || top[2]["transactionAmount"] != "12.50" {
		t.Fatalf("clearing: %v", top[2])
	}
	if top[3]["id"] != authID || top[3]["status"] != "CONFIRMED" || top[3]["clearingId"] != top[2]["id"] ||
		top[3]["merchantNameLocation"] != "Coffee Corner" || top[3]["mcc"] != "5814" || top[3]["mccCategory"] != "RESTAURANTS" {
		t.Fatalf("authorization after its clearing: %v", top[3])
	}

	got := rc.collect(t, key, 4)
	for eventType, id := range map[string]any{"transaction.authorized": authID, "transaction.cleared": top[2]["id"],
		"transaction.refunded": top[1]["id"], "transaction.declined": top[0]["id"]} {
		if len(got[eventType]) != 1 || got[eventType][0].EventObjectID != id || got[eventType][0].EventObject["id"] != id {
			t.Fatalf("%s: %v", eventType, got[eventType])
		}
	}
	if got["transaction.declined"][0].EventObject["declineReason"] != "LIMIT_EXCEEDED" {
		t.Fatalf("the decline event lacks its reason: %v", got["transaction.declined"][0].EventObject)
	}
}

func TestSimulateRefusesWhatCannotHappen(t *testing.T) {
	e := newEnv(t, Options{})
	want(t, simulate(e, map[string]any{"type": "capture", "amount": "1"}), 400, `type "capture" must be one of authorization, decline, clearing, refund, increment, reversal, atm`)
	want(t, simulate(e, map[string]any{"type": "authorization", "amount": "1.234"}), 400, `amount "1.234" must be a positive decimal with at most two decimals, such as 12.50`)
	want(t, simulate(e, map[string]any{"type": "authorization", "amount": "0"}), 400, "amount must be more than 0")
	want(t, simulate(e, map[string]any{"type": "authorization", "amount": "1", "currency": "XYZ"}), 400, `currency "XYZ": the sandbox converts CHF, EUR, GBP, USD`)
	want(t, simulate(e, map[string]any{"type": "authorization", "amount": "1", "mcc": "58"}), 400, "")
	want(t, simulate(e, map[string]any{"type": "authorization", "amount": "1", "reason": "X"}), 400, "")
	want(t, simulate(e, map[string]any{"type": "clearing", "user": "alice@demo.test"}), 404,
		"alice@demo.test has no pending authorization: simulate an authorization first (or name one with authorizationId)")
	want(t, simulate(e, map[string]any{"type": "authorization", "user": "nobody", "amount": "1"}), 404, "User not found in this tenant and region")
	want(t, e.do("POST", "/sandbox/simulate", ck("x-secret-key", "sk_nope"), map[string]any{"type": "authorization", "amount": "1"}), 401, "")

	auth := simulate(e, map[string]any{"type": "authorization", "user": "alice@demo.test", "amount": "10"})
	id := auth.JSON["transaction"].(map[string]any)["id"].(string)
	want(t, simulate(e, map[string]any{"type": "refund", "user": "alice@demo.test", "authorizationId": id}), 409,
		"Authorization "+id+" is PENDING: only a cleared authorization can be refunded")
	want(t, simulate(e, map[string]any{"type": "clearing", "user": "alice@demo.test", "authorizationId": id}), 200, "")
	want(t, simulate(e, map[string]any{"type": "clearing", "user": "alice@demo.test", "authorizationId": id}), 409, "")
	want(t, simulate(e, map[string]any{"type": "refund", "user": "alice@demo.test", "amount": "10.01"}), 409,
		"a refund of 10.01 EUR is more than the 10.00 EUR left of authorization "+id)
	want(t, simulate(e, map[string]any{"type": "refund", "user": "alice@demo.test"}), 200, "")
	want(t, simulate(e, map[string]any{"type": "refund", "user": "alice@demo.test", "authorizationId": id}), 409, "Authorization "+id+" is refunded in full already")
}

func TestSimulatedAuthorizationOnAFrozenCardIsDeclined(t *testing.T) {
	e := newEnv(t, Options{})
	alice, _ := e.login("alice@demo.test")
	want(t, e.do("POST", "/v1/card/freeze", bearer(alice), nil), 200, "")
	r := simulate(e, map[string]any{"type": "authorization", "user": "alice@demo.test", "amount": "5"})
	want(t, r, 200, "")
	tx := r.JSON["transaction"].(map[string]any)
	if tx["status"] != "DECLINED" || tx["declineReason"] != "CARD_FROZEN" || r.str("eventType") != "transaction.declined" {
		t.Fatalf("an authorization on a frozen card: %s", r.Raw)
	}
}

func TestTriggeredCardEventsSayWhatTheirTypeSays(t *testing.T) {
	e := newEnv(t, Options{})
	rc := newLoopbackReceiver(t)
	alice, _ := e.login("alice@demo.test")
	_, key := subscribe(t, e, alice, rc.srv.URL, "card.frozen", "card.unfrozen")
	want(t, e.do("POST", "/sandbox/trigger", secretHdr(), map[string]any{"event_type": "card.frozen", "user": "alice@demo.test"}), 200, "")
	want(t, e.do("POST", "/sandbox/trigger", secretHdr(), map[string]any{"event_type": "card.unfrozen", "user": "alice@demo.test"}), 200, "")
	got := rc.collect(t, key, 2)
	if got["card.frozen"][0].EventObject["status"] != "FROZEN" || got["card.unfrozen"][0].EventObject["status"] != "ACTIVE" {
		t.Fatalf("card.frozen carries %v, card.unfrozen %v", got["card.frozen"][0].EventObject["status"], got["card.unfrozen"][0].EventObject["status"])
	}
}
