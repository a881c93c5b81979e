package apiclient_test

import (
	"context"
	"net/http/httptest"
	"slices"
	"testing"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

func TestSimulatedEventTypesAreTheSandboxs(t *testing.T) {
	if !slices.Equal(apiclient.SandboxSimulatedEventTypes, sandbox.SimulatedEventTypes) {
		t.Fatalf("apiclient %v, sandbox %v", apiclient.SandboxSimulatedEventTypes, sandbox.SimulatedEventTypes)
	}
}

func TestSandboxSimulateOverHTTP(t *testing.T) {
	gw := httptest.NewServer(sandbox.New(sandbox.Options{}))
	defer gw.Close()
	client := apiclient.New(apiclient.Config{BaseURL: gw.URL, ClientKey: sandbox.DemoClientKey, SecretKey: sandbox.DemoSecretKey})
	ctx := context.Background()
	res, err := client.SandboxSimulate(ctx, apiclient.SimulateRequest{Type: "Authorization", User: "alice@demo.test", Amount: "7.10", Merchant: "Kiosk"})
	if err != nil || res.Transaction.Status != "PENDING" || res.EventType != "transaction.authorized" || len(res.Transaction.Raw) == 0 {
		t.Fatalf("%+v %v", res, err)
	}
	res, err = client.SandboxSimulate(ctx, apiclient.SimulateRequest{Type: "clearing", User: "alice@demo.test"})
	if err != nil || res.Transaction.AuthorizationID == "" || res.Authorization == nil || res.Authorization.Status != "CONFIRMED" {
		t.Fatalf("%+v %v", res, err)
	}
	if _, err := client.SandboxSimulate(ctx, apiclient.SimulateRequest{Type: "capture"}); err == nil {
		t.Fatal("an unknown step was sent")
	}
}

func TestTransactionFilterPathIsWhatTransactionsSends(t *testing.T) {
	f := apiclient.TransactionFilter{SearchKey: "coffee shop", MCCCategories: []string{"RESTAURANTS"}, Page: 2}
	if got := f.Path(); got != "/v1/card/transactions?mccCategories=RESTAURANTS&page=2&searchKey=coffee+shop" {
		t.Fatalf("path %q", got)
	}
	if got := (apiclient.TransactionFilter{}).Path(); got != "/v1/card/transactions?page=0" {
		t.Fatalf("path %q", got)
	}
}
