package whitelist

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/account"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

const (
	addrA = "0x00000000219ab540356cBB839Cbe05303d7705Fa"
	addrB = "0xBE0eB53F46cd790Cd13851d5EFf43D12404d33E8"
)

func TestMain(m *testing.M) { screentest.Main(m) }

// newWhitelistApp signs user in on an app with Account and Whitelist at
// 120x40; opts may add more (screentest.ReadOnly()).
var newWhitelistApp = screentest.Preset{SignIn: screentest.Of(signin.New),
	Options: []screentest.Option{screentest.WithScreen(screentest.Of(account.New), screentest.Of(New)), screentest.WithSize(120, 40)}}.NewSignedIn

func TestWhitelistListsAndPicksCurrency(t *testing.T) {
	a := newWhitelistApp(t, "alice@demo.test")
	a.Open(screenkit.WhitelistScreen)
	a.MustShow(t, "USDC", "2 approved withdrawal addresses", "Savings", "Alice Martin", "2025-03-02", "never")
	a.Keys("c")
	a.MustShow(t, "Pick a currency", "XRP  (memo/tag required)")
	// Typing filters: "x" leaves XRP and XLM, "r" XRP alone.
	a.Type("x")
	a.MustShow(t, "XRP", "XLM")
	a.MustNotShow(t, "USDT", "ETH")
	a.Type("r")
	a.MustNotShow(t, "XLM")
	a.Keys("enter")
	a.MustShow(t, "XRP", "Exchange dep", "rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe", "123456")
}

func TestWhitelistAddTwoThenDelete(t *testing.T) {
	a := newWhitelistApp(t, "alice@demo.test")
	a.Open(screenkit.WhitelistScreen)
	a.Keys("a")
	a.Fill("Rent", "Ann", "Lee", "0x123")
	a.Keys("ctrl+n")
	a.Fill("Gym", "Bo", "Ek", addrB)
	a.Keys("ctrl+s")
	s := a.Screen()
	screentest.MustShow(t, s, "Fix the marked fields", "✗ Entry 1", "invalid address format", "Rent", "Gym")
	// Fix entry 1 (the focus went to its address).
	a.Keys("ctrl+u")
	a.Type(addrA)
	a.Keys("ctrl+s")
	// Every change confirms, showing the request, before anything is sent.
	a.MustShow(t, "Add 2 whitelist entries?", "POST /v1/wallet/whitelist", "• Rent — "+addrA)
	a.Keys("y")
	s = a.Screen()
	screentest.MustShow(t, s, "4 approved withdrawal addresses", "Rent", "Ann Lee", "Gym", "Bo Ek")

	// The same two again: the gateway refuses entry 1; everything stays.
	a.Keys("a")
	a.Fill("Again", "X", "Y", addrB)
	a.Keys("ctrl+s", "y")
	a.MustShow(t, "The gateway refused entry 1", "Address is already whitelisted", "Again", addrB)
	// The notice speaks to the user: no Go method name ("AddWhitelist:").
	if n := a.Notice(); !strings.HasPrefix(n, "adding whitelist entries: Address is already whitelisted") {
		t.Fatalf("the refusal's notice: %q", n)
	}

	a.Keys("esc")
	// Mark Rent and Gym (rows 3 and 4) and delete both.
	a.Keys("j", "j", "space", "j", "space", "x")
	a.MustShow(t, "Delete 2 whitelist entries?", "• Rent — "+addrA, "• Gym — "+addrB, "DELETE /v1/wallet/whitelist")
	a.Keys("y")
	a.MustShow(t, "2 approved withdrawal addresses")
	a.MustNotShow(t, "Rent", "Gym")
}

func TestWhitelistMemoRequiredForXRP(t *testing.T) {
	a := newWhitelistApp(t, "alice@demo.test")
	a.Open(screenkit.WhitelistScreen)
	a.Keys("c")
	a.Type("xrp")
	a.Keys("enter", "a")
	a.Fill("Desk", "A", "B", "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh")
	a.Keys("ctrl+s")
	a.MustShow(t, "destination tag is required for xrp")
	a.Type("42")
	a.Keys("ctrl+s", "y")
	a.MustShow(t, "2 approved withdrawal addresses", "Desk")
}

func TestWhitelistReadOnly(t *testing.T) {
	a := newWhitelistApp(t, "alice@demo.test", screentest.ReadOnly())
	a.Open(screenkit.WhitelistScreen)
	a.Keys("a")
	if !strings.Contains(a.Notice(), "read-only") {
		t.Fatalf("a: %q", a.Notice())
	}
	a.Keys("x")
	if a.Root.(*ui.Root).DialogOpen() {
		t.Fatal("delete dialog in read-only mode")
	}
}

func TestWhitelistHostileNamesSanitized(t *testing.T) {
	a := newWhitelistApp(t, "mallory@demo.test")
	a.Open(screenkit.WhitelistScreen)
	raw := uitest.Content(a.Root.View())
	if strings.Contains(raw, "\x1b]8;;https://evil") || strings.Contains(raw, "\x1b]52") {
		t.Fatal("escape sequence reached the screen")
	}
}

// bigWhitelist is a whitelist screen holding n entries, sized 100x38.
func bigWhitelist(n int) *Screen {
	st := theme.New(true, false)
	w := New(screenkit.Deps{Styles: &st, Requests: ui.NewRequests(), Client: apiclient.New(apiclient.Config{})})
	entries := make([]apiclient.WhitelistEntry, n)
	for i := range entries {
		memo := fmt.Sprint(i)
		entries[i] = apiclient.WhitelistEntry{ID: fmt.Sprint(i), Name: fmt.Sprintf("Entry %d merchant", i),
			BeneficiaryFirstName: "First", BeneficiaryLastName: fmt.Sprintf("Last%d", i%977),
			WalletAddress: fmt.Sprintf("0x%040x", i*7919), WalletMemo: &memo, CreatedAt: "2025-01-06T09:00:00Z"}
	}
	store := &entryStore{}
	var p packer
	for start := 0; start < n; start += apiclient.WhitelistBatchSize {
		store.add(p.pack(entries[start:min(start+apiclient.WhitelistBatchSize, n)]))
	}
	w.setStore(store)
	w.SetSize(100, 38)
	return w
}

func TestWhitelistBigTableMoves(t *testing.T) {
	w := bigWhitelist(100_000)
	w.Update(uitest.Key("G"))
	if !strings.Contains(w.View(), "row 100,000 of 100,000") {
		t.Fatal(w.View())
	}
	_ = context.Background()
}

// BenchmarkWhitelistKeyPress100k is one key press (Update + View) on the
// whitelist screen holding 100,000 entries; the budget is 1 ms.
func BenchmarkWhitelistKeyPress100k(b *testing.B) {
	w := bigWhitelist(100_000)
	uitest.BenchKeyPresses(b, func(k tea.KeyPressMsg) { w.Update(k); _ = w.View() }, "down", "up", 1000)
}

// BenchmarkWhitelistFilter100k types one more filter character (and draws)
// on 100,000 entries; the budget is 1 ms.
func BenchmarkWhitelistFilter100k(b *testing.B) {
	w := bigWhitelist(100_000)
	for _, k := range []string{"/", "m", "e", "r"} {
		w.Update(uitest.Key(k))
	}
	uitest.BenchTypeAndErase(b, func(k tea.KeyPressMsg) { w.Update(k) }, func() { _ = w.View() }, "c")
}

// BenchmarkWhitelistFilterFirstChar100k types the first filter character:
// a scan of all 100,000 entries.
func BenchmarkWhitelistFilterFirstChar100k(b *testing.B) {
	w := bigWhitelist(100_000)
	w.Update(uitest.Key("/"))
	uitest.BenchTypeAndErase(b, func(k tea.KeyPressMsg) { w.Update(k) }, func() { _ = w.View() }, "7")
}

// In the body of an 80x24 terminal (60x22) a whole whitelisted address and
// its memo stay on screen; wider, every column comes back.
func TestWhitelistFitsAnEightyColumnTerminal(t *testing.T) {
	r := screentest.NewRig(t, "alice@demo.test", screentest.Of(New))
	e := r.Screen.(*Screen).store.at(0)
	r.W, r.H = 60, 22
	screentest.MustShow(t, r.View(), e.WalletAddress, "Memo/tag")
	r.W = 100
	screentest.MustShow(t, r.View(), "Beneficiary", "Created", e.WalletAddress)
}

// A currency the client does not know is offered as typed; the gateway
// decides (the sandbox answers 422 for one it does not support).
func TestWhitelistPicksACurrencyTheClientDoesNotKnow(t *testing.T) {
	a := newWhitelistApp(t, "alice@demo.test")
	a.Open(screenkit.WhitelistScreen)
	a.Keys("c")
	a.MustShow(t, "a-z 0-9 filter", "enter select")
	a.Type("DOGE")
	a.MustShow(t, "Currency doge", "DOGE  (not in this client's list: the gateway decides)")
	a.Keys("backspace", "backspace", "backspace", "backspace")
	a.Type("é!")
	a.MustShow(t, "Currency ▏", "USDC")
	a.Type("doge")
	a.Keys("enter")
	a.MustShow(t, "Whitelist   DOGE", "Could not load the whitelist: Unsupported currency: doge (422)")
}

// The selected entry is shown whole under the table, and y copies its
// name, beneficiary, address, memo and id.
func TestWhitelistSelectedEntryShownAndCopiedWhole(t *testing.T) {
	r := screentest.NewRig(t, "alice@demo.test", screentest.Of(New))
	w := r.Screen.(*Screen)
	e := w.store.at(0)
	r.W, r.H = 60, 22
	view := r.View()
	screentest.MustShow(t, view, "Name "+e.Name, "Beneficiary "+e.BeneficiaryFirstName+" "+e.BeneficiaryLastName,
		"Address "+e.WalletAddress, "ID "+e.ID)
	label, value, ok := w.CopyValue()
	want := "Name: " + e.Name + "\nBeneficiary: " + e.BeneficiaryFirstName + " " + e.BeneficiaryLastName +
		"\nAddress: " + e.WalletAddress + "\nMemo/tag: —\nID: " + e.ID
	if !ok || value != want || !strings.Contains(label, e.Name) {
		t.Fatalf("copy %q %q", label, value)
	}
}

// The selected entry is offered to the JSON inspector exactly as the
// gateway sent it, a record of the stream sliced from the body.
func TestWhitelistInspectGivesTheGatewaysText(t *testing.T) {
	r := screentest.NewRig(t, "alice@demo.test", screentest.Of(New))
	w := r.Screen.(*Screen)
	r.Keys("down")
	e := w.store.at(1)
	title, raw, ok := w.Inspect()
	if !ok || title != "whitelist entry "+e.ID || !strings.HasPrefix(string(raw), `{"id":"`+e.ID+`"`) || !strings.HasSuffix(string(raw), "}") {
		t.Fatalf("inspect %q %q %v", title, raw, ok)
	}
	r.Keys("c")
	if _, _, ok := w.Inspect(); ok {
		t.Fatal("inspect offered while the currency picker is open")
	}
}

// An unverified user's whitelist (403) at 80x24: the reason is wrapped
// whole (it was cut at the screen's edge mid-word) and the title does not
// claim the list is empty, since it was never read.
func TestWhitelistRefusedSaysWhyWholeAndCountsNothing(t *testing.T) {
	a := screentest.Preset{SignIn: screentest.Of(signin.New),
		Options: []screentest.Option{screentest.WithScreen(screentest.Of(account.New), screentest.Of(New)), screentest.WithSize(80, 24)}}.NewSignedIn(t, "umar@demo.test")
	a.Open(screenkit.WhitelistScreen)
	a.MustShow(t, "not loaded", "need a VERIFIED identity", "(1).")
	a.MustNotShow(t, "0 approved")
}

// Once the last entry is deleted the list is empty: the footer and help no
// longer offer x (it did nothing but say "no entry selected"), x says why,
// and the screen says how to add one.
func TestWhitelistEmptyOffersNoDelete(t *testing.T) {
	a := newWhitelistApp(t, "alice@demo.test")
	a.Open(screenkit.WhitelistScreen)
	a.MustShow(t, "2 approved withdrawal addresses")
	if !strings.Contains(a.Footer(), "x delete") {
		t.Fatalf("a list with entries does not offer x:\n%s", a.Footer())
	}
	a.Keys("space", "down", "space", "x", "y")
	a.MustShow(t, "0 approved withdrawal addresses", "No approved addresses for USDC yet: a adds one, c shows another currency.")
	if f := a.Footer(); strings.Contains(f, "x delete") {
		t.Fatalf("an empty list offers x:\n%s", f)
	}
	a.Keys("x")
	if n := a.Notice(); n != "nothing to delete: the USDC whitelist is empty" {
		t.Fatalf("x on an empty list: notice %q", n)
	}
}
