package screens

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

const (
	addrA = "0x00000000219ab540356cBB839Cbe05303d7705Fa"
	addrB = "0xBE0eB53F46cd790Cd13851d5EFf43D12404d33E8"
)

// fillEntry types one entry's fields, starting on its Name field.
func (a *testApp) fillEntry(name, first, last, addr string) {
	a.t.Helper()
	a.typeText(name)
	a.keys("tab")
	a.typeText(first)
	a.keys("tab")
	a.typeText(last)
	a.keys("tab")
	a.typeText(addr)
}

func TestWhitelistListsAndPicksCurrency(t *testing.T) {
	a := newWalletApp(t, "alice@demo.test", false)
	a.keys("5")
	mustShow(t, a.screen(), "USDC", "2 approved withdrawal addresses", "Savings", "Alice Martin", "2025-03-02", "never")
	a.keys("c")
	mustShow(t, a.screen(), "Pick a currency", "XRP  (memo/tag required)")
	for range 8 {
		a.keys("j")
	}
	a.keys("enter")
	mustShow(t, a.screen(), "XRP", "Exchange dep", "rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe", "123456")
}

func TestWhitelistAddTwoThenDelete(t *testing.T) {
	a := newWalletApp(t, "alice@demo.test", false)
	a.keys("5", "a")
	a.fillEntry("Rent", "Ann", "Lee", "0x123")
	a.keys("ctrl+n")
	a.fillEntry("Gym", "Bo", "Ek", addrB)
	a.keys("ctrl+s")
	s := a.screen()
	mustShow(t, s, "Fix the marked fields", "✗ Entry 1", "invalid address format", "Rent", "Gym")
	// Fix entry 1 (the focus went to its address).
	a.keys("ctrl+u")
	a.typeText(addrA)
	a.keys("ctrl+s")
	s = a.screen()
	mustShow(t, s, "4 approved withdrawal addresses", "Rent", "Ann Lee", "Gym", "Bo Ek")

	// The same two again: the gateway refuses entry 1; everything stays.
	a.keys("a")
	a.fillEntry("Again", "X", "Y", addrB)
	a.keys("ctrl+s")
	mustShow(t, a.screen(), "The gateway refused entry 1", "Address is already whitelisted", "Again", addrB)

	a.keys("esc")
	// Mark Rent and Gym (rows 3 and 4) and delete both.
	a.keys("j", "j", "space", "j", "space", "x")
	mustShow(t, a.screen(), "Delete 2 whitelist entries?", "• Rent — "+addrA, "• Gym — "+addrB, "DELETE /v1/wallet/whitelist")
	a.keys("y")
	mustShow(t, a.screen(), "2 approved withdrawal addresses")
	mustNotShow(t, a.screen(), "Rent", "Gym")
}

func TestWhitelistMemoRequiredForXRP(t *testing.T) {
	a := newWalletApp(t, "alice@demo.test", false)
	a.keys("5", "c")
	for range 8 {
		a.keys("j")
	}
	a.keys("enter", "a")
	a.fillEntry("Desk", "A", "B", "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh")
	a.keys("ctrl+s")
	mustShow(t, a.screen(), "destination tag is required for xrp")
	a.typeText("42")
	a.keys("ctrl+s")
	mustShow(t, a.screen(), "2 approved withdrawal addresses", "Desk")
}

func TestWhitelistReadOnly(t *testing.T) {
	a := newWalletApp(t, "alice@demo.test", true)
	a.keys("5", "a")
	if !strings.Contains(a.notice(), "read-only") {
		t.Fatalf("a: %q", a.notice())
	}
	a.keys("x")
	if a.root.(*ui.Root).DialogOpen() {
		t.Fatal("delete dialog in read-only mode")
	}
}

func TestWhitelistHostileNamesSanitized(t *testing.T) {
	a := newWalletApp(t, "mallory@demo.test", false)
	a.keys("5")
	raw := uitest.Content(a.root.View())
	if strings.Contains(raw, "\x1b]8;;https://evil") || strings.Contains(raw, "\x1b]52") {
		t.Fatal("escape sequence reached the screen")
	}
}

// bigWhitelist is a whitelist screen holding n entries, sized 100x38.
func bigWhitelist(n int) *Whitelist {
	st := theme.New(true, false)
	w := NewWhitelist(Deps{Styles: &st, Requests: ui.NewRequests(), Client: apiclient.New(apiclient.Config{})})
	entries := make([]apiclient.WhitelistEntry, n)
	for i := range entries {
		memo := fmt.Sprint(i)
		entries[i] = apiclient.WhitelistEntry{ID: fmt.Sprint(i), Name: fmt.Sprintf("Entry %d merchant", i),
			BeneficiaryFirstName: "First", BeneficiaryLastName: fmt.Sprintf("Last%d", i%977),
			WalletAddress: fmt.Sprintf("0x%040x", i*7919), WalletMemo: &memo, CreatedAt: "2025-01-06T09:00:00Z"}
	}
	w.setEntries(entries)
	_ = w.View(100, 38)
	return w
}

func TestWhitelistBigTableMoves(t *testing.T) {
	w := bigWhitelist(100_000)
	w.Update(uitest.Key("G"))
	if !strings.Contains(w.View(100, 38), "row 100,000 of 100,000") {
		t.Fatal(w.View(100, 38))
	}
	_ = context.Background()
}

// BenchmarkWhitelistKeyPress100k is one key press (Update + View) on the
// whitelist screen holding 100,000 entries; the budget is 1 ms.
func BenchmarkWhitelistKeyPress100k(b *testing.B) {
	w := bigWhitelist(100_000)
	down, up := uitest.Key("down"), uitest.Key("up")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := down
		if i%2000 >= 1000 {
			k = up
		}
		w.Update(k)
		_ = w.View(100, 38)
	}
}

// BenchmarkWhitelistFilter100k types one more filter character (and draws)
// on 100,000 entries; the budget is 1 ms.
func BenchmarkWhitelistFilter100k(b *testing.B) {
	w := bigWhitelist(100_000)
	for _, k := range []string{"/", "m", "e", "r"} {
		w.Update(uitest.Key(k))
	}
	c, bs := uitest.Key("c"), uitest.Key("backspace")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.Update(c)
		_ = w.View(100, 38)
		b.StopTimer()
		w.Update(bs)
		b.StartTimer()
	}
}

// BenchmarkWhitelistFilterFirstChar100k types the first filter character:
// a scan of all 100,000 entries.
func BenchmarkWhitelistFilterFirstChar100k(b *testing.B) {
	w := bigWhitelist(100_000)
	w.Update(uitest.Key("/"))
	c, bs := uitest.Key("7"), uitest.Key("backspace")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.Update(c)
		_ = w.View(100, 38)
		b.StopTimer()
		w.Update(bs)
		b.StartTimer()
	}
}
