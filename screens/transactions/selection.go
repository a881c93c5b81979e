package transactions

import (
	"cardterm/apiclient"
	"cardterm/domain/ledger"
	"cardterm/screens/screenkit"
)

// selected is the transaction under the cursor.
func (t *Screen) selected() (*apiclient.Transaction, bool) {
	i, ok := t.table.Cursor()
	if !ok || i >= len(t.rows) {
		return nil, false
	}
	return &t.rows[i], true
}

// CopyValue lets y copy the selected transaction's id.
func (t *Screen) CopyValue() (label, value string, ok bool) {
	x, ok := t.selected()
	if !ok {
		return "", "", false
	}
	id := x.ID
	if id == "" {
		id = ledger.RecordID(x.Raw)
	}
	if id == "" {
		return "", "", false
	}
	return "transaction id", id, true
}

// transactionDetailHeight is the rows the detail pane takes.
const transactionDetailHeight = 11

// Inspect implements ui.Inspectable: the selected transaction as the
// gateway sent it.
func (t *Screen) Inspect() (string, []byte, bool) {
	x, ok := t.selected()
	if !ok || t.form != nil {
		return "", nil, false
	}
	id := x.ID
	if id == "" {
		id = ledger.RecordID(x.Raw)
	}
	return screenkit.Inspected("transaction "+id, x.Raw)
}
