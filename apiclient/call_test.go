package apiclient

import (
	"context"
	"strings"
	"testing"
)

// A declaration is what its method sends: the request line and body a
// confirmation shows (Lines) are the ones the gateway receives.
func TestCallsAreWhatTheirMethodsSend(t *testing.T) {
	rec := newRecorder(t)
	for _, route := range []string{"POST /v1/card/freeze", "POST /v1/card/order", "DELETE /v1/webhooks/wh-1",
		"DELETE /v1/wallet/whitelist", "POST /v1/wallet/internal/card_linked"} {
		rec.json(route, 200, `{"success":true}`)
	}
	c := signedInClient(rec)
	ctx := context.Background()
	cases := []struct {
		call Call
		send func() error
	}{
		{FreezeCardCall(), func() error { return c.FreezeCard(ctx) }},
		{OrderCardCall(""), func() error { return c.OrderCard(ctx, "") }},
		{DeleteWebhookCall("wh-1"), func() error { return c.DeleteWebhook(ctx, "wh-1") }},
		{DeleteWhitelistCall([]string{"a", "b"}), func() error { return c.DeleteWhitelist(ctx, []string{"a", "b"}) }},
		{LinkWalletCall("addr-1"), func() error { return c.LinkWallet(ctx, "addr-1") }},
	}
	for _, tc := range cases {
		if err := tc.send(); err != nil {
			t.Fatal(err)
		}
		got := rec.last()
		line := got.Method + " " + got.Path
		if got.RawQuery != "" {
			line += "?" + got.RawQuery
		}
		if line != tc.call.Line() {
			t.Errorf("sent %q, declared %q", line, tc.call.Line())
		}
		if string(tc.call.Body()) != got.Body {
			t.Errorf("%s: sent body %q, declared %q", tc.call.Line(), got.Body, tc.call.Body())
		}
	}
	if line := DeleteWebhookCall("wh 1/x").Line(); line != "DELETE /v1/webhooks/wh%201%2Fx" {
		t.Fatalf("an id is escaped as one path segment: %q", line)
	}
}

// What a confirmation shows of a body: a secret masked, a long body its
// exact beginning up to a comma and its length.
func TestCallLinesMaskSecretsAndShortenLongBodies(t *testing.T) {
	token := "tok_0123456789abcdef"
	lines := PostApprovalCall(ChainEVM, PostApprovalRequest{Token: token, Address: "0xabc"}).Lines()
	if len(lines) != 2 || lines[0] != "POST /v1/delegation/evm/post-approval" || strings.Contains(lines[1], token) ||
		!strings.Contains(lines[1], `"token":"tok_01…"`) {
		t.Fatalf("lines %q", lines)
	}
	ids := make([]string, 100)
	for i := range ids {
		ids[i] = strings.Repeat("f", 36)
	}
	call := DeleteWhitelistCall(ids)
	body := string(call.Body())
	shown := call.Lines()[1]
	prefix, _, ok := strings.Cut(shown, ", … (")
	if !ok || !strings.HasPrefix(body, prefix) || !strings.HasSuffix(shown, ", … (3915 bytes in all)") || len(shown) > MaxShownBody+30 {
		t.Fatalf("shown %q for a body of %d bytes", shown, len(body))
	}
}
