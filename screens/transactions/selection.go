package transactions

import (
	"cardterm/apiclient"
	"cardterm/domain/ledger"
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
