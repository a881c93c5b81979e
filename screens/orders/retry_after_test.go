package orders

import (
	"net/http"
	"regexp"
	"testing"
	"time"

	"cardterm/sandbox/gatewaytest"
	"cardterm/screens/screentest"
)

// The order poll keeps a gateway's Retry-After: answered 429 with
// Retry-After: 30, no check reaches the order for 30 s (its timer waits
// that long, and a timer fired early is refused without sending), and a
// refusal is not counted as one of the 40 checks.
func TestOrderPollKeepsRetryAfter(t *testing.T) {
	limited := &gatewaytest.RetryAfter{Method: http.MethodGet, Pattern: regexp.MustCompile(`^/v1/order/[0-9a-f]{8}-`), Seconds: 30}
	app, s := newApp(t, "nora@demo.test", screentest.WithGateway(func(next http.Handler) http.Handler { limited.Next = next; return limited }))
	limited.Now = app.Clock.Now
	app.Resize(120, 40)
	orderProduct(app, s, "Virtual card")
	app.Keys("enter")
	if len(limited.Hits()) != 1 {
		t.Fatalf("the first check: %d hits", len(limited.Hits()))
	}
	checks := payOf(app).checks
	for range 9 { // 27 s of early timers
		tick(app, s)
	}
	if early := limited.Early(); early != 0 {
		t.Fatalf("%d checks reached the order within its Retry-After", early)
	}
	if payOf(app).checks != checks || !payOf(app).polling {
		t.Errorf("checks %d (was %d), polling %t: a refusal counted, or the poll stopped", payOf(app).checks, checks, payOf(app).polling)
	}
	app.Clock.Advance(3 * time.Second)
	app.Drive(payOf(app).nextTick())
	if len(limited.Hits()) != 2 {
		t.Fatalf("at its time the order was not checked: %d hits", len(limited.Hits()))
	}
}
