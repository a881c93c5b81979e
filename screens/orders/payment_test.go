package orders

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

// tick advances the sandbox clock by one poll interval and fires the poll
// timer the panel is waiting on.
// payOf is the payment panel open over the Orders screen, nil when none.
func payOf(app *screentest.App) *payment {
	top, _ := app.UI().TopLayerOf(screenkit.OrdersScreen)
	p, _ := top.(*payment)
	return p
}

func tick(app *screentest.App, s *Screen) {
	app.T.Helper()
	app.Clock.Advance(pollEvery)
	app.Drive(payOf(app).nextTick())
}

func TestOrderVirtualCardPollsToCompleted(t *testing.T) {
	app, s := newApp(t, "nora@demo.test")
	app.Resize(120, 40)
	orderProduct(app, s, "Virtual card")
	// The body is too wide for the box: one member a line, never a
	// value cut from its name.
	app.MustShow(t, "Order Virtual card", "POST /v1/order", `"productId": "prod_virtual_card",`,
		`"paymentMethod": "CRYPTO_EXTERNAL_DAIMO"`, "X-Client-ID: acme-sandbox")
	app.Keys("enter") // a second enter confirms once; nothing more is sent
	app.MustShow(t, "Payment", "STARTED", "check 1 of 40", "10.00 USD", "Pay to", "0x", "Chain id", "59141", "USDC",
		"QR: payment link (EIP-681)", "the status is checked every 3 s")
	app.MustNotShow(t, "POST /v1/order")
	if n := app.Sent("POST", "/v1/order"); n != 1 {
		t.Fatalf("%d orders sent", n)
	}
	pc := payOf(app).order.PaymentConfig
	content, _, _ := payOf(app).qrTarget()
	want := "ethereum:" + pc.DestinationTokenAddress + "@59141/transfer?address=" + pc.DestinationAddress + "&uint256=10000000"
	if content != want {
		t.Fatalf("QR content %q, want %q", content, want)
	}
	if label, value, ok := payOf(app).CopyValue(); !ok || value != pc.DestinationAddress || label != "payment address" {
		t.Fatalf("y copies %q %q", label, value)
	}

	tick(app, s)
	app.MustShow(t, "PENDING", "check 2 of 40")
	tick(app, s)
	screen := app.Screen()
	screentest.MustShow(t, screen, "COMPLETED", "check 3 of 40", "Payment received", "The new card is on the Card screen.", "Paid at", "2026-11-22 09:00 UTC")
	screentest.MustNotShow(t, screen, "QR:", "█", "v QR code alone")
	if payOf(app).polling {
		t.Fatal("polling goes on after a final status")
	}
	// No more checks: a late timer does nothing.
	tick(app, s)
	app.MustShow(t, "check 3 of 40")
	// The order issued the card.
	card, err := app.Client.CardStatus(t.Context())
	if err != nil || card.Status != apiclient.CardActive || card.Type != apiclient.CardVirtual {
		t.Fatalf("card after the order: %+v, %v", card, err)
	}
}

func TestOrderFailedAndRecheck(t *testing.T) {
	app, s := newApp(t, "frank@demo.test")
	orderProduct(app, s, "Metal card")
	app.Keys("y")
	app.MustShow(t, "STARTED", "149.00 USD", "check 1 of 40")
	for range 4 {
		tick(app, s)
	}
	app.MustShow(t, "FAILED", "check 5 of 40", "The payment was returned by the payment provider", "Order again")
	// r re-reads a final order without starting a round.
	app.Keys("r")
	app.MustShow(t, "FAILED", "check 5 of 40")
	if payOf(app).polling {
		t.Fatal("r on a final order restarted polling")
	}
}

func TestOrderPollStopsAfter40Checks(t *testing.T) {
	app, s := newApp(t, "alice@demo.test")
	orderProduct(app, s, "Physical card")
	app.Keys("y")
	app.MustShow(t, "STARTED", "check 1 of 40")
	for range 39 {
		tick(app, s)
	}
	app.MustShow(t, "check 40 of 40", "Still STARTED after 40 checks", "press r to check again")
	if payOf(app).polling || !payOf(app).capped {
		t.Fatal("polling must stop after 40 checks")
	}
	// A timer after the cap sends nothing.
	before := app.Sent("GET", "/v1/order/"+payOf(app).order.OrderID)
	tick(app, s)
	if payOf(app).checks != 40 || app.Deps.Requests.InFlight() != 0 || app.Sent("GET", "/v1/order/"+payOf(app).order.OrderID) != before {
		t.Fatalf("checks %d after the cap", payOf(app).checks)
	}
	if before != 40 {
		t.Fatalf("the sandbox saw %d checks, want 40", before)
	}
	// r starts a new round; 30 minutes later the order has expired.
	app.Clock.Advance(30 * time.Minute)
	app.Keys("r")
	screen := app.Screen()
	screentest.MustShow(t, screen, "EXPIRED", "check 1 of 40", "expired before it was paid", "Do not send funds to its address")
	screentest.MustNotShow(t, screen, "Still STARTED")
}

func TestOrderStalePollAnswersDroppedAfterEsc(t *testing.T) {
	app, s := newApp(t, "alice@demo.test")
	orderProduct(app, s, "Physical card")
	app.Keys("y")
	app.MustShow(t, "check 1 of 40")
	firstOrder := payOf(app).order.OrderID

	// A timer fires: run its check but hold the answer back.
	app.Clock.Advance(pollEvery)
	stale := payOf(app).nextTick()
	var cmd tea.Cmd
	app.Root, cmd = app.Root.Update(stale)
	held := uitest.Run(cmd)
	if len(held) == 0 {
		t.Fatal("the timer started no check")
	}
	// esc closes the panel (nothing in flight any more), then the answer
	// arrives: it is dropped, the list stays.
	app.Keys("esc")
	app.MustShow(t, "Selected product")
	app.Drive(held...)
	app.MustShow(t, "Selected product")
	app.MustNotShow(t, "Pay to", "check 2 of 40")
	// The old timer polls nothing.
	app.Drive(stale)
	if payOf(app) != nil || app.Deps.Requests.InFlight() != 0 {
		t.Fatal("a stale timer reopened or polled")
	}

	// A new order: an answer held from the old one's check, and the old
	// panel's timer, are dropped.
	orderProduct(app, s, "Physical card")
	app.Keys("y")
	if payOf(app) == nil || payOf(app).order.OrderID == firstOrder {
		t.Fatal("no new order")
	}
	app.Drive(held...)
	app.Drive(stale)
	app.MustShow(t, "check 1 of 40")

	// esc while a check is in flight cancels it (the root's esc); polling
	// pauses, a second esc closes.
	app.Clock.Advance(pollEvery)
	app.Root, cmd = app.Root.Update(payOf(app).nextTick())
	app.Keys("esc")
	app.Drive(uitest.Run(cmd)...)
	app.MustShow(t, "Checking stopped", "Press r to check again")
	app.Keys("esc")
	app.MustShow(t, "Selected product")
}

func TestOrderPollingGoesOnOnAnotherScreen(t *testing.T) {
	app, s := newApp(t, "nora@demo.test")
	orderProduct(app, s, "Virtual card")
	app.Keys("y")
	app.Open(screenkit.AccountScreen)
	tick(app, s)
	tick(app, s)
	if n := app.Notice(); !strings.Contains(n, "Payment received") {
		t.Fatalf("the final status is announced on any screen; notice %q", n)
	}
	app.Open(screenkit.OrdersScreen)
	app.MustShow(t, "COMPLETED", "check 3 of 40")
	// Signing out stops it all: the panel's pending timer, when it
	// fires, polls nothing, and the next user's Orders screen is a new
	// one without a panel.
	pending, order := payOf(app).nextTick(), payOf(app).order.OrderID
	polls := app.Sent("GET", "/v1/order/"+order)
	app.Drive(ui.SignedOutMsg{})
	app.Clock.Advance(pollEvery)
	app.Drive(pending)
	if n := app.Sent("GET", "/v1/order/"+order); n != polls {
		t.Fatalf("the signed-out panel polled %d times more", n-polls)
	}
	app.SignIn("nora@demo.test")
	app.Open(screenkit.OrdersScreen)
	if next := app.UI().Active().(*Screen); next == s || payOf(app) != nil {
		t.Fatal("the panel survives sign-out")
	}
}

// The payment panel's help lists exactly its keys, and the screen's own
// come back when it closes.
func TestPaymentPanelKeyMap(t *testing.T) {
	app, s := newApp(t, "nora@demo.test")
	orderProduct(app, s, "Virtual card")
	app.Keys("y")
	var keys []string
	for _, b := range payOf(app).KeyMap().ShortHelp() {
		if b.Enabled() {
			keys = append(keys, b.Help().Key)
		}
	}
	if got := strings.Join(keys, " "); got != "r y v esc" {
		t.Fatalf("the panel offers %q", got)
	}
	app.Keys("esc")
	if b := s.KeyMap().ShortHelp()[0]; b.Help().Key != "enter" {
		t.Fatalf("the list's first key is %q", b.Help().Key)
	}
}

func TestOrderPaymentGolden(t *testing.T) {
	app, s := newApp(t, "alice@demo.test")
	app.Resize(130, 44)
	orderProduct(app, s, "Virtual card")
	app.Keys("y")
	app.Golden("payment")
	tick(app, s)
	tick(app, s)
	app.MustShow(t, "COMPLETED")
	app.Keys("esc")
	app.Golden("products")
}

func TestOrderQRFallsBackToAddressWhenSmall(t *testing.T) {
	app, s := newApp(t, "alice@demo.test")
	app.Resize(80, 24)
	orderProduct(app, s, "Virtual card")
	app.Keys("y")
	screen := app.Screen()
	if strings.Contains(screen, "EIP-681") {
		t.Fatalf("the payment link QR cannot fit 80x24:\n%s", screen)
	}
	screentest.MustShow(t, screen, "Pay to", "no room for the QR code here: v shows it")
	// v shows the QR code alone: the address one fits 80x24.
	app.Keys("v")
	screen = app.Screen()
	screentest.MustShow(t, screen, "STARTED", "check 1 of 40", "QR: destination address only", "█")
	screentest.MustNotShow(t, screen, "Pay to")
	for i, l := range strings.Split(screen, "\n") {
		if w := len([]rune(l)); w > 80 {
			t.Fatalf("line %d is %d wide", i, w)
		}
	}
	// Every line of the address's QR code is on screen, in order.
	rest := screen
	for _, l := range screenkit.RenderQR(screenkit.QRBits(payOf(app).order.PaymentConfig.DestinationAddress), false) {
		i := strings.Index(rest, " "+l)
		if i < 0 {
			t.Fatalf("the address's QR code is not on screen (line %q):\n%s", l, screen)
		}
		rest = rest[i+len(l):]
	}
	app.Keys("v")
	app.MustShow(t, "Pay to")
}

func TestOrderQRTargetFallsBackToAddress(t *testing.T) {
	pc := &apiclient.PaymentConfig{PaymentAmount: "10.00", PaymentCurrency: "USD", DestinationAddress: "0x1111111111111111111111111111111111111111",
		DestinationChainID: "59141", DestinationTokenSymbol: "USDC", DestinationTokenAddress: "0x2222222222222222222222222222222222222222"}
	p := &payment{order: apiclient.Order{OrderID: "o", PaymentConfig: pc}}
	for _, c := range []struct {
		dec      *decimals
		currency string
		link     bool
		note     string
	}{
		{nil, "USD", false, "looking the token up"},
		{&decimals{why: "the chain configuration could not be read (Not authorized (403))"}, "USD", false, "could not be read"},
		{&decimals{decimals: 6, ok: true}, "EUR", false, "the amount is in EUR, not in USDC"},
		{&decimals{decimals: 6, ok: true}, "USD", true, ""},
	} {
		p.dec, pc.PaymentCurrency = c.dec, c.currency
		content, what, note := p.qrTarget()
		if c.link != strings.HasPrefix(content, "ethereum:") || (!c.link && (content != pc.DestinationAddress || what != "destination address only")) ||
			!strings.Contains(note, c.note) {
			t.Errorf("dec %+v %s: %q %q %q", c.dec, c.currency, content, what, note)
		}
	}
}

// The payment panel draws from what Update built: a key press that changes
// nothing renders nothing (the QR code least of all), while a check's answer,
// v and a resize are drawn at once.
func TestPaymentPanelDrawsFromWhatWasBuilt(t *testing.T) {
	app, s := newApp(t, "nora@demo.test")
	app.Resize(120, 40)
	orderProduct(app, s, "Virtual card")
	app.Keys("enter")
	app.MustShow(t, "check 1 of 40", "QR: payment link")
	app.Keys("down", "up")
	if allocs := testing.AllocsPerRun(20, func() { _ = payOf(app).View() }); allocs != 0 {
		t.Fatalf("drawing the built panel allocates %.0f times", allocs)
	}
	tick(app, s)
	app.MustShow(t, "check 2 of 40")
	app.Keys("v")
	app.MustShow(t, "QR: payment link")
	app.MustNotShow(t, "Pay to")
	app.Keys("v")
	app.Resize(80, 24)
	if w := widestLine(app.Screen()); w > 80 {
		t.Fatalf("a line of %d cells after resizing to 80", w)
	}
	app.MustShow(t, "Pay to")
}

// widestLine is the widest line of a frame, in cells.
func widestLine(frame string) int {
	w := 0
	for _, l := range strings.Split(frame, "\n") {
		w = max(w, ansi.StringWidth(l))
	}
	return w
}

// BenchmarkOrderPaymentKeyPress is one key press (Update + View of the whole
// frame) with the payment panel and its QR code open at 120x40.
func BenchmarkOrderPaymentKeyPress(b *testing.B) {
	app, s := newApp(b, "nora@demo.test")
	app.Resize(120, 40)
	orderProduct(app, s, "Virtual card")
	app.Keys("enter")
	if !strings.Contains(app.Screen(), "Payment") {
		b.Fatal("the payment panel is not open")
	}
	key := uitest.Key("down")
	b.ReportAllocs()
	for b.Loop() {
		app.Root, _ = app.Root.Update(key)
		_ = app.Root.View()
	}
}

// Each message once: on the Orders screen the payment panel says the
// payment arrived and the status bar does not say it again; on another
// screen the notice says it.
func TestPaymentReceivedIsSaidOnceWhereTheUserLooks(t *testing.T) {
	app, s := newApp(t, "nora@demo.test")
	orderProduct(app, s, "Virtual card")
	app.Keys("y")
	tick(app, s)
	tick(app, s)
	if c := strings.Count(app.Screen(), "Payment received"); c != 1 {
		t.Fatalf("the Orders screen says the payment arrived %d times:\n%s", c, app.Screen())
	}
	app.Open(screenkit.AccountScreen)
	app.MustShow(t, "Payment received")
}
