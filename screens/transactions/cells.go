package transactions

import (
	"bytes"
	"strings"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
)

// pageCells are the cells of a page that are not a record's field as sent:
// the date as "2026-11-20 18:00", the signed amount with its currency, and
// every column that reads the records' own fields. They are written once,
// when the page arrives, into one text the table's accessor slices, so a
// frame formats nothing (a key press used to build two strings a row).
type pageCells struct {
	text string
	// ends[col] holds, for a formatted column, where each row's cell ends
	// in text (it starts where the previous row's ends); nil for a column
	// read from the record as it is.
	ends [transactionColumnCount][]uint32
	// starts[col] is where the column's first cell starts.
	starts [transactionColumnCount]uint32
}

// transactionColumnCount is the table's columns: date, merchant, category, amount,
// status.
const transactionColumnCount = 5

// newPageCells formats the cells of rows that need it, reading a column
// that falls back from shape.
func newPageCells(rows []apiclient.Transaction, shape screenkit.RecordShape) pageCells {
	var cells pageCells
	formatted := func(col int) bool {
		return shape.FallbackPath(col) != "" || col == 0 || col == amountColumn
	}
	size := 0
	for col := range transactionColumnCount {
		if formatted(col) {
			size += len(rows) * 16
		}
	}
	var b strings.Builder
	b.Grow(size)
	for col := range transactionColumnCount {
		if !formatted(col) {
			continue
		}
		cells.starts[col] = uint32(b.Len())
		ends := make([]uint32, len(rows))
		for row := range rows {
			writeCell(&b, &rows[row], shape, row, col)
			ends[row] = uint32(b.Len())
		}
		cells.ends[col] = ends
	}
	cells.text = b.String()
	return cells
}

// writeCell writes the text of one formatted cell.
func writeCell(b *strings.Builder, x *apiclient.Transaction, shape screenkit.RecordShape, row, col int) {
	if col == amountColumn {
		// Amounts are read in every shape when the page arrives
		// (ledger.AdoptTransactionShape): never a stand-in field.
		writeAmount(b, x)
		return
	}
	if v, ok := shape.Fallback(row, col); ok {
		if col == 0 {
			writeDate(b, v)
			return
		}
		b.WriteString(v)
		return
	}
	switch col {
	case 0:
		writeDate(b, x.DateTime)
	}
}

// amountColumn is the column of the signed amount.
const amountColumn = 3

// notGivenCell is the amount cell of a transaction that gives no amount:
// under the column's title it reads "amount not given".
const notGivenCell = "not given"

// cell returns the formatted cell of row in col, ok false when the column
// reads the record as it is.
func (c *pageCells) cell(row, col int) (string, bool) {
	ends := c.ends[col]
	if ends == nil || row >= len(ends) {
		return "", false
	}
	start := c.starts[col]
	if row > 0 {
		start = ends[row-1]
	}
	return c.text[start:ends[row]], true
}

// writeDate writes an ISO timestamp as "2026-11-20 18:00"; anything else
// as it is.
func writeDate(b *strings.Builder, s string) {
	if len(s) >= 16 && s[10] == 'T' {
		b.WriteString(s[:10])
		b.WriteByte(' ')
		b.WriteString(s[11:16])
		return
	}
	b.WriteString(s)
}

// writeAmount writes signedAmount(x) without building it: the text is put
// together in a buffer on the stack.
func writeAmount(b *strings.Builder, x *apiclient.Transaction) {
	buf := make([]byte, 0, 64)
	buf = appendAmount(buf, x)
	b.Write(bytes.TrimSpace(buf))
}

// appendAmount appends the signed amount in the transaction's currency,
// before trimming: sign, amount, a space, currency.
func appendAmount(buf []byte, x *apiclient.Transaction) []byte {
	amt := string(x.TransactionAmount)
	if amt == "" {
		amt = string(x.BillingAmount)
	}
	if amt == "" {
		return append(buf, notGivenCell...)
	}
	switch x.Sign {
	case apiclient.TxDebit:
		buf = append(buf, '-')
	case apiclient.TxCredit:
		buf = append(buf, '+')
	}
	cur := x.TransactionCurrency
	if cur == "" {
		cur = x.BillingCurrency
	}
	buf = append(buf, amt...)
	buf = append(buf, ' ')
	return append(buf, cur...)
}

// signedMoney is an amount with the transaction's sign and its currency,
// as the list and the Amount line write it: a debit billed reads
// "-53.63 EUR" beside the amount's "-53.63 EUR". "" without an amount.
func signedMoney(sign string, amount apiclient.Decimal, currency string) string {
	if amount == "" {
		return ""
	}
	prefix := ""
	switch sign {
	case apiclient.TxDebit:
		prefix = "-"
	case apiclient.TxCredit:
		prefix = "+"
	}
	return strings.TrimSpace(prefix + string(amount) + " " + currency)
}

// signedAmount is the signed amount in the transaction's currency, "" when
// the transaction gives none.
func signedAmount(x *apiclient.Transaction) string {
	if x.TransactionAmount == "" && x.BillingAmount == "" {
		return ""
	}
	return string(bytes.TrimSpace(appendAmount(make([]byte, 0, 64), x)))
}
