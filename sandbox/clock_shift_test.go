package sandbox

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// moveClock posts one move to POST /sandbox/clock.
func moveClock(t *testing.T, e *env, move map[string]any) resp {
	t.Helper()
	r := e.do("POST", "/sandbox/clock", secretHdr(), move)
	want(t, r, http.StatusOK, "")
	return r
}

func TestClockShiftExpiresTokensAndAnnouncesItsTime(t *testing.T) {
	e := newEnv(t, Options{})
	access, refresh := e.login("alice@demo.test")
	if r := e.do("GET", "/v1/user", bearer(access), nil); r.Header.Get(ShiftHeader) != "" {
		t.Fatalf("an unshifted sandbox announces %q", r.Header.Get(ShiftHeader))
	}
	r := moveClock(t, e, map[string]any{"advance": "+7h"})
	if r.str("shift") != "7h0m0s" || r.JSON["shifted"] != true || r.str("now") != t0.Add(7*time.Hour).Format(time.RFC3339) {
		t.Fatalf("clock after +7h: %s", r.Raw)
	}
	user := e.do("GET", "/v1/user", bearer(access), nil)
	want(t, user, http.StatusUnauthorized, "")
	if user.Header.Get(ShiftHeader) != t0.Add(7*time.Hour).Format(time.RFC3339) {
		t.Fatalf("%s: %q", ShiftHeader, user.Header.Get(ShiftHeader))
	}
	renewed := e.do("POST", "/v1/auth/oauth/token", secretHdr(), map[string]string{"grant_type": "refresh_token", "refresh_token": refresh})
	want(t, renewed, http.StatusOK, "")
	want(t, e.do("GET", "/v1/user", bearer(renewed.str("access_token")), nil), http.StatusOK, "")

	moveClock(t, e, map[string]any{"advance": "185d"})
	again := e.do("POST", "/v1/auth/oauth/token", secretHdr(), map[string]string{"grant_type": "refresh_token", "refresh_token": renewed.str("refresh_token")})
	if again.Status != http.StatusUnauthorized && again.Status != http.StatusBadRequest {
		t.Fatalf("a 185-day-old refresh token still works: %d %s", again.Status, again.Raw)
	}
	reset := moveClock(t, e, map[string]any{"reset": true})
	if reset.JSON["shifted"] != false || reset.str("now") != t0.Format(time.RFC3339) {
		t.Fatalf("reset: %s", reset.Raw)
	}
	set := moveClock(t, e, map[string]any{"set": "2027-01-31T09:00:00Z"})
	if set.str("now") != "2027-01-31T09:00:00Z" {
		t.Fatalf("set: %s", set.Raw)
	}
}

func TestClockMovesAreCheckedAndNeedTheSecretKey(t *testing.T) {
	e := newEnv(t, Options{})
	for _, move := range []map[string]any{{}, {"advance": "-1h"}, {"advance": "soon"}, {"advance": "7h", "reset": true},
		{"set": "tomorrow"}, {"advance": "4000d"}} {
		if r := e.do("POST", "/sandbox/clock", secretHdr(), move); r.Status != http.StatusBadRequest || r.str("message") == "" {
			t.Errorf("%v: %d %s", move, r.Status, r.Raw)
		}
	}
	if r := e.do("POST", "/sandbox/clock", ck(), map[string]any{"advance": "1h"}); r.Status != http.StatusUnauthorized && r.Status != http.StatusForbidden {
		t.Fatalf("without the secret key: %d %s", r.Status, r.Raw)
	}
	if e.s.Shift() != 0 {
		t.Fatal("a refused move moved the clock")
	}
}

func TestClockExpiresUnpaidOrders(t *testing.T) {
	e := newEnv(t, Options{})
	alice, _ := e.login("alice@demo.test")
	orderHdr := hdr("X-Client-ID", DemoClientKey, "Authorization", "Bearer "+alice)
	created := e.do("POST", "/v1/order", orderHdr, map[string]string{"productId": "prod_physical_card", "paymentMethod": "CRYPTO_EXTERNAL_DAIMO"})
	want(t, created, http.StatusOK, "")
	lookup := func() string {
		r := e.do("GET", "/v1/order/"+created.str("orderId"), orderHdr, nil)
		want(t, r, http.StatusOK, "")
		return r.str("status")
	}
	if got := lookup(); got != ordStarted {
		t.Fatalf("a new order is %s", got)
	}
	moveClock(t, e, map[string]any{"advance": "31m"})
	if got := lookup(); got != ordExpired {
		t.Fatalf("31 minutes later the unpaid order is %s, want %s", got, ordExpired)
	}
}

func TestClockExpiresAPendingAuthorizationIntoAReversal(t *testing.T) {
	e := newEnv(t, Options{})
	rc := newLoopbackReceiver(t)
	alice, _ := e.login("alice@demo.test")
	_, key := subscribe(t, e, alice, rc.srv.URL+"/hooks", WebhookEventTransactionAuthorized, WebhookEventTransactionReversed)
	auth := simulate(e, map[string]any{"type": "authorization", "user": "alice@demo.test", "amount": "40.00", "currency": "EUR"})
	want(t, auth, http.StatusOK, "")
	authID := auth.JSON["transaction"].(map[string]any)["id"].(string)

	if r := moveClock(t, e, map[string]any{"advance": "6d"}); r.JSON["reversed"] != nil {
		t.Fatalf("expired after 6 days: %s", r.Raw)
	}
	r := moveClock(t, e, map[string]any{"advance": "2d"})
	if list, _ := r.JSON["reversed"].([]any); len(list) != 1 || list[0] != authID {
		t.Fatalf("after 8 days: %s", r.Raw)
	}
	got := rc.collect(t, key, 2)
	reversal := got[WebhookEventTransactionReversed]
	if len(reversal) != 1 || reversal[0].EventObject["authorizationId"] != authID || reversal[0].EventObject["transactionAmount"] != "40.00" ||
		reversal[0].EventObject["reversalReason"] != reasonExpired || reversal[0].EventObject["sign"] != "CREDIT" {
		t.Fatalf("reversal event: %+v", reversal)
	}
	list := firstTransactions(t, e, mustLogin(e))
	if list[0]["transactionType"] != transactionReversal || list[1]["id"] != authID || list[1]["status"] != "REVERTED" {
		t.Fatalf("transactions: %v / %v", list[0], list[1])
	}
}

// mustLogin signs alice in again (a clock move may have expired her token).
func mustLogin(e *env) string {
	access, _ := e.login("alice@demo.test")
	return access
}

func TestClockShiftSurvivesARestart(t *testing.T) {
	dir := t.TempDir()
	st := openTestStore(t, dir)
	e := newEnv(t, Options{Store: st})
	moveClock(t, e, map[string]any{"advance": "185d"})
	e.s.Close()
	st.Close()

	st2 := openTestStore(t, dir)
	again := New(Options{Store: st2, Clock: NewManualClock(t0)})
	if again.Shift() != 185*24*time.Hour {
		t.Fatalf("shift after a restart: %v", again.Shift())
	}
	again.SetShift(0)
	again.Close()
	st2.Close()
	if third := New(Options{Store: openTestStore(t, dir)}); third.Shift() != 0 {
		t.Fatalf("a reset clock comes back shifted %v", third.Shift())
	}
}

// The 10-minute links and tokens expire when the sandbox clock, not a
// test clock, moves past them.
func TestClockExpiresPINLinksAndDelegationTokens(t *testing.T) {
	e := newEnv(t, Options{})
	alice, _ := e.login("alice@demo.test")
	pin := e.do("POST", "/v1/card/set-pin/token", bearer(alice), nil)
	delegation := e.do("GET", tokenPath(""), bearer(alice), nil)
	moveClock(t, e, map[string]any{"advance": "11m"})
	late := e.do("GET", strings.TrimPrefix(pin.str("hostedPageUrl"), e.ts.URL), nil, nil)
	if late.Status != http.StatusGone || !strings.Contains(string(late.Raw), "expired") {
		t.Fatalf("the PIN link 11 minutes on: %d %.200s", late.Status, late.Raw)
	}
	want(t, e.do("POST", "/v1/delegation/evm/post-approval", bearer(alice), approval(delegation)), 400, "Delegation token expired: request a new one")
}

func TestClockStepsAreReadWithTheRightReason(t *testing.T) {
	for _, tc := range []struct{ step, reason string }{
		{"+7h", ""},
		{"185d", ""},
		{"3660d", ""},
		{"+999999d", "is too large: one step is at most 3660d (ten years)"},
		{"+99999999999999999999d", "is too large"},
		{"+9999999999h", "is too large"},
		{"87840h1s", "is too large"},
		{"3661d", "is too large"},
		{"-1h", "must move forward"},
		{"0d", "must move forward"},
		{"-99999999999999999999d", "must move forward"},
		{"-9999999999h", "must move forward"},
		{"soon", "must be a step forward"},
		{"d", "must be a step forward"},
		{"", "must be a step forward"},
	} {
		_, err := ParseClockStep(tc.step)
		switch {
		case tc.reason == "" && err != nil:
			t.Errorf("%q: %v", tc.step, err)
		case tc.reason != "" && (err == nil || !strings.Contains(err.Error(), tc.reason)):
			t.Errorf("%q: %v, want %q", tc.step, err, tc.reason)
		}
	}
}

func TestClockRefusesAShiftBeyondTenYearsAsTooLarge(t *testing.T) {
	e := newEnv(t, Options{})
	for _, tc := range []struct {
		move   map[string]any
		reason string
	}{
		{map[string]any{"set": "9999-01-01T00:00:00Z"}, "too far from the wall clock: the sandbox's time stays within 3660d (ten years) of it, from 2016-02-22T12:00:00Z to 2036-03-08T12:00:00Z"},
		{map[string]any{"set": "0001-01-01T00:00:00Z"}, "too far from the wall clock"},
		{map[string]any{"advance": "+999999d"}, "is too large: one step is at most 3660d (ten years)"},
	} {
		r := e.do("POST", "/sandbox/clock", secretHdr(), tc.move)
		if r.Status != http.StatusBadRequest || !strings.Contains(r.str("message"), tc.reason) {
			t.Errorf("%v: %d %s, want %q", tc.move, r.Status, r.Raw, tc.reason)
		}
	}
	moveClock(t, e, map[string]any{"advance": "3000d"})
	r := e.do("POST", "/sandbox/clock", secretHdr(), map[string]any{"advance": "3000d"})
	if r.Status != http.StatusBadRequest || !strings.Contains(r.str("message"), "is too large: the sandbox's time stays within 3660d (ten years) of the wall clock, and it is already 3000d ahead") {
		t.Errorf("a sum of steps past ten years: %d %s", r.Status, r.Raw)
	}
	if e.s.Shift() != 3000*24*time.Hour {
		t.Fatalf("a refused move moved the clock: %s", e.s.Shift())
	}
}
