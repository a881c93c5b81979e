package e2e

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

// waitSandbox is a sandbox on a manual clock with an order of product
// placed by user; it returns the sandbox's URL, its clock and the order.
func waitSandbox(t *testing.T, user, product string) (string, *sandbox.ManualClock, string) {
	t.Helper()
	clock := sandbox.NewManualClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	gw := httptest.NewServer(sandbox.New(sandbox.Options{Clock: clock}))
	t.Cleanup(gw.Close)
	client := apiclient.New(apiclient.Config{BaseURL: gw.URL, ClientKey: sandbox.DemoClientKey, Sandbox: true, SandboxClientID: demoClientID(t)})
	if _, err := client.Login(context.Background(), user, "demo-pass"); err != nil {
		t.Fatal(err)
	}
	order, err := client.PlaceOrder(context.Background(), product, "CRYPTO_EXTERNAL_DAIMO")
	if err != nil {
		t.Fatal(err)
	}
	return gw.URL, clock, order.OrderID
}

var aliceEnv = []string{"CARDTERM_USERNAME=alice@demo.test", "CARDTERM_PASSWORD=demo-pass"}

func TestWaitOrderExitsWithinASecondOfThePayment(t *testing.T) {
	url, clock, orderID := waitSandbox(t, "alice@demo.test", "prod_virtual_card")
	cmd := binaryCommand(t, "wait", "order", orderID, "--status", "COMPLETED", "--timeout", "30s", "--base-url", url)
	cmd.Env = append(cmd.Env, aliceEnv...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond) // it signs in and polls the unpaid order
	clock.Advance(6 * time.Second)      // the virtual card's payment arrives
	paid := time.Now()
	err := cmd.Wait()
	took := time.Since(paid)
	if err != nil || strings.TrimSpace(stdout.String()) != "COMPLETED" {
		t.Fatalf("exit %v, stdout %q, stderr %q", err, stdout.String(), stderr.String())
	}
	if took > time.Second {
		t.Fatalf("exited %s after the payment, want within 1s", took)
	}
}

func TestWaitOrderExitsOneOnTimeOutOrAFinalOtherState(t *testing.T) {
	cases := []struct {
		name, user, product, status, advance, says string
	}{
		{"time-out", "alice@demo.test", "prod_physical_card", "COMPLETED", "", "timed out after 1s: order"},
		{"final state", "frank@demo.test", "prod_metal_card", "COMPLETED", "13s", "FAILED, which is final"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url, clock, orderID := waitSandbox(t, tc.user, tc.product)
			if tc.advance != "" {
				d, _ := time.ParseDuration(tc.advance)
				clock.Advance(d)
			}
			env := []string{"CARDTERM_USERNAME=" + tc.user, "CARDTERM_PASSWORD=demo-pass"}
			_, stderr, code := sealedRun(t, env, "wait", "order", orderID, "--status", tc.status, "--timeout", "1s", "--base-url", url)
			if code != exitRefused || !strings.Contains(stderr, tc.says) {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
		})
	}
}

func TestWaitRefusesWhatCannotBeWaitedFor(t *testing.T) {
	cases := [][]string{
		{"wait", "order", "x", "--status", "PAID"},
		{"wait", "order", "--status", "COMPLETED"},
		{"wait", "card", "x", "--status", "FROZEN"},
		{"wait", "card"},
		{"wait", "parcel", "--status", "SENT"},
	}
	for _, args := range cases {
		if _, stderr, code := sealedRun(t, aliceEnv, append(args, "--base-url", "http://127.0.0.1:1")...); code != exitUsage || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}

func TestWaitWithoutAnswerOrCredentialsExitsAsEveryCommand(t *testing.T) {
	url, _, _ := waitSandbox(t, "alice@demo.test", "prod_virtual_card")
	if _, _, code := sealedRun(t, []string{"CARDTERM_USERNAME=alice@demo.test", "CARDTERM_PASSWORD=wrong"},
		"wait", "card", "--status", "FROZEN", "--base-url", url); code != exitAuth {
		t.Errorf("wrong password: exit %d, want %d", code, exitAuth)
	}
	if _, _, code := sealedRun(t, aliceEnv, "wait", "card", "--status", "FROZEN", "--client-key", sandbox.DemoClientKey, "--base-url", "http://127.0.0.1:1"); code != exitNetwork {
		t.Errorf("no gateway: exit %d, want %d", code, exitNetwork)
	}
}

// demoClientID is the demo tenant's client id, for its order endpoints.
func demoClientID(t *testing.T) string {
	t.Helper()
	cred, ok := sandbox.CredentialFor(sandbox.DemoClientKey)
	if !ok {
		t.Fatal("the sandbox has no credential for its demo client key")
	}
	return cred.ClientID
}
