package apiclient_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

func TestWhitelistCurrencyRequired(t *testing.T) {
	g, c := signedIn(t, "alice@demo.test")
	if _, err := c.Whitelist(bg, ""); err == nil {
		t.Fatal("empty currency sent")
	}
	// What the gateway says without one (raw request, bypassing the check).
	r := rawGET(t, g, c, "/v1/wallet/whitelist")
	if r.status != 422 || !contains(r.body, "currency parameter is required") {
		t.Fatalf("no currency: %d %s", r.status, r.body)
	}
	usdc, err := c.Whitelist(bg, "USDC")
	if err != nil || len(usdc) != 2 || usdc[0].Name != "Savings" || usdc[0].LastUsedAt == nil || usdc[1].LastUsedAt != nil {
		t.Fatalf("usdc %+v %v", usdc, err)
	}
	xrp, err := c.Whitelist(bg, "xrp")
	if err != nil || len(xrp) != 1 || xrp[0].WalletMemo == nil || *xrp[0].WalletMemo != "123456" {
		t.Fatalf("xrp %+v %v", xrp, err)
	}
	_, err = c.Whitelist(bg, "doge")
	wantErrSub(t, err, 422, "Unsupported currency")
}

func TestWhitelistAddAndDelete(t *testing.T) {
	_, c := signedIn(t, "alice@demo.test")
	add := []apiclient.NewWhitelistEntry{
		{Currency: "usdc", Name: "Rent", BeneficiaryFirstName: "Ann", BeneficiaryLastName: "Lee", WalletAddress: "0x00000000219ab540356cBB839Cbe05303d7705Fa"},
		{Currency: "usdc", Name: "Gym", BeneficiaryFirstName: "Bo", BeneficiaryLastName: "Ek", WalletAddress: "0xBE0eB53F46cd790Cd13851d5EFf43D12404d33E8"},
	}
	if err := c.AddWhitelist(bg, add); err != nil {
		t.Fatal(err)
	}
	list, _ := c.Whitelist(bg, "usdc")
	if len(list) != 4 || list[2].Name != "Rent" || list[3].Name != "Gym" || list[3].CreatedAt == "" {
		t.Fatalf("after add %+v", list)
	}
	// A duplicate and a bad address: all or nothing, the entry is named.
	bad := []apiclient.NewWhitelistEntry{
		{Currency: "usdc", Name: "Ok", BeneficiaryFirstName: "A", BeneficiaryLastName: "B", WalletAddress: "0x1111111111111111111111111111111111111111"},
		{Currency: "usdc", Name: "Dup", BeneficiaryFirstName: "A", BeneficiaryLastName: "B", WalletAddress: add[0].WalletAddress},
	}
	err := c.AddWhitelist(bg, bad)
	wantErrSub(t, err, 422, "already whitelisted")
	if i, ok := apiclient.WhitelistErrorEntry(err); !ok || i != 1 {
		t.Fatalf("entry of the error: %d %v (%v)", i, ok, err)
	}
	bad[1].WalletAddress = "0x123"
	err = c.AddWhitelist(bg, bad)
	wantErrSub(t, err, 422, "Invalid address format")
	xrpNoMemo := []apiclient.NewWhitelistEntry{{Currency: "xrp", Name: "X", BeneficiaryFirstName: "A", BeneficiaryLastName: "B", WalletAddress: "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh"}}
	err = c.AddWhitelist(bg, xrpNoMemo)
	wantErrSub(t, err, 422, "walletMemo is required for xrp")
	if i, ok := apiclient.WhitelistErrorEntry(err); !ok || i != 0 {
		t.Fatalf("entry %d %v", i, ok)
	}
	if list2, _ := c.Whitelist(bg, "usdc"); len(list2) != 4 {
		t.Fatalf("a refused request added %d", len(list2)-4)
	}

	wantErrSub(t, c.DeleteWhitelist(bg, []string{list[2].ID, "nope"}), 422, "Invalid wallet id")
	if err := c.DeleteWhitelist(bg, []string{list[2].ID, list[3].ID}); err != nil {
		t.Fatal(err)
	}
	if list3, _ := c.Whitelist(bg, "usdc"); len(list3) != 2 {
		t.Fatalf("after delete %d", len(list3))
	}
}

// wantErrSub checks an *apiclient.Error's status and that its message
// contains sub.
func wantErrSub(t *testing.T, err error, status int, sub string) {
	t.Helper()
	var e *apiclient.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T), want *apiclient.Error %d", err, err, status)
	}
	if e.Status != status || !strings.Contains(e.Message, sub) {
		t.Fatalf("err = %d %q, want %d containing %q", e.Status, e.Message, status, sub)
	}
}

type rawResp struct {
	status int
	body   string
}

// rawGET sends a GET the client would refuse to build, with c's token.
func rawGET(t *testing.T, g *gateway, c *apiclient.Client, path string) rawResp {
	t.Helper()
	req, _ := http.NewRequest("GET", g.url+path, nil)
	req.Header.Set("x-client-key", sandbox.DemoClientKey)
	req.Header.Set("Authorization", "Bearer "+c.Session().AccessToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return rawResp{resp.StatusCode, string(b)}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
