package apiclient_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"cardterm/apiclient"
)

var bg = context.Background()

func linkedIDs(t *testing.T, c *apiclient.Client) []string {
	t.Helper()
	l, err := c.LinkedWallets(bg)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(l))
	for i, w := range l {
		out[i] = w.ID
		if w.Priority != i+1 {
			t.Fatalf("priority %d at position %d", w.Priority, i)
		}
	}
	return out
}

func TestWalletsReadAlice(t *testing.T) {
	_, c := signedIn(t, "alice@demo.test")
	in, err := c.InternalWallets(bg)
	if err != nil || len(in) != 3 || in[0].Currency != "usdc" || in[0].Balance != "1250.50" || in[0].AddressID == "" {
		t.Fatalf("internal %+v %v", in, err)
	}
	if got := linkedIDs(t, c); len(got) != 1 || got[0] != in[0].ID {
		t.Fatalf("linked %v", got)
	}
	ext, err := c.ExternalWallets(bg)
	if err != nil || len(ext) != 1 || ext[0].Spendable() != "150.00" {
		t.Fatalf("external %+v %v", ext, err)
	}
	cw, err := c.CreditWallet(bg)
	if err != nil || cw.Balance != "500.00" || !cw.IsWithdrawable {
		t.Fatalf("credit %+v %v", cw, err)
	}
	est, err := c.WithdrawEstimation(bg)
	if err != nil || est.USDC != "0.45" || est.ETH == "" || est.Wei == "" {
		t.Fatalf("estimation %+v %v", est, err)
	}
}

func TestCreditWalletMissingIs404(t *testing.T) {
	_, c := signedIn(t, "nora@demo.test")
	if _, err := c.CreditWallet(bg); !apiclient.IsNotFound(err) {
		t.Fatalf("nora credit: %v", err)
	}
	_, c = signedIn(t, "umar@demo.test")
	if _, err := c.InternalWallets(bg); !apiclient.IsStatus(err, 403) {
		t.Fatalf("unverified: %v", err)
	}
}

func TestLinkLimitAndUnlink(t *testing.T) {
	_, c := signedIn(t, "lena@demo.test")
	in, _ := c.InternalWallets(bg)
	if len(in) != 6 || len(linkedIDs(t, c)) != 5 {
		t.Fatalf("lena seed: %d internal", len(in))
	}
	sixth := in[5]
	err := c.LinkWallet(bg, sixth.AddressID)
	wantErrSub(t, err, 400, "A maximum of 5 wallets can be linked")
	if err := c.UnlinkWallet(bg, in[1].AddressID); err != nil {
		t.Fatal(err)
	}
	wantErrSub(t, c.UnlinkWallet(bg, in[1].AddressID), 404, "not linked")
	if err := c.LinkWallet(bg, sixth.AddressID); err != nil {
		t.Fatal(err)
	}
	got := linkedIDs(t, c)
	if len(got) != 5 || got[4] != sixth.ID || got[1] != in[2].ID {
		t.Fatalf("after relink %v", got)
	}
	wantErrSub(t, c.LinkWallet(bg, sixth.AddressID), 400, "already linked")
	wantErrSub(t, c.LinkWallet(bg, "nope"), 404, "Wallet not found")
	wantErrSub(t, c.LinkWallet(bg, ""), 422, "addressId is required")
}

func TestReorderLinkedWallets(t *testing.T) {
	_, c := signedIn(t, "lena@demo.test")
	in, _ := c.InternalWallets(bg)
	cur := []string{in[0].AddressID, in[1].AddressID, in[2].AddressID, in[3].AddressID, in[4].AddressID}
	want := []string{in[0].AddressID, in[2].AddressID, in[1].AddressID, in[3].AddressID, in[4].AddressID}
	if err := c.ReorderLinkedWallets(bg, cur, want); err != nil {
		t.Fatal(err)
	}
	got := linkedIDs(t, c)
	exp := []string{in[0].ID, in[2].ID, in[1].ID, in[3].ID, in[4].ID}
	if strings.Join(got, ",") != strings.Join(exp, ",") {
		t.Fatalf("order %v want %v", got, exp)
	}
	if err := c.ReorderLinkedWallets(bg, cur, cur[:4]); err == nil {
		t.Fatal("mismatched sets accepted")
	}
}

func TestWithdrawRules(t *testing.T) {
	g, c := signedIn(t, "alice@demo.test")
	res, err := c.Withdraw(bg, "100")
	if err != nil || !strings.HasPrefix(res.TxHash, "0x") || len(res.TxHash) != 66 {
		t.Fatalf("withdraw %+v %v", res, err)
	}
	// The same request on a fresh sandbox gives the same hash.
	_, c2 := signedIn(t, "alice@demo.test")
	if res2, _ := c2.Withdraw(bg, "100"); res2.TxHash != res.TxHash {
		t.Fatalf("tx hash not deterministic: %s vs %s", res.TxHash, res2.TxHash)
	}
	if cw, _ := c.CreditWallet(bg); cw.Balance != "400.00" {
		t.Fatalf("balance after %s", cw.Balance)
	}
	wantErrSub(t, firstErr(c.Withdraw(bg, "10")), 409, "already in progress")
	g.clock.Advance(6 * time.Second)
	wantErrSub(t, firstErr(c.Withdraw(bg, "400.01")), 400, "Insufficient balance")
	wantErrSub(t, firstErr(c.Withdraw(bg, "0.40")), 422, "Invalid amount")
	if _, err := c.Withdraw(bg, "1e3"); err == nil || !strings.Contains(err.Error(), "invalid amount") {
		t.Fatalf("client let 1e3 through: %v", err)
	}
	if _, err := c.Withdraw(bg, "400"); err != nil {
		t.Fatalf("the whole balance (received = amount - fee): %v", err)
	}
	hist, err := c.WalletHistory(bg, apiclient.HistoryQuery{WalletID: mustCredit(t, c).ID, WalletType: "credit"})
	if err != nil || len(hist) != 3 || hist[0].Amount != "400.00" || hist[0].Sign != "DEBIT" || !strings.Contains(hist[0].Name, "receives 399.55") {
		t.Fatalf("history %+v %v", hist, err)
	}

	_, frank := signedIn(t, "frank@demo.test")
	wantErrSub(t, firstErr(frank.Withdraw(bg, "10")), 400, "No external wallet")
	_, bruno := signedIn(t, "bruno@demo.test")
	wantErrSub(t, firstErr(bruno.Withdraw(bg, "10")), 403, "Withdrawal not allowed")
	_, nora := signedIn(t, "nora@demo.test")
	wantErrSub(t, firstErr(nora.Withdraw(bg, "10")), 404, "Credit wallet not found")
}

func mustCredit(t *testing.T, c *apiclient.Client) apiclient.CreditWallet {
	t.Helper()
	cw, err := c.CreditWallet(bg)
	if err != nil {
		t.Fatal(err)
	}
	return cw
}

func firstErr[T any](_ T, err error) error { return err }

func TestWalletHistoryPages(t *testing.T) {
	_, c := signedIn(t, "alice@demo.test")
	in, _ := c.InternalWallets(bg)
	q := apiclient.HistoryQuery{WalletID: in[0].AddressID, WalletType: "internal", WalletCurrency: "usdc"}
	var sizes []int
	for p := 0; p < 4; p++ {
		q.Page = p
		items, err := c.WalletHistory(bg, q)
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, len(items))
	}
	if sizes[0] != 10 || sizes[1] != 10 || sizes[2] != 3 || sizes[3] != 0 {
		t.Fatalf("page sizes %v", sizes)
	}
	_, err := c.WalletHistory(bg, apiclient.HistoryQuery{WalletID: "nope"})
	wantErrSub(t, err, 404, "Wallet not found")
	_, err = c.WalletHistory(bg, apiclient.HistoryQuery{})
	wantErrSub(t, err, 422, "walletId is required")
}

func TestDecimalHelpers(t *testing.T) {
	for _, tc := range []struct{ a, b, sum, diff string }{
		{"100", "0.45", "100.45", "99.55"},
		{"0.1", "0.2", "0.30", "-0.10"},
		{"1250.50", "1250.5", "2501.00", "0.00"},
		{"0.000001", "0.00015", "0.000151", "-0.000149"},
	} {
		if s, _ := apiclient.AddDecimal(tc.a, tc.b); s != tc.sum {
			t.Errorf("%s+%s = %s, want %s", tc.a, tc.b, s, tc.sum)
		}
		if d, _ := apiclient.SubDecimal(tc.a, tc.b); d != tc.diff {
			t.Errorf("%s-%s = %s, want %s", tc.a, tc.b, d, tc.diff)
		}
	}
	if c, _ := apiclient.CompareDecimal("10.00", "9.999999"); c != 1 {
		t.Error("compare")
	}
	if _, err := apiclient.CompareDecimal("1e3", "1"); err == nil {
		t.Error("1e3 accepted")
	}
	w := apiclient.ExternalWallet{Balance: "12", Allowance: "100"}
	if w.Spendable() != "12" {
		t.Errorf("spendable %s", w.Spendable())
	}
}
