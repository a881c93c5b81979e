// Package statement writes card transactions as a statement: CSV, a JSON
// array or JSON lines, every page of the gateway's list walked and each
// row written as it arrives, so memory stays flat however long the
// history. `cardterm get transactions --all` and the Transactions screen's
// export (x) both use it. It is not a screen: the screens and the command
// line share it.
package statement

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"cardterm/apiclient"
	"cardterm/domain/ledger"
	"cardterm/ui/sanitize"
)

// Format is how a statement is written.
type Format string

const (
	CSV   Format = "csv"
	JSON  Format = "json"
	JSONL Format = "jsonl"
)

// Formats are the formats, for flags and messages.
var Formats = []Format{CSV, JSON, JSONL}

// ParseFormat reads a format's name in any letter case.
func ParseFormat(name string) (Format, error) {
	for _, f := range Formats {
		if strings.EqualFold(strings.TrimSpace(name), string(f)) {
			return f, nil
		}
	}
	return "", fmt.Errorf("%q is not csv, json or jsonl", name)
}

// Columns are the statement's columns, in order: the CSV header and the
// JSON members. docs/statements.md says what each holds.
var Columns = []string{
	"id", "time_utc", "status", "direction", "amount", "currency", "billed_amount", "billed_currency",
	"fee", "fee_currency", "merchant", "mcc", "mcc_name", "category", "decline_reason", "note", "tags",
}

// Row is one transaction as a statement writes it: amounts signed (a
// debit negative), exact decimal text, the time in UTC.
type Row struct {
	ID, TimeUTC, Status, Direction string
	Amount, Currency               string
	Billed, BilledCurrency         string
	Fee, FeeCurrency               string
	Merchant, MCC, MCCName         string
	Category, DeclineReason        string
	// Note and Tags are the holder's own (domain/notes), tags joined by
	// spaces.
	Note, Tags string
}

// RowOf is x as a statement row; x has been through
// ledger.AdoptTransactionShape (Walk does it).
func RowOf(x *apiclient.Transaction) Row {
	r := Row{
		ID: clean(x.ID), TimeUTC: utc(x.DateTime), Status: clean(x.Status), Direction: direction(x.Sign),
		Amount: signed(x.Sign, x.TransactionAmount), Currency: clean(x.TransactionCurrency),
		Billed: signed(x.Sign, x.BillingAmount), BilledCurrency: clean(x.BillingCurrency),
		Fee: string(x.FeeAmount), FeeCurrency: clean(x.FeeCurrency),
		Merchant: clean(x.MerchantNameLocation), MCC: clean(x.MCC), Category: clean(x.MCCCategory),
	}
	r.MCCName, _ = ledger.MCCName(x.MCC)
	if x.DeclineReason != nil {
		r.DeclineReason = clean(*x.DeclineReason)
	}
	return r
}

// values are the row's cells in Columns' order.
func (r *Row) values() []string {
	return []string{r.ID, r.TimeUTC, r.Status, r.Direction, r.Amount, r.Currency, r.Billed, r.BilledCurrency,
		r.Fee, r.FeeCurrency, r.Merchant, r.MCC, r.MCCName, r.Category, r.DeclineReason, r.Note, r.Tags}
}

// direction is "out" for a debit, "in" for a credit, "" when the gateway
// did not say.
func direction(sign string) string {
	switch sign {
	case apiclient.TxDebit:
		return "out"
	case apiclient.TxCredit:
		return "in"
	}
	return ""
}

// signed is an unsigned amount with a debit's minus sign.
func signed(sign string, amount apiclient.Decimal) string {
	if amount == "" {
		return ""
	}
	if sign == apiclient.TxDebit && strings.Trim(string(amount), "0.") != "" {
		return "-" + string(amount)
	}
	return string(amount)
}

// utc is a timestamp in UTC ("2026-11-20T18:00:00Z"); text that is not a
// timestamp is kept as sent.
func utc(s string) string {
	if t, ok := ledger.ParseTime(s); ok {
		return t.UTC().Format(time.RFC3339Nano)
	}
	return clean(s)
}

// clean keeps a gateway's text from driving the terminal a statement is
// printed on (controls and escape sequences shown as escapes, bidi and
// zero-width characters made visible), and from being read as a formula
// by a spreadsheet (a leading =, +, - or @ gets a quote).
func clean(s string) string {
	s = sanitize.Text(s)
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		s = "'" + s
	}
	return s
}

// Writer writes rows in a format as they come.
type Writer struct {
	format Format
	out    *bufio.Writer
	csv    *csv.Writer
	rows   int
	// Totals are the signed amounts per currency written so far.
	Totals ledger.Totals
	// Notes, when set, gives a transaction's note and tags.
	Notes func(id string) (note, tags string)
}

// NewWriter starts a statement on out (CSV: the header line).
func NewWriter(out io.Writer, format Format) *Writer {
	w := &Writer{format: format, out: bufio.NewWriterSize(out, 64<<10), Totals: ledger.Totals{}}
	if format == CSV {
		w.csv = csv.NewWriter(w.out)
		_ = w.csv.Write(Columns)
	}
	return w
}

// Write writes one transaction.
func (w *Writer) Write(x *apiclient.Transaction) error {
	r := RowOf(x)
	if w.Notes != nil {
		note, tags := w.Notes(x.ID)
		r.Note, r.Tags = clean(note), clean(tags)
	}
	if x.TransactionAmount != "" {
		w.Totals.Add(x.TransactionCurrency, string(x.TransactionAmount), x.Sign == apiclient.TxDebit)
	}
	w.rows++
	switch w.format {
	case CSV:
		return w.csv.Write(r.values())
	case JSON:
		if w.rows == 1 {
			_ = w.out.WriteByte('[')
		} else {
			_ = w.out.WriteByte(',')
		}
		_ = w.out.WriteByte('\n')
		return writeObject(w.out, &r)
	default:
		if err := writeObject(w.out, &r); err != nil {
			return err
		}
		return w.out.WriteByte('\n')
	}
}

// Rows is how many rows were written.
func (w *Writer) Rows() int { return w.rows }

// Close ends the statement (JSON: the array's end) and flushes it.
func (w *Writer) Close() error {
	switch w.format {
	case CSV:
		w.csv.Flush()
		if err := w.csv.Error(); err != nil {
			return err
		}
	case JSON:
		if w.rows == 0 {
			_ = w.out.WriteByte('[')
		}
		_, _ = w.out.WriteString("\n]\n")
	}
	return w.out.Flush()
}

// writeObject writes the row as one JSON object, members in Columns'
// order; amounts stay strings (exact).
func writeObject(out *bufio.Writer, r *Row) error {
	_ = out.WriteByte('{')
	for i, v := range r.values() {
		if i > 0 {
			_ = out.WriteByte(',')
		}
		name, _ := json.Marshal(Columns[i])
		value, err := json.Marshal(v)
		if err != nil {
			return err
		}
		_, _ = out.Write(name)
		_ = out.WriteByte(':')
		_, _ = out.Write(value)
	}
	return out.WriteByte('}')
}
