package transactions

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/domain/ledger"
	"cardterm/sandbox"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
	"cardterm/ui/uitest"
)

func TestMain(m *testing.M) { screentest.Main(m) }

func transactionRig(t *testing.T, user string) *screentest.Rig {
	return screentest.NewRig(t, user, screentest.Of(New))
}

func TestTransactionsListDetailAndStandOut(t *testing.T) {
	r := transactionRig(t, "alice@demo.test")
	v := r.Want("page 1", "Date (UTC)", "Merchant", "Selected transaction", "Channel", "Authorization code", "row 1 of 50")
	tr := r.Screen.(*Screen)
	// Move to a DECLINED row: its reason shows in the detail pane.
	for i, x := range tr.rows {
		if x.Status == apiclient.TxDeclined {
			tr.table.SetCursor(i)
			r.Want("Declined", *x.DeclineReason, x.MCC)
			break
		}
	}
	_ = v
	// DECLINED and REVERTED are badges: in colour they carry the tone.
	colour := theme.New(true, false)
	tr.Deps.Styles = &colour
	tr.SetSize(100, 38)
	raw := uitest.Content(tr.View())
	for _, s := range transactionStandOut {
		status, tone := s.status, s.tone
		if strings.Contains(uitest.Plain(raw), status) && !strings.Contains(raw, colour.Badge(status, tone)) {
			t.Errorf("%s does not stand out", status)
		}
	}
}

func TestTransactionsFilterAndPaging(t *testing.T) {
	r := transactionRig(t, "alice@demo.test")
	r.Keys("p")
	if !strings.Contains(r.Notices(), "already on the first page") {
		t.Fatal(r.Notices())
	}
	r.Keys("f")
	r.Want("Filter transactions", "From date", "Category", "categories seen")
	r.Type("2026-11-01") // only one date
	r.Keys("tab", "tab", "tab")
	r.Type("travel")
	r.Keys("enter")
	r.Want("is required with the from date", "travel")
	r.Keys("ctrl+u", "up")     // the error focused To date; clear it, go back to From
	r.Keys("ctrl+u", "ctrl+s") // ctrl+s sends from any field
	v := r.Want("category TRAVEL", "page 1")
	tr := r.Screen.(*Screen)
	if len(tr.rows) == 0 {
		t.Fatal("no TRAVEL rows")
	}
	for _, x := range tr.rows {
		if x.MCCCategory != "TRAVEL" {
			t.Fatalf("row %s in %s", x.ID, x.MCCCategory)
		}
	}
	_ = v
	// Unfiltered list pages forward and back.
	r.Keys("c")
	r.Want("page 1")
	first := r.Screen.(*Screen).rows[0].ID
	r.Keys("n")
	r.Want("page 2")
	if r.Screen.(*Screen).rows[0].ID == first {
		t.Fatal("page 2 shows page 1")
	}
	r.Keys("p")
	r.Want("page 1")
	// Past the end: stays on the last page with a notice.
	for i := 0; i < 10; i++ {
		r.Keys("n")
	}
	if !strings.Contains(r.Notices(), "no more transactions") && !strings.Contains(r.Notices(), "last page") {
		t.Fatal(r.Notices())
	}
	if len(r.Screen.(*Screen).rows) == 0 {
		t.Fatal("the last page must stay on screen")
	}
}

func TestTransactionsNoCard(t *testing.T) {
	r := transactionRig(t, "nora@demo.test")
	r.Want("No card yet", "n orders one")
	// Read-only mode names no key that orders.
	styles := theme.New(true, false)
	ro := New(screenkit.Deps{Requests: ui.NewRequests(), Styles: &styles, Now: time.Now, ReadOnly: true})
	ro.loadErr = &apiclient.Error{Status: 404}
	ro.SetSize(100, 38)
	if v := ro.View(); !strings.Contains(v, "once the customer has a card") || strings.Contains(v, "n orders") {
		t.Fatalf("read-only offers the order key:\n%s", v)
	}
}

// bigTransactions builds a screen holding n rows, without a gateway.
func bigTransactions(n int) *Screen {
	styles := theme.New(true, false)
	tr := New(screenkit.Deps{Requests: ui.NewRequests(), Styles: &styles, Now: time.Now})
	rows := make([]apiclient.Transaction, n)
	statuses := []string{"CONFIRMED", "PENDING", "DECLINED", "REVERTED"}
	for i := range rows {
		reason := "INSUFFICIENT_FUNDS"
		rows[i] = apiclient.Transaction{ID: fmt.Sprintf("t%06d", i), DateTime: "2026-11-20T18:00:00Z", Sign: "DEBIT",
			MerchantNameLocation: fmt.Sprintf("Merchant %d, Paris FR", i), MCC: "5411", MCCCategory: "GROCERIES",
			TransactionAmount: "12.50", TransactionCurrency: "EUR", BillingAmount: "12.50", BillingCurrency: "EUR",
			Status: statuses[i%4], DeclineReason: &reason}
	}
	tr.loaded = true
	tr.setRows(rows)
	tr.SetSize(100, 38)
	return tr
}

func BenchmarkTransactionsKeyPress100k(b *testing.B) {
	tr := bigTransactions(100_000)
	tr.View()
	uitest.BenchKeyPresses(b, func(k tea.KeyPressMsg) { tr.Update(k); _ = tr.View() }, "j", "k", 100)
}

func TestTransactionsKeyPressBudget100k(t *testing.T) {
	tr := bigTransactions(100_000)
	tr.View()
	tr.Update(uitest.Key("G"))
	v := uitest.Plain(tr.View())
	if !strings.Contains(v, "row 100,000 of 100,000") || !strings.Contains(v, "t099999") {
		t.Fatalf("end of the list:\n%s", v)
	}
}

// The transaction filter form lists the categories seen; a hostile one is
// neither drawn raw nor offered.
func TestTransactionCategoriesFromGatewayAreSanitized(t *testing.T) {
	st := theme.New(true, false)
	tr := New(screenkit.Deps{Styles: &st, Requests: ui.NewRequests()})
	tr.loaded = true
	tr.setRows([]apiclient.Transaction{
		{ID: "1", MCCCategory: "GROCERIES", Status: "CONFIRMED"},
		{ID: "2", MCCCategory: screentest.HostileText, MerchantNameLocation: screentest.HostileText, Status: "CONFIRMED"},
	})
	tr.SetSize(100, 30)
	filters := tr.openFilters(false)().(ui.OpenLayerMsg).Layer
	filters.SetSize(100, 30)
	frame := filters.View()
	screentest.MustBeClean(t, "the filter form", frame)
	screentest.MustShow(t, uitest.Plain(tea.NewView(frame)), "categories seen: GROCERIES")
	for _, c := range tr.knownCategories() {
		if c != sanitize.Text(c) {
			t.Fatalf("category %q is not clean", c)
		}
	}
}

// While the table's quick filter has the keys, f, c, n and p are letters
// of the filter, not the screen's actions.
func TestTransactionsQuickFilterTakesLetters(t *testing.T) {
	r := transactionRig(t, "alice@demo.test")
	r.Want("page 1")
	tr := r.Screen.(*Screen)
	r.Keys("/")
	if !tr.CapturesKeys() {
		t.Fatal("the quick filter does not capture keys")
	}
	r.Keys("f", "n", "p", "c")
	if top, open := r.TopLayer(); open {
		t.Fatalf("f opened %T while typing in the quick filter", top)
	}
	if tr.filter.Page != 0 || tr.loading {
		t.Fatalf("n/p changed the page while typing in the quick filter (page %d)", tr.filter.Page)
	}
	if got := tr.table.Filter(); got != "fnpc" {
		t.Fatalf("quick filter is %q, want %q", got, "fnpc")
	}
}

// Widening the terminal past the column breakpoint keeps the quick filter
// open with what was typed, and the next letter still types (the old
// screen rebuilt its table in View and dropped the filter).
func TestTransactionsResizeKeepsTheQuickFilter(t *testing.T) {
	r := transactionRig(t, "alice@demo.test")
	r.W = 60
	r.View()
	r.Keys("/", "m")
	r.W = 140
	r.View()
	r.Keys("a")
	tr := r.Screen.(*Screen)
	if !tr.CapturesKeys() || tr.table.Filter() != "ma" {
		t.Fatalf("filter after resize: capturing %v, %q", tr.CapturesKeys(), tr.table.Filter())
	}
}

// TestTransactionsInAnotherShape: a gateway that names and nests every
// transaction field its own way (the direction in its own field or a minus
// sign, money per currency, flat, amountIn…Currency, in minor units or
// nested, a numeric merchant category code beside the category's name)
// still fills every column and the detail pane: each row with its amount,
// sign, currency and category, never a row of blanks.
func TestTransactionsInAnotherShape(t *testing.T) {
	r := screentest.NewRig(t, "alice@demo.test", screentest.Of(New), screentest.WithAltShapes())
	tr := r.Screen.(*Screen)
	if _, ok := tr.rows[0].Raw.Field("merchantNameLocation"); ok || len(tr.rows) == 0 {
		t.Fatalf("expected records the client cannot type: %s", tr.rows[0].Raw)
	}
	v := r.Want("Created at", "Merchant name", "Category", "Amount", "State", "row 1 of 50",
		"Selected transaction", "Merchant city", "Transaction id", "authorized", "2026-11-20 18:00",
		"shopping", "-53.63 EUR", "Amount  -53.63 EUR", "Billed  -53.63 EUR", "Sign    DEBIT", "Category          5651 shopping")
	screentest.MustNotShow(t, v, "Amount  - EUR", "Merchant category code", "Direction", notGivenCell)
	credits := 0
	for i, x := range tr.rows {
		if strings.HasPrefix(tr.table.Row(i)[3], "+") {
			credits++
		}
		if x.Sign == "" || x.TransactionAmount == "" || x.TransactionCurrency == "" || x.MCC == "" || x.MCCCategory == "" {
			t.Errorf("row %d lacks its amount, sign, currency or category: %+v", i, x)
		}
		cells := tr.table.Row(i)
		for c := range cells {
			if strings.TrimSpace(cells[c]) == "" {
				t.Errorf("column %d of row %d is blank: %q", c, i, cells)
			}
		}
		if want := signedAmount(&x); !strings.HasPrefix(want, "-") && !strings.HasPrefix(want, "+") || cells[3] != want {
			t.Errorf("row %d draws its amount %q, want the signed %q", i, cells[3], want)
		}
	}
	if credits == 0 {
		t.Error("no row drawn as money in (+): the direction is not read")
	}
	// The first row's merchant is drawn in the list.
	name, _ := tr.rows[0].Raw.Field("merchant.name")
	screentest.MustShow(t, v, name)
	if _, id, ok := tr.CopyValue(); !ok || id == "" {
		t.Fatal("y has no transaction id to copy")
	}
}

// moneyShapes are one transaction, 12.40 EUR out, in every shape a
// gateway may send its money in, and how the list and the detail draw it.
var moneyShapes = []struct {
	name, raw, cell, detail string
}{
	{"typed", `{"id":"t1","transactionAmount":"12.40","transactionCurrency":"EUR","sign":"DEBIT","status":"CONFIRMED"}`, "-12.40 EUR", "Amount  -12.40 EUR"},
	{"nested", `{"id":"t1","amount":{"value":"12.40","currency":"EUR"},"direction":"out"}`, "-12.40 EUR", "Amount  -12.40 EUR"},
	{"per currency", `{"id":"t1","amount":{"EUR":"12.40"},"direction":"out"}`, "-12.40 EUR", "Amount  -12.40 EUR"},
	{"flat string", `{"id":"t1","amount":"12.40","currency":"EUR","direction":"debit"}`, "-12.40 EUR", "Amount  -12.40 EUR"},
	{"flat negative number", `{"id":"t1","amount":-12.40,"currency":"EUR"}`, "-12.40 EUR", "Amount  -12.40 EUR"},
	{"in transaction currency", `{"id":"t1","amountInTransactionCurrency":"12.40","transactionCurrency":"EUR","sign":"DEBIT"}`, "-12.40 EUR", "Amount  -12.40 EUR"},
	{"in billing currency", `{"id":"t1","amountInBillingCurrency":12.40,"billingCurrency":"EUR","sign":"DEBIT"}`, "-12.40 EUR", "Billed  -12.40 EUR"},
	{"minor units", `{"id":"t1","amount":{"minorUnits":1240,"exponent":2,"currency":"EUR"},"sign":"-"}`, "-12.40 EUR", "Amount  -12.40 EUR"},
	{"credit", `{"id":"t1","amount":"12.40","currency":"EUR","direction":"in"}`, "+12.40 EUR", "Amount  +12.40 EUR"},
	{"none", `{"id":"t1","merchant":"Shop"}`, notGivenCell, "Amount  " + ledger.NoAmount},
}

// Each shape of money is drawn signed with its currency in the list and
// the detail pane; a transaction without one says so.
func TestEveryMoneyShapeOnListAndDetail(t *testing.T) {
	for _, shape := range moneyShapes {
		t.Run(shape.name, func(t *testing.T) {
			styles := theme.New(true, true)
			tr := New(screenkit.Deps{Requests: ui.NewRequests(), Styles: &styles, Now: time.Now})
			tr.loaded = true
			tr.SetSize(120, 40)
			var x apiclient.Transaction
			if err := json.Unmarshal([]byte(shape.raw), &x); err != nil {
				t.Fatal(err)
			}
			tr.setRows([]apiclient.Transaction{x})
			tr.refreshFrame()
			if got := tr.table.Row(0)[amountColumn]; got != shape.cell {
				t.Errorf("list cell %q, want %q", got, shape.cell)
			}
			v := uitest.Plain(tea.NewView(tr.View()))
			if !strings.Contains(v, shape.detail) {
				t.Errorf("the detail lacks %q:\n%s", shape.detail, v)
			}
			screentest.MustNotShow(t, v, "- EUR", "Amount  EUR")
		})
	}
}

// BenchmarkTransactionsPageInAnotherShape shows a page of 50 transactions
// in another gateway's shape (each column choosing its field from the
// records' own) and draws it: the cost of a page arriving.
func BenchmarkTransactionsPageInAnotherShape(b *testing.B) {
	client := apiclientFor(b)
	page, err := client.Transactions(context.Background(), apiclient.TransactionFilter{})
	if err != nil || len(page.Transactions) != 50 {
		b.Fatalf("page: %d %v", len(page.Transactions), err)
	}
	styles := theme.New(true, false)
	tr := New(screenkit.Deps{Requests: ui.NewRequests(), Styles: &styles, Now: time.Now})
	tr.loaded = true
	tr.SetSize(120, 40)
	b.ReportAllocs()
	for b.Loop() {
		tr.setRows(page.Transactions)
		_ = tr.View()
	}
}

// BenchmarkTransactionsKeyPressInAnotherShape is a key press on a page in
// another gateway's shape: cells read the records' own fields.
func BenchmarkTransactionsKeyPressInAnotherShape(b *testing.B) {
	client := apiclientFor(b)
	page, err := client.Transactions(context.Background(), apiclient.TransactionFilter{})
	if err != nil {
		b.Fatal(err)
	}
	styles := theme.New(true, false)
	tr := New(screenkit.Deps{Requests: ui.NewRequests(), Styles: &styles, Now: time.Now})
	tr.loaded = true
	tr.SetSize(120, 40)
	tr.setRows(page.Transactions)
	uitest.BenchKeyPresses(b, func(k tea.KeyPressMsg) { tr.Update(k); _ = tr.View() }, "j", "k", 50)
}

// apiclientFor signs alice in on an alternate-shapes sandbox.
func apiclientFor(b *testing.B) *apiclient.Client {
	b.Helper()
	hs := httptest.NewServer(sandbox.New(sandbox.Options{AltShapes: true}))
	b.Cleanup(hs.Close)
	client := apiclient.New(apiclient.Config{BaseURL: hs.URL, ClientKey: sandbox.DemoClientKey, SecretKey: sandbox.DemoSecretKey})
	if _, err := client.Login(context.Background(), "alice@demo.test", "demo-pass"); err != nil {
		b.Fatal(err)
	}
	return client
}

// Under NO_COLOR (the rig's styles) a status drawn as a badge starts in
// the same column as the plain statuses above and below it.
func TestStatusBadgesLineUpWithPlainStatuses(t *testing.T) {
	r := screentest.NewRig(t, "alice@demo.test", screentest.Of(New))
	v := r.Want("DECLINED", "PENDING")
	col := map[string]int{}
	for _, line := range strings.Split(v, "\n") {
		for _, status := range []string{"DECLINED", "PENDING", "CONFIRMED", "REVERTED"} {
			if i := strings.Index(line, "EUR "); i >= 0 && strings.Contains(line[i:], status) {
				col[status] = ansi.StringWidth(line[:strings.Index(line, status)])
			}
		}
	}
	if col["DECLINED"] == 0 || col["DECLINED"] != col["PENDING"] || col["CONFIRMED"] != col["PENDING"] {
		t.Fatalf("status columns start at %v:\n%s", col, v)
	}
}
