package e2e

import (
	"regexp"
	"strings"
	"testing"

	"cardterm/ui/uitest"
)

// ordPayRE reads the payment fields off the orders screen.
var ordPayRE = regexp.MustCompile(`Pay to\s+(0x[0-9a-fA-F]{40})[\s\S]*Chain id\s+(\d+)[\s\S]*Token\s+USDC (0x[0-9a-fA-F]{40})`)

// TestOrderVirtualCard orders the virtual card as alice, checks the
// payment details and that the QR code on screen is the EIP-681 payment
// link, and waits for the status to become COMPLETED by itself (the
// embedded sandbox completes a virtual card order 6 s after it is placed).
func TestOrderVirtualCard(t *testing.T) {
	tm := startTerm(t, nil)
	signInAs(tm, "alice@demo.test")
	tm.open("Orders")
	tm.waitFor("Orders", "3 products, 2 eligible", "Virtual card, ready in seconds", "✗ not eligible")
	tm.confirm("Enter", "Order Virtual card, ready in seconds?", "POST /v1/order", `"productId": "prod_virtual_card",`)
	s := tm.waitFor("STARTED", "check 1 of 40", "10.00 USD", "QR: payment link (EIP-681)")
	m := ordPayRE.FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no payment details on screen:\n%s", s)
	}
	link := "ethereum:" + m[3] + "@" + m[2] + "/transfer?address=" + m[1] + "&uint256=10000000"
	if got := decodeScreenQR(s); !uitest.SameBits(got, qrBits(t, link)) {
		t.Fatalf("the QR code on screen is not %s:\n%s", link, s)
	}
	// The status polls by itself: the screen's check counter, not the wall
	// clock of a possibly loaded machine, says it completed on the third or
	// fourth check (6 s and 9 s after the first).
	s = tm.waitFor("COMPLETED", "Payment received: the order is complete.")
	if !strings.Contains(s, "check 3 of 40") && !strings.Contains(s, "check 4 of 40") {
		t.Fatalf("COMPLETED after an unexpected number of checks:\n%s", s)
	}
	if strings.Contains(s, "QR:") {
		t.Fatalf("a completed order still shows a payment QR code:\n%s", s)
	}
	tm.send("Escape")
	tm.waitFor("Selected product", "row 1 of 3")
}

var consentUserIDRE = regexp.MustCompile(`User id\s+([0-9a-f-]{36})`)

// TestConsentRevokeAuditAndLink is the support agent's journey: as alice
// revoke an optional consent (still complete) and a required one (now
// incomplete), page the audit trail, then link the demo onboarding's set to
// frank, and see a second link refused as irreversible.
func TestConsentRevokeAuditAndLink(t *testing.T) {
	tm := startTerm(t, nil)
	// Learn frank's user id the way an agent would: from his account.
	signInAs(tm, "frank@demo.test")
	m := consentUserIDRE.FindStringSubmatch(tm.waitFor("User id"))
	if m == nil {
		t.Fatalf("no user id on frank's account screen:\n%s", tm.screen())
	}
	frank := m[1]
	tm.confirm("S", "Sign out?")
	signInAs(tm, "alice@demo.test")

	tm.open("Consent")
	tm.waitFor("Consent", "(you)", "complete", "All required consents granted", "marketingNotifications")
	tm.send("j")
	tm.confirm("x", "Revoke marketingNotifications?", "DELETE /v2/consent/consentSet/", "is optional", "stays complete")
	tm.waitFor("⊘ revoked", "revoked marketingNotifications", "All required consents granted")
	tm.send("k")
	tm.confirm("x", "Revoke termsAndPrivacy?", "REQUIRED consent of the global policy", "becomes INCOMPLETE")
	tm.waitFor("incomplete", "Required consent missing, denied or revoked: termsAndPrivacy")

	tm.send("a")
	tm.waitFor("Audit trail", "records 1–50 of 124", "granted → revoked")
	tm.send("n")
	tm.waitFor("records 51–100 of 124")
	tm.send("n")
	tm.waitFor("records 101–124 of 124", "new: granted")
	tm.send("Escape")
	tm.waitFor("Required consent missing")

	tm.send("b")
	tm.waitFor("Look up an onboarding's consent sets")
	tm.typeText("onb-demo-001")
	tm.send("Enter")
	tm.waitFor("onboarding onb-demo-001", "1 consent set, 0 linked to a user")
	link := func() {
		tm.send("L")
		tm.waitFor("Link a consent set to a user")
		tm.typeText(frank)
		tm.confirm("Enter", "PATCH /v2/consent/onboarding/", frank, "cannot be undone")
	}
	link()
	tm.waitFor("1 consent set, 1 linked to a user", "linked · consent status complete")
	link()
	tm.waitFor("already linked; linking cannot be undone", "Consent set already linked (409)")
}
