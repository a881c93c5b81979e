package sandbox_test

import (
	"testing"
	"time"

	"cardterm/sandbox"
)

func init() { familyScripts = append(familyScripts, webhookEventsContract) }

// webhookEventsContract exercises the sandbox-only operations of webhook
// events against the document: the delivery log, the test trigger and the
// verification change.
func webhookEventsContract(t *testing.T, h *harness, login loginFunc) {
	alice := login("alice@demo.test")
	umar := login("umar@demo.test")
	olga := login("olga@acme.test", "x-client-key", "ck_live_acme")

	r := h.do("webhook events create 201", req{method: "POST", path: "/v1/webhooks", hdr: bearerOnly(alice), want: 201,
		body: map[string]any{"name": "Events", "url": "https://example.test/events", "event_types": []string{"partner.contract_test"}, "is_active": true}})
	data, _ := r.obj()["data"].(map[string]any)
	id, _ := data["id"].(string)

	// ---------------------------------------------------------------- trigger
	r = h.do("trigger 200", req{method: "POST", path: "/sandbox/trigger", hdr: withSecret(), want: 200,
		body: map[string]any{"event_type": "partner.contract_test", "user": "alice@demo.test"}})
	checkf(t, len(r.obj()["deliveries"].([]any)) == 1, "trigger answer %s", r.raw)
	h.do("trigger 400 type", req{method: "POST", path: "/sandbox/trigger", hdr: withSecret(), want: 400, badRequest: true,
		body: map[string]any{"event_type": "Not A Type"}})
	h.do("trigger 404 user", req{method: "POST", path: "/sandbox/trigger", hdr: withSecret(), want: 404,
		body: map[string]any{"event_type": "card.frozen", "user": "nobody"}})
	h.do("trigger 401 secret", req{method: "POST", path: "/sandbox/trigger", hdr: withKey("x-secret-key", "sk_nope"), want: 401,
		body: map[string]any{"event_type": "card.frozen"}})
	h.do("trigger 499", req{method: "POST", path: "/sandbox/trigger", hdr: hdrs("x-secret-key", sandbox.DemoSecretKey), want: 499, badRequest: true,
		body: map[string]any{"event_type": "card.frozen"}})
	h.do("trigger 498", req{method: "POST", path: "/sandbox/trigger", hdr: hdrs("x-client-key", "ck_nope", "x-secret-key", sandbox.DemoSecretKey), want: 498,
		body: map[string]any{"event_type": "card.frozen"}})

	// ---------------------------------------------------------------- deliveries
	// The sandbox sends to this machine only: the attempt is recorded,
	// failed, with why.
	var d map[string]any
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		r = h.do("webhook deliveries 200", req{method: "GET", path: "/v1/webhooks/" + id + "/deliveries", hdr: bearerOnly(alice), want: 200})
		if ds, _ := r.obj()["deliveries"].([]any); len(ds) == 1 {
			if d, _ = ds[0].(map[string]any); d["state"] == "failed" {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("deliveries %s", r.raw)
		}
	}
	attempts, _ := d["attempts"].([]any)
	checkf(t, len(attempts) == 1 && d["eventType"] == "partner.contract_test", "delivery %v", d)
	h.do("webhook deliveries 404", req{method: "GET", path: "/v1/webhooks/" + unknownID + "/deliveries", hdr: bearerOnly(alice), want: 404})
	h.do("webhook deliveries 401", req{method: "GET", path: "/v1/webhooks/" + id + "/deliveries", want: 401})
	h.do("webhook deliveries 403", req{method: "GET", path: "/v1/webhooks/" + id + "/deliveries", hdr: bearerOnly(umar), want: 403})
	h.do("webhook deliveries 503", req{method: "GET", path: "/v1/webhooks/" + id + "/deliveries", hdr: bearerOnly(olga), want: 503})

	// ---------------------------------------------------------------- shaped trigger, resend, logs
	r = h.do("trigger 200 override", req{method: "POST", path: "/sandbox/trigger", hdr: withSecret(), want: 200,
		body: map[string]any{"event_type": "partner.contract_test", "fixture": map[string]any{"event_object": map[string]any{"n": 1}},
			"overrides": []map[string]any{{"path": "event_object.status", "value": "FROZEN"}}}})
	resendID, _ := r.obj()["eventId"].(string)
	h.do("trigger 400 override", req{method: "POST", path: "/sandbox/trigger", hdr: withSecret(), want: 400,
		body: map[string]any{"event_type": "card.frozen", "overrides": []map[string]any{{"path": "event_id", "value": "mine"}}}})
	h.do("resend 200", req{method: "POST", path: "/sandbox/events/" + resendID + "/resend", hdr: withSecret(), want: 200})
	h.do("resend 404", req{method: "POST", path: "/sandbox/events/" + unknownID + "/resend", hdr: withSecret(), want: 404})
	h.do("logs 401 secret", req{method: "GET", path: "/sandbox/logs", hdr: withKey("x-secret-key", "sk_nope"), want: 401})
	h.do("webhook events delete 200", req{method: "DELETE", path: "/v1/webhooks/" + id, hdr: bearerOnly(alice), want: 200})

	// ---------------------------------------------------------------- kyc
	r = h.do("kyc 200", req{method: "POST", path: "/sandbox/kyc", hdr: withSecret(), want: 200,
		body: map[string]any{"user": "pia@demo.test", "verificationState": "VERIFIED"}})
	checkf(t, r.str("previousVerificationState") == "PENDING", "kyc answer %s", r.raw)
	h.do("kyc 200 back", req{method: "POST", path: "/sandbox/kyc", hdr: withSecret(), want: 200,
		body: map[string]any{"user": "pia@demo.test", "verificationState": "PENDING"}})
	h.do("kyc 400", req{method: "POST", path: "/sandbox/kyc", hdr: withSecret(), want: 400, badRequest: true,
		body: map[string]any{"user": "pia@demo.test", "verificationState": "DONE"}})
	h.do("kyc 404", req{method: "POST", path: "/sandbox/kyc", hdr: withSecret(), want: 404,
		body: map[string]any{"user": "nobody", "verificationState": "VERIFIED"}})
	h.do("kyc 401", req{method: "POST", path: "/sandbox/kyc", hdr: withKey(), want: 401, badRequest: true,
		body: map[string]any{"user": "pia@demo.test", "verificationState": "VERIFIED"}})
}
