package statement

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/domain/ledger"
	"cardterm/sandbox"
)

// moneyShapes are one transaction, 12.40 EUR out, in every shape a
// gateway may send its money in, and the amount column the CSV writes.
var moneyShapes = []struct{ name, raw, amount, currency string }{
	{"typed", `{"id":"t1","transactionAmount":"12.40","transactionCurrency":"EUR","sign":"DEBIT"}`, "-12.40", "EUR"},
	{"nested", `{"id":"t1","amount":{"value":"12.40","currency":"EUR"},"direction":"out"}`, "-12.40", "EUR"},
	{"per currency", `{"id":"t1","amount":{"EUR":"12.40"},"direction":"out"}`, "-12.40", "EUR"},
	{"flat string", `{"id":"t1","amount":"12.40","currency":"EUR","direction":"debit"}`, "-12.40", "EUR"},
	{"flat negative number", `{"id":"t1","amount":-12.40,"currency":"EUR"}`, "-12.40", "EUR"},
	{"in transaction currency", `{"id":"t1","amountInTransactionCurrency":"12.40","transactionCurrency":"EUR","sign":"DEBIT"}`, "-12.40", "EUR"},
	{"minor units", `{"id":"t1","amount":{"minorUnits":1240,"exponent":2,"currency":"EUR"},"sign":"-"}`, "-12.40", "EUR"},
	{"credit", `{"id":"t1","amount":"12.40","currency":"EUR","direction":"in"}`, "12.40", "EUR"},
	{"none", `{"id":"t1","merchant":"Shop"}`, "", ""},
}

// Every shape of money is written signed and exact, with its currency;
// a transaction without an amount has an empty amount cell.
func TestEveryMoneyShapeInTheCSV(t *testing.T) {
	for _, shape := range moneyShapes {
		var x apiclient.Transaction
		if err := json.Unmarshal([]byte(shape.raw), &x); err != nil {
			t.Fatal(err)
		}
		ledger.AdoptTransactionShape(&x)
		var out bytes.Buffer
		w := NewWriter(&out, CSV)
		if err := w.Write(&x); err != nil || w.Close() != nil {
			t.Fatal(err)
		}
		records, err := csv.NewReader(&out).ReadAll()
		if err != nil || len(records) != 2 {
			t.Fatalf("%s: %v %q", shape.name, err, records)
		}
		row := map[string]string{}
		for i, name := range Columns {
			row[name] = records[1][i]
		}
		if row["amount"] != shape.amount || row["currency"] != shape.currency {
			t.Errorf("%s: amount %q %q, want %q %q", shape.name, row["amount"], row["currency"], shape.amount, shape.currency)
		}
	}
}

// A merchant that would be a spreadsheet formula, or drive the terminal,
// is written as text.
func TestCSVCellsAreSafe(t *testing.T) {
	x := apiclient.Transaction{ID: "t", MerchantNameLocation: "=HYPERLINK(\"x\")\x1b[31m", TransactionAmount: "1", TransactionCurrency: "EUR", Sign: apiclient.TxDebit}
	var out bytes.Buffer
	w := NewWriter(&out, JSONL)
	_ = w.Write(&x)
	_ = w.Close()
	var row map[string]string
	if err := json.Unmarshal(out.Bytes(), &row); err != nil {
		t.Fatal(err)
	}
	if m := row["merchant"]; !strings.HasPrefix(m, "'=") || strings.ContainsRune(m, 0x1b) {
		t.Fatalf("merchant written as %q", m)
	}
	if row["amount"] != "-1" {
		t.Fatalf("amount %q", row["amount"])
	}
}

// signedIn is a client signed in as alice on a sandbox with extra older
// transactions.
func signedIn(t testing.TB, opts sandbox.Options, extra int) *apiclient.Client {
	t.Helper()
	s := sandbox.New(opts)
	if extra > 0 {
		if _, err := s.SeedTransactions("alice@demo.test", extra); err != nil {
			t.Fatal(err)
		}
	}
	hs := httptest.NewServer(s)
	t.Cleanup(hs.Close)
	client := apiclient.New(apiclient.Config{BaseURL: hs.URL, ClientKey: sandbox.DemoClientKey, SecretKey: sandbox.DemoSecretKey})
	if _, err := client.Login(context.Background(), "alice@demo.test", "demo-pass"); err != nil {
		t.Fatal(err)
	}
	return client
}

// gatewayTotals reads every page as the gateway's reference shape and adds
// the signed amounts per currency with the client's decimal addition: a
// path that shares nothing with the statement's.
func gatewayTotals(t testing.TB, client *apiclient.Client, f apiclient.TransactionFilter) (int, map[string]string) {
	t.Helper()
	totals := map[string]string{}
	rows := 0
	for f.Page = 0; ; f.Page++ {
		page, err := client.Transactions(context.Background(), f)
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Transactions) == 0 {
			return rows, totals
		}
		for _, x := range page.Transactions {
			rows++
			amount := string(x.TransactionAmount)
			if x.Sign == apiclient.TxDebit {
				amount = "-" + amount
			}
			sum := totals[x.TransactionCurrency]
			if sum == "" {
				sum = "0"
			}
			if totals[x.TransactionCurrency], err = apiclient.AddDecimal(sum, amount); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// csvTotals reads a statement back: its rows and the amounts per currency.
func csvTotals(t testing.TB, data []byte) (int, map[string]string) {
	t.Helper()
	r := csv.NewReader(bytes.NewReader(data))
	header, err := r.Read()
	if err != nil || strings.Join(header, ",") != strings.Join(Columns, ",") {
		t.Fatalf("header %q %v", header, err)
	}
	totals := map[string]string{}
	rows := 0
	for {
		rec, err := r.Read()
		if err != nil {
			break
		}
		rows++
		sum := totals[rec[5]]
		if sum == "" {
			sum = "0"
		}
		if totals[rec[5]], err = apiclient.AddDecimal(sum, rec[4]); err != nil {
			t.Fatalf("row %d: %v", rows, err)
		}
	}
	return rows, totals
}

// sameTotals compares sums per currency to the last digit.
func sameTotals(t testing.TB, got, want map[string]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("currencies %v, want %v", got, want)
	}
	for c, w := range want {
		if cmp, err := apiclient.CompareDecimal(got[c], w); err != nil || cmp != 0 {
			t.Errorf("%s: %s, want %s", c, got[c], w)
		}
	}
}

// The statement of a date range holds every transaction of every page
// the gateway answers, its sums per currency exactly the gateway's; the
// same history in the alternate shapes gives the same statement sums.
func TestExportMatchesTheGateway(t *testing.T) {
	client := signedIn(t, sandbox.Options{}, 2000)
	f := apiclient.TransactionFilter{DateFrom: "2026-01-01", DateTo: "2026-11-30"}
	wantRows, wantTotals := gatewayTotals(t, client, f)
	var out bytes.Buffer
	var seen []Progress
	sum, err := Export(context.Background(), client, Query{Filter: f}, &out, CSV, func(p Progress) { seen = append(seen, p) })
	if err != nil {
		t.Fatal(err)
	}
	rows, totals := csvTotals(t, out.Bytes())
	if rows != wantRows || sum.Kept != wantRows || wantRows < 500 {
		t.Fatalf("%d rows written (%d kept), the gateway has %d", rows, sum.Kept, wantRows)
	}
	sameTotals(t, totals, wantTotals)
	if sum.Totals.String() == "" || len(seen) != sum.Pages || seen[len(seen)-1].Fraction <= seen[0].Fraction {
		t.Fatalf("progress %+v, totals %s", seen, sum.Totals)
	}

	alt := signedIn(t, sandbox.Options{AltShapes: true}, 2000)
	out.Reset()
	if _, err := Export(context.Background(), alt, Query{Filter: f}, &out, CSV, nil); err != nil {
		t.Fatal(err)
	}
	altRows, altTotals := csvTotals(t, out.Bytes())
	if altRows != wantRows {
		t.Fatalf("alternate shapes: %d rows, want %d", altRows, wantRows)
	}
	sameTotals(t, altTotals, wantTotals)
}

// JSON and JSON lines hold the same rows as the CSV.
func TestExportFormats(t *testing.T) {
	client := signedIn(t, sandbox.Options{}, 0)
	f := apiclient.TransactionFilter{SearchKey: "zara"}
	var jsonOut, lines bytes.Buffer
	if _, err := Export(context.Background(), client, Query{Filter: f}, &jsonOut, JSON, nil); err != nil {
		t.Fatal(err)
	}
	var rows []map[string]string
	if err := json.Unmarshal(jsonOut.Bytes(), &rows); err != nil || len(rows) == 0 {
		t.Fatalf("%v %d\n%s", err, len(rows), jsonOut.Bytes())
	}
	if _, err := Export(context.Background(), client, Query{Filter: f, Keep: func(x *apiclient.Transaction) bool { return x.Status == apiclient.TxConfirmed }}, &lines, JSONL, nil); err != nil {
		t.Fatal(err)
	}
	n := 0
	for line := range strings.SplitSeq(strings.TrimSpace(lines.String()), "\n") {
		var row map[string]string
		if err := json.Unmarshal([]byte(line), &row); err != nil || row["status"] != apiclient.TxConfirmed || !strings.HasPrefix(row["merchant"], "Zara") {
			t.Fatalf("line %q: %v", line, err)
		}
		n++
	}
	if n == 0 || n >= len(rows) {
		t.Fatalf("%d confirmed of %d", n, len(rows))
	}
	var empty bytes.Buffer
	if _, err := Export(context.Background(), client, Query{Filter: apiclient.TransactionFilter{SearchKey: "no such merchant"}}, &empty, JSON, nil); err != nil || strings.TrimSpace(empty.String()) != "[\n]" {
		t.Fatalf("empty JSON statement %q %v", empty.String(), err)
	}
}
