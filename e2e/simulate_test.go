package e2e

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

// TestSimulatedPaymentReachesTransactionsAndListen is a partner's loop
// on the sandbox: `listen` registers its own webhook, `sandbox simulate`
// makes an authorization then its clearing for alice (the built binary),
// both appear in `get transactions` and both reach listen signed with the
// key it printed; a decline carries its reason.
func TestSimulatedPaymentReachesTransactionsAndListen(t *testing.T) {
	gw := httptest.NewServer(sandbox.New(sandbox.Options{}))
	defer gw.Close()
	rl := startListenBinary(t, "--base-url", gw.URL)
	key := waitFor(t, "stderr", rl.stderr.String, regexp.MustCompile(`Ready! Your webhook signing key is (\S+)`))

	simulate := func(args ...string) string {
		t.Helper()
		out, errOut, code := sealedRun(t, nil, append([]string{"sandbox", "simulate", "--base-url", gw.URL, "--user", "alice@demo.test"}, args...)...)
		if code != 0 {
			t.Fatalf("sandbox simulate %v: exit %d: %s%s", args, code, out, errOut)
		}
		return out
	}
	out := simulate("authorization", "--amount", "12.50", "--currency", "EUR", "--merchant", "Coffee Corner", "--mcc", "5814")
	if !strings.Contains(out, "DEBIT 12.50 EUR at Coffee Corner, PENDING") || !strings.Contains(out, "transaction.authorized") ||
		!strings.Contains(out, "sent to 1 webhook(s)") || !strings.Contains(out, "cardterm listen  "+rl.url) {
		t.Fatalf("authorization said:\n%s", out)
	}
	simulate("clearing")

	list, errOut, code := sealedRun(t, []string{"CARDTERM_USERNAME=alice@demo.test", "CARDTERM_PASSWORD=demo-pass"},
		"get", "transactions", "--json", "--base-url", gw.URL, "--client-key", sandbox.DemoClientKey)
	if code != 0 {
		t.Fatalf("get transactions: %d %s", code, errOut)
	}
	var transactions []map[string]any
	if err := json.Unmarshal([]byte(list), &transactions); err != nil || len(transactions) < 2 {
		t.Fatalf("get transactions: %v %.300s", err, list)
	}
	clearing, authorization := transactions[0], transactions[1]
	if clearing["transactionType"] != "CLEARING" || clearing["authorizationId"] != authorization["id"] || clearing["transactionAmount"] != "12.50" ||
		authorization["transactionType"] != "AUTHORIZATION" || authorization["merchantNameLocation"] != "Coffee Corner" ||
		authorization["status"] != "CONFIRMED" || authorization["clearingId"] != clearing["id"] {
		t.Fatalf("the newest transactions are not the clearing and its authorization:\n%v\n%v", clearing, authorization)
	}

	out = simulate("decline", "--amount", "80", "--merchant", "Big Shop", "--reason", "INSUFFICIENT_FUNDS")
	if !strings.Contains(out, "Decline ") || !strings.Contains(out, "DECLINED (INSUFFICIENT_FUNDS)") {
		t.Fatalf("decline said:\n%s", out)
	}

	lines := rl.lines(t, 3)
	want := []string{"transaction.authorized", "transaction.cleared", "transaction.declined"}
	for i, l := range lines {
		if !l.Verified || l.EventType != want[i] {
			t.Fatalf("delivery %d: %+v", i, l)
		}
		ts, signature := first(l.Headers["X-Timestamp"]), first(l.Headers["X-Signature"])
		if signature != apiclient.SignWebhook(key, ts, l.Body) {
			t.Fatalf("delivery %d is not signed with the key listen printed", i)
		}
		var ev struct {
			EventObject map[string]any `json:"event_object"`
		}
		_ = json.Unmarshal(l.Body, &ev)
		wantID := []any{authorization["id"], clearing["id"], nil}[i]
		if wantID != nil && ev.EventObject["id"] != wantID {
			t.Fatalf("delivery %d is about %v, want %v", i, ev.EventObject["id"], wantID)
		}
		if i == 2 && ev.EventObject["declineReason"] != "INSUFFICIENT_FUNDS" {
			t.Fatalf("the decline's event lacks its reason: %s", l.Body)
		}
	}

	// Stopping listen deletes the webhook it registered.
	if err := rl.stop(); err != nil {
		t.Fatal(err)
	}
	client := apiclient.New(apiclient.Config{BaseURL: gw.URL, ClientKey: sandbox.DemoClientKey})
	if _, err := client.Login(context.Background(), "alice@demo.test", "demo-pass"); err != nil {
		t.Fatal(err)
	}
	hooks, err := client.Webhooks(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hooks {
		if h.Name == "cardterm listen" {
			t.Fatalf("the listener's webhook outlived it: %+v", h)
		}
	}
}

func first(values []string) string {
	if len(values) == 0 {
		return ""
	}
	return values[0]
}
