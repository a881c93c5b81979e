package screens

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

// newOrdersApp signs user in and opens the Orders screen; the returned
// screen lets tests fire its poll timer (uitest.Drive skips timers).
func newOrdersApp(t testing.TB, user string, opts ...appOption) (*testApp, *Orders) {
	t.Helper()
	var ord *Orders
	opts = append(opts, withScreen(func(d Deps) *Orders { ord = NewOrders(d); return ord }))
	a := newTestApp(t, opts...)
	a.signIn(user)
	a.keys("7")
	mustShow(t, a.screen(), "Orders", "Virtual card")
	return a, ord
}

// tick advances the sandbox clock by one poll interval and fires the poll
// timer the screen is waiting on.
func (a *testApp) tick(ord *Orders) {
	a.t.Helper()
	a.clock.Advance(ordPollEvery)
	a.drive(ordTickMsg{seq: ord.tickSeq})
}

// orderProduct selects the row holding text and orders it.
func (a *testApp) orderProduct(ord *Orders, text string) {
	a.t.Helper()
	a.keys("g")
	for range ord.table.Len() {
		if p, ok := ord.selected(); ok && strings.Contains(p.Description, text) {
			break
		}
		a.keys("j")
	}
	a.keys("enter")
}

func TestOrdersListShowsEligibility(t *testing.T) {
	a, _ := newOrdersApp(t, "alice@demo.test")
	s := a.screen()
	mustShow(t, s, "3 products, 2 eligible", "Virtual card", "Physical card", "Metal card", "✓ eligible", "✗ not eligible",
		"Selected product", "ELIGIBLE", "enter orders it")
	a.keys("j", "j")
	mustShow(t, a.screen(), "NOT ELIGIBLE", "the metal card is offered to selected accounts only", "cannot be ordered")
}

func TestOrderVirtualCardPollsToCompleted(t *testing.T) {
	a, ord := newOrdersApp(t, "nora@demo.test")
	a.drive(tea.WindowSizeMsg{Width: 120, Height: 40})
	a.orderProduct(ord, "Virtual card")
	s := a.screen()
	mustShow(t, s, "Order Virtual card", "POST /v1/order", `{"productId":"prod_virtual_card","paymentMethod":"CRYPTO_EXTERNAL_`,
		"X-Client-ID: ck_sandbox_acme")
	a.keys("enter") // a second enter confirms once; nothing more is sent
	s = a.screen()
	mustShow(t, s, "Payment", "STARTED", "check 1 of 40", "10.00 USD", "Pay to", "0x", "Chain id", "59141", "USDC",
		"QR: payment link (EIP-681)", "the status is checked every 3 s")
	mustNotShow(t, s, "POST /v1/order")
	pc := ord.pay.order.PaymentConfig
	content, _, _ := ord.pay.qrTarget()
	want := "ethereum:" + pc.DestinationTokenAddress + "@59141/transfer?address=" + pc.DestinationAddress + "&uint256=10000000"
	if content != want {
		t.Fatalf("QR content %q, want %q", content, want)
	}
	if label, value, ok := ord.CopyValue(); !ok || value != pc.DestinationAddress || label != "payment address" {
		t.Fatalf("y copies %q %q", label, value)
	}

	a.tick(ord)
	mustShow(t, a.screen(), "PENDING", "check 2 of 40")
	a.tick(ord)
	s = a.screen()
	mustShow(t, s, "COMPLETED", "check 3 of 40", "Payment received", "The new card is on the Card screen (2).", "Paid at", "2026-11-22T09:00:06Z")
	mustNotShow(t, s, "QR:", "█")
	if ord.pay.polling {
		t.Fatal("polling goes on after a final status")
	}
	// No more checks: a late timer does nothing.
	a.tick(ord)
	mustShow(t, a.screen(), "check 3 of 40")
	// The card screen shows the card the order issued.
	a.keys("2")
	mustShow(t, a.screen(), "ACTIVE", "VIRTUAL")
}

func TestOrderFailedAndRecheck(t *testing.T) {
	a, ord := newOrdersApp(t, "frank@demo.test")
	a.orderProduct(ord, "Metal card")
	a.keys("y")
	mustShow(t, a.screen(), "STARTED", "149.00 USD", "check 1 of 40")
	for range 4 {
		a.tick(ord)
	}
	s := a.screen()
	mustShow(t, s, "FAILED", "check 5 of 40", "The payment was returned by the payment provider", "Order again")
	// r re-reads a final order without starting a round.
	a.keys("r")
	mustShow(t, a.screen(), "FAILED", "check 5 of 40")
	if ord.pay.polling {
		t.Fatal("r on a final order restarted polling")
	}
}

func TestOrderPollStopsAfter40Checks(t *testing.T) {
	a, ord := newOrdersApp(t, "alice@demo.test")
	a.orderProduct(ord, "Physical card")
	a.keys("y")
	mustShow(t, a.screen(), "STARTED", "check 1 of 40")
	for range 39 {
		a.tick(ord)
	}
	s := a.screen()
	mustShow(t, s, "check 40 of 40", "Still STARTED after 40 checks", "press r to check again")
	if ord.pay.polling || !ord.pay.capped {
		t.Fatal("polling must stop after 40 checks")
	}
	// A timer after the cap sends nothing.
	a.tick(ord)
	if ord.pay.checks != 40 || a.deps.Requests.InFlight() != 0 {
		t.Fatalf("checks %d after the cap", ord.pay.checks)
	}
	// r starts a new round; 30 minutes later the order has expired.
	a.clock.Advance(30 * time.Minute)
	a.keys("r")
	s = a.screen()
	mustShow(t, s, "EXPIRED", "check 1 of 40", "expired before it was paid", "Do not send funds to its address")
	mustNotShow(t, s, "Still STARTED")
}

func TestOrderStalePollAnswersDroppedAfterEsc(t *testing.T) {
	a, ord := newOrdersApp(t, "alice@demo.test")
	a.orderProduct(ord, "Physical card")
	a.keys("y")
	mustShow(t, a.screen(), "check 1 of 40")
	firstOrder := ord.pay.order.OrderID

	// A timer fires: run its check but hold the answer back.
	a.clock.Advance(ordPollEvery)
	var cmd tea.Cmd
	a.root, cmd = a.root.Update(ordTickMsg{seq: ord.tickSeq})
	held := uitest.Run(cmd)
	if len(held) == 0 {
		t.Fatal("the timer started no check")
	}
	// esc closes the panel (nothing in flight any more), then the answer
	// arrives: it is dropped, the list stays.
	a.keys("esc")
	mustShow(t, a.screen(), "Selected product")
	a.drive(held...)
	s := a.screen()
	mustShow(t, s, "Selected product")
	mustNotShow(t, s, "Pay to", "check 2 of 40")
	// The old timer polls nothing.
	staleSeq := ord.tickSeq
	a.drive(ordTickMsg{seq: staleSeq})
	if ord.pay != nil || a.deps.Requests.InFlight() != 0 {
		t.Fatal("a stale timer reopened or polled")
	}

	// A new order: an answer held from the old one's check is dropped.
	a.orderProduct(ord, "Physical card")
	a.keys("y")
	if ord.pay == nil || ord.pay.order.OrderID == firstOrder {
		t.Fatal("no new order")
	}
	a.drive(held...)
	mustShow(t, a.screen(), "check 1 of 40")

	// esc while a check is in flight cancels it (the root's esc); polling
	// pauses, a second esc closes.
	a.clock.Advance(ordPollEvery)
	a.root, cmd = a.root.Update(ordTickMsg{seq: ord.tickSeq})
	a.keys("esc")
	a.drive(uitest.Run(cmd)...)
	mustShow(t, a.screen(), "Checking stopped", "Press r to check again")
	a.keys("esc")
	mustShow(t, a.screen(), "Selected product")
}

func TestOrderIneligibleRefusedBeforeSending(t *testing.T) {
	a, ord := newOrdersApp(t, "alice@demo.test")
	a.orderProduct(ord, "Metal card")
	if a.root.(*ui.Root).DialogOpen() || ord.pay != nil || ord.ordering != nil {
		t.Fatal("an ineligible product must not be confirmed or sent")
	}
	n, _ := a.root.(*ui.Root).CurrentNotice()
	if !strings.Contains(n.Text, "Metal card") || !strings.Contains(n.Text, "Nothing was sent") {
		t.Fatalf("notice %q", n.Text)
	}
}

func TestOrderUnverifiedSeesNothingEligible(t *testing.T) {
	a, ord := newOrdersApp(t, "umar@demo.test")
	mustShow(t, a.screen(), "3 products, 0 eligible", "identity verification is not complete")
	a.keys("enter")
	if a.root.(*ui.Root).DialogOpen() || ord.ordering != nil {
		t.Fatal("unverified umar cannot order")
	}
}

func TestOrderGateway422ShownAndListReread(t *testing.T) {
	a, ord := newOrdersApp(t, "alice@demo.test")
	// The list is out of date: it offers a product the gateway no longer
	// has. The gateway's 422 is shown and the list is read again.
	ord.setProducts([]apiclient.Product{{ID: "prod_gold", Description: "Gold card", IsEligible: true}})
	a.keys("enter")
	mustShow(t, a.screen(), "Order Gold card?", `"productId":"prod_gold"`)
	a.keys("y")
	s := a.screen()
	mustShow(t, s, `The gateway refused the last order: Gold card: Unknown productId "prod_gold" (422)`, "3 products, 2 eligible")
	if ord.pay != nil {
		t.Fatal("a refused order opened the payment panel")
	}
	n, _ := a.root.(*ui.Root).CurrentNotice()
	if !strings.Contains(n.Text, "ordering Gold card") {
		t.Fatalf("notice %q", n.Text)
	}
}

func TestOrderRejectedAccount403(t *testing.T) {
	a := newTestApp(t, withScreen(NewOrders))
	a.signIn("rex@demo.test")
	a.keys("7")
	mustShow(t, a.screen(), "The gateway does not allow this account to order products.")
}

func TestOrdersReadOnly(t *testing.T) {
	a, ord := newOrdersApp(t, "alice@demo.test", readOnly())
	mustShow(t, a.screen(), "read-only mode: ordering is disabled")
	a.keys("enter")
	if a.root.(*ui.Root).DialogOpen() || ord.ordering != nil {
		t.Fatal("read-only mode must not order")
	}
	n, _ := a.root.(*ui.Root).CurrentNotice()
	if !strings.Contains(n.Text, "read-only mode") {
		t.Fatalf("notice %q", n.Text)
	}
	for _, b := range ord.KeyMap().ShortHelp() {
		if b.Help().Key == "enter" && b.Enabled() {
			t.Fatal("the order key is offered in read-only mode")
		}
	}
}

func TestOrderPollingGoesOnOnAnotherScreen(t *testing.T) {
	a, ord := newOrdersApp(t, "nora@demo.test")
	a.orderProduct(ord, "Virtual card")
	a.keys("y")
	a.keys("1")
	a.tick(ord)
	a.tick(ord)
	n, _ := a.root.(*ui.Root).CurrentNotice()
	if !strings.Contains(n.Text, "Payment received") {
		t.Fatalf("the final status is announced on any screen; notice %q", n.Text)
	}
	a.keys("7")
	mustShow(t, a.screen(), "COMPLETED", "check 3 of 40")
	// Signing out stops it all.
	a.drive(ui.SignedOutMsg{})
	if ord.pay != nil {
		t.Fatal("the panel survives sign-out")
	}
}

func TestOrderPaymentGolden(t *testing.T) {
	a, ord := newOrdersApp(t, "alice@demo.test")
	a.drive(tea.WindowSizeMsg{Width: 130, Height: 44})
	a.orderProduct(ord, "Virtual card")
	a.keys("y")
	a.golden("payment")
	a.tick(ord)
	a.tick(ord)
	mustShow(t, a.screen(), "COMPLETED")
	a.keys("esc")
	a.golden("products")
}

func TestOrderQRFallsBackToAddressWhenSmall(t *testing.T) {
	a, ord := newOrdersApp(t, "alice@demo.test")
	a.drive(tea.WindowSizeMsg{Width: 80, Height: 24})
	a.orderProduct(ord, "Virtual card")
	a.keys("y")
	s := a.screen()
	if strings.Contains(s, "EIP-681") {
		// fine if it fits; at 80x24 it does not
		t.Fatalf("the payment link QR cannot fit 80x24:\n%s", s)
	}
	mustShow(t, s, "Pay to", "no room for the QR code here: v shows it")
	// v shows the QR code alone: the address one fits 80x24.
	a.keys("v")
	s = a.screen()
	mustShow(t, s, "STARTED", "check 1 of 40", "QR: destination address only", "█")
	mustNotShow(t, s, "Pay to")
	for i, l := range strings.Split(s, "\n") {
		if w := len([]rune(l)); w > 80 {
			t.Fatalf("line %d is %d wide", i, w)
		}
	}
	// Every line of the address's QR code is on screen, in order.
	rest := s
	for _, l := range RenderQR(qrBits(ord.pay.order.PaymentConfig.DestinationAddress), false) {
		i := strings.Index(rest, " "+l)
		if i < 0 {
			t.Fatalf("the address's QR code is not on screen (line %q):\n%s", l, s)
		}
		rest = rest[i+len(l):]
	}
	a.keys("v")
	mustShow(t, a.screen(), "Pay to")
}

func TestOrderQRTargetFallsBackToAddress(t *testing.T) {
	pc := &apiclient.PaymentConfig{PaymentAmount: "10.00", PaymentCurrency: "USD", DestinationAddress: "0x1111111111111111111111111111111111111111",
		DestinationChainID: "59141", DestinationTokenSymbol: "USDC", DestinationTokenAddress: "0x2222222222222222222222222222222222222222"}
	p := &ordPayment{order: apiclient.Order{OrderID: "o", PaymentConfig: pc}}
	for _, c := range []struct {
		dec      *ordDecimals
		currency string
		link     bool
		note     string
	}{
		{nil, "USD", false, "looking the token up"},
		{&ordDecimals{why: "the chain configuration could not be read (Not authorized (403))"}, "USD", false, "could not be read"},
		{&ordDecimals{decimals: 6, ok: true}, "EUR", false, "the amount is in EUR, not in USDC"},
		{&ordDecimals{decimals: 6, ok: true}, "USD", true, ""},
	} {
		p.dec, pc.PaymentCurrency = c.dec, c.currency
		content, what, note := p.qrTarget()
		if c.link != strings.HasPrefix(content, "ethereum:") || (!c.link && (content != pc.DestinationAddress || what != "destination address only")) ||
			!strings.Contains(note, c.note) {
			t.Errorf("dec %+v %s: %q %q %q", c.dec, c.currency, content, what, note)
		}
	}
}

// BenchmarkOrderPaymentKeyPress is one key press (Update + View of the whole
// frame) with the payment panel and its QR code open at 120x40.
func BenchmarkOrderPaymentKeyPress(b *testing.B) {
	a, ord := newOrdersApp(b, "nora@demo.test")
	a.drive(tea.WindowSizeMsg{Width: 120, Height: 40})
	a.orderProduct(ord, "Virtual card")
	a.keys("enter")
	if !strings.Contains(a.screen(), "Payment") {
		b.Fatal("the payment panel is not open")
	}
	key := uitest.Key("down")
	b.ReportAllocs()
	for b.Loop() {
		a.root, _ = a.root.Update(key)
		_ = a.root.View()
	}
}
