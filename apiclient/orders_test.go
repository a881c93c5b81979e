package apiclient

import (
	"context"
	"strings"
	"testing"
)

func signedInClient(rec *recorder, mod ...func(*Config)) *Client {
	c := testClient(rec, mod...)
	c.SetSession(Session{AccessToken: "at-1", Username: "alice", ExpiresAt: t0.Add(6 * 3600e9)})
	return c
}

func TestOrderHeadersUseClientID(t *testing.T) {
	rec := newRecorder(t)
	rec.json("GET /v1/order/products/available", 200, `[{"id":"p1","description":"Virtual","isEligible":true,"ineligibleReason":""}]`)
	c := signedInClient(rec, func(cfg *Config) { cfg.ClientID = "acme-sandbox"; cfg.US = true })
	ps, err := c.Products(context.Background())
	if err != nil || len(ps) != 1 || ps[0].ID != "p1" || !ps[0].IsEligible {
		t.Fatalf("products %+v, %v", ps, err)
	}
	h := rec.last().Header
	if h.Get("X-Client-ID") != "acme-sandbox" || h.Get("x-client-key") != "" || h.Get("Authorization") != "Bearer at-1" || h.Get("x-us-env") != "true" {
		t.Fatalf("order headers: %v", h)
	}
	// Without a client id nothing is sent: the client key is no guess
	// for it (a gateway answers 498), and the error names the setting.
	sent := len(rec.requests())
	c2 := signedInClient(rec, func(cfg *Config) { cfg.ClientID = "" })
	_, err = c2.Products(context.Background())
	if !IsSettingError(err) || !strings.Contains(ErrorMessage(err), "--client-id") {
		t.Fatalf("products without a client id: %v; want the setting named", err)
	}
	if len(rec.requests()) != sent {
		t.Fatal("a request was sent without X-Client-ID")
	}
}

func TestPlaceOrderBodyAndExactAmount(t *testing.T) {
	rec := newRecorder(t)
	rec.json("POST /v1/order", 200, `{"requestId":"r1","orderId":"o1","paymentConfig":{"paymentAmount":12345678901234567890.123456789,
		"paymentCurrency":"USD","destinationAddress":"0x1111111111111111111111111111111111111111","destinationChainId":"59144",
		"destinationTokenSymbol":"USDC","destinationTokenAddress":"0x2222222222222222222222222222222222222222","memo":"x"}}`)
	c := signedInClient(rec)
	o, err := c.PlaceOrder(context.Background(), "p1", "")
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.last().Body; got != `{"productId":"p1","paymentMethod":"CRYPTO_EXTERNAL_DAIMO"}` || got != string(PlaceOrderCall("p1", "").Body()) {
		t.Fatalf("body %s", got)
	}
	if ct := rec.last().Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q", ct)
	}
	pc := o.PaymentConfig
	if o.OrderID != "o1" || o.RequestID != "r1" || pc == nil || pc.PaymentAmount != "12345678901234567890.123456789" {
		t.Fatalf("order %+v / %+v", o, pc)
	}
	if string(pc.Extra["memo"]) != `"x"` {
		t.Fatalf("unknown fields are kept: %v", pc.Extra)
	}
}

func TestPlaceOrderWithoutPaymentConfigOrID(t *testing.T) {
	rec := newRecorder(t)
	rec.json("POST /v1/order", 200, `{"requestId":"r1","orderId":"o1"}`)
	c := signedInClient(rec)
	o, err := c.PlaceOrder(context.Background(), "p1", PaymentMethodDaimo)
	if err != nil || o.PaymentConfig != nil {
		t.Fatalf("paymentConfig is optional: %+v, %v", o, err)
	}
	rec.json("POST /v1/order", 200, `{"requestId":"r1"}`)
	if _, err := c.PlaceOrder(context.Background(), "p1", PaymentMethodDaimo); err == nil || !strings.Contains(err.Error(), "order id") {
		t.Fatalf("an order without orderId must fail: %v", err)
	}
	if _, err := c.PlaceOrder(context.Background(), " ", PaymentMethodDaimo); err == nil {
		t.Fatal("an empty product id must be refused before sending")
	}
	if n := rec.count("POST", "/v1/order"); n != 2 {
		t.Fatalf("%d requests sent, want 2", n)
	}
}

func TestPlaceOrder422AndNotRetried(t *testing.T) {
	rec := newRecorder(t)
	rec.json("POST /v1/order", 422, `{"message":"Unsupported paymentMethod"}`)
	c := signedInClient(rec)
	_, err := c.PlaceOrder(context.Background(), "p1", "CRYPTO_EXTERNAL_NOPE")
	if !IsStatus(err, 422) || ErrorMessage(err) != "Unsupported paymentMethod (422)" {
		t.Fatalf("422: %v", err)
	}
	rec.json("POST /v1/order", 429, `{"message":"slow down"}`)
	if _, err := c.PlaceOrder(context.Background(), "p1", ""); !IsStatus(err, 429) || rec.count("POST", "/v1/order") != 2 {
		t.Fatalf("a 429 on an order is not retried: %v", err)
	}
}

func TestOrderStatusTolerant(t *testing.T) {
	rec := newRecorder(t)
	rec.json("GET /v1/order/o 1", 200, `{"requestId":"r1","orderId":"o 1","status":"SETTLING","paidAt":null,"metadata":{"a":1},"x":true}`)
	c := signedInClient(rec)
	s, err := c.OrderStatus(context.Background(), "o 1")
	if err != nil {
		t.Fatal(err)
	}
	if rec.last().Path != "/v1/order/o 1" || rec.last().Header.Get("X-Client-ID") != "cid_test" {
		t.Fatalf("request %+v", rec.last())
	}
	if s.Status != "SETTLING" || s.Final() || s.PaidAt != nil || string(s.Metadata["a"]) != "1" || string(s.Extra["x"]) != "true" {
		t.Fatalf("status %+v", s)
	}
	rec.json("GET /v1/order/o 1", 200, `{"requestId":"r1","orderId":"o 1","status":"COMPLETED","paidAt":"2030-06-01T12:00:06Z","metadata":"odd"}`)
	s, err = c.OrderStatus(context.Background(), "o 1")
	if err != nil || !s.Final() || s.PaidAt == nil || s.Metadata != nil || string(s.Extra["metadata"]) != `"odd"` {
		t.Fatalf("status %+v, %v", s, err)
	}
	rec.json("GET /v1/order/o 1", 404, `{"message":"Order not found"}`)
	if _, err := c.OrderStatus(context.Background(), "o 1"); !IsNotFound(err) {
		t.Fatalf("404: %v", err)
	}
	if _, err := c.OrderStatus(context.Background(), ""); err == nil {
		t.Fatal("an empty order id must be refused before sending")
	}
}

func TestOrderStatusFinal(t *testing.T) {
	for s, want := range map[string]bool{"STARTED": false, "PENDING": false, "COMPLETED": true, "FAILED": true,
		"EXPIRED": true, "REFUNDED": true, "": false, "WHATEVER": false} {
		if OrderStatusFinal(s) != want {
			t.Errorf("OrderStatusFinal(%q) = %v", s, !want)
		}
	}
}

func TestTokenBaseUnits(t *testing.T) {
	for _, c := range []struct {
		amount string
		dec    int
		want   string
		bad    bool
	}{
		{"10", 6, "10000000", false},
		{"10.00", 6, "10000000", false},
		{"24.90", 6, "24900000", false},
		{"0.000001", 6, "1", false},
		{"0.0000010", 6, "1", false},
		{"0", 18, "0", false},
		{"149", 0, "149", false},
		{"1.5", 18, "1500000000000000000", false},
		{"12345678901234567890.123456789", 18, "12345678901234567890123456789000000000", false},
		{"0.0000001", 6, "", true},
		{"-1", 6, "", true},
		{"1e3", 6, "", true},
		{"", 6, "", true},
		{"1.", 6, "", true},
		{"1", -1, "", true},
	} {
		got, err := TokenBaseUnits(Decimal(c.amount), c.dec)
		if (err != nil) != c.bad || got != c.want {
			t.Errorf("TokenBaseUnits(%q, %d) = %q, %v; want %q (error %v)", c.amount, c.dec, got, err, c.want, c.bad)
		}
	}
}

func TestTransferURI(t *testing.T) {
	pc := PaymentConfig{PaymentAmount: "24.90", PaymentCurrency: "USD", DestinationAddress: "0x1111111111111111111111111111111111111111",
		DestinationChainID: "59144", DestinationTokenSymbol: "USDC", DestinationTokenAddress: "0x176211869cA2b568f2A7D4EE941E073a821EE1ff"}
	got, err := pc.TransferURI(6)
	want := "ethereum:0x176211869cA2b568f2A7D4EE941E073a821EE1ff@59144/transfer?address=0x1111111111111111111111111111111111111111&uint256=24900000"
	if err != nil || got != want {
		t.Fatalf("TransferURI = %q, %v\nwant %q", got, err, want)
	}
	bad := pc
	bad.DestinationChainID = "linea"
	if _, err := bad.TransferURI(6); err == nil {
		t.Error("a chain id that is not a number must fail")
	}
	bad = pc
	bad.DestinationTokenAddress = "usdc"
	if _, err := bad.TransferURI(6); err == nil {
		t.Error("a token that is not an address must fail")
	}
	bad = pc
	bad.PaymentAmount = "0.0000001"
	if _, err := bad.TransferURI(6); err == nil {
		t.Error("an amount finer than the token's decimals must fail")
	}
}
