package wallets

import (
	"fmt"
	"strings"

	"cardterm/apiclient"
	"cardterm/domain/ledger"
	"cardterm/screens/screenkit"
	"cardterm/ui/table"
)

// Wallet records are not shown by the interface beyond addressId, currency
// and isWithdrawable: a gateway may name and nest the rest its own way. The
// screen reads each value through a RecordShape, so a column the gateway
// does not fill under the client's names shows the gateway's own field.

// Columns of the internal wallets table (walletColumns), by the wire names
// the client knows and what another gateway's field should be called.
var internalRecordColumns = []screenkit.RecordColumn{
	{Known: []string{"currency"}, Hints: []string{"currency", "asset", "symbol"}},
	{Known: []string{"balance"}, Hints: []string{"balance", "available", "amount", "holding"}, Kind: screenkit.AmountValue},
	{Known: []string{"address"}, Hints: []string{"address"}},
	{Known: []string{"addressMemo"}, Hints: []string{"memo", "tag"}},
	{}, // Card: the screen's own (linked position)
}

const (
	internalColBalance = 1
	internalColAddress = 2
	internalColMemo    = 3
)

// creditRecordColumns finds the credit wallet's balance and id.
var creditRecordColumns = []screenkit.RecordColumn{
	{Known: []string{"balance"}, Hints: []string{"balance", "available", "amount"}, Kind: screenkit.AmountValue},
	{Known: []string{"id"}, Hints: []string{"id"}},
}

// externalTarget names where a withdrawal goes: the first external
// wallet's address and network.
func (w *Screen) externalTarget() (address, network string, ok bool) {
	if len(w.external) == 0 {
		return "", "", false
	}
	return w.external[0].Address, w.external[0].Network, true
}

// creditBalance is the credit wallet's balance as the gateway sent it,
// under the client's name or its own; "" when there is none.
func (w *Screen) creditBalance() string {
	if w.credit == nil {
		return ""
	}
	shape := screenkit.NewRecordShape([]apiclient.RawJSON{w.credit.Raw}, creditRecordColumns)
	return shape.Value(0, 0, string(w.credit.Balance))
}

// creditWalletID is the credit wallet's id (history takes it).
func (w *Screen) creditWalletID() string {
	if w.credit == nil {
		return ""
	}
	if w.credit.ID != "" {
		return w.credit.ID
	}
	return ledger.RecordID(w.credit.Raw)
}

// addressOf is an internal wallet's address as the gateway sent it.
func (w *Screen) addressOf(i int) string {
	if i < 0 || i >= len(w.internal) {
		return ""
	}
	return w.internalShape.Value(i, internalColAddress, w.internal[i].Address)
}

// linkedAddressID is the addressId a linked wallet carries (the documented
// name), "" when the gateway sent none.
func linkedAddressID(l apiclient.LinkedWallet) string {
	v, _ := l.Raw.Field("addressId")
	return strings.TrimSpace(v)
}

// Inspect implements ui.Inspectable: the history page shown, else the
// selected internal wallet, as the gateway sent them (the withdrawal's
// fee estimation is its layer's).
func (w *Screen) Inspect() (string, []byte, bool) {
	switch w.mode {
	case modeHistory:
		// The page on screen: its movements exactly as sent, as one array.
		if len(w.hist.items) == 0 {
			return "", nil, false
		}
		parts := make([]string, len(w.hist.items))
		for i, it := range w.hist.items {
			parts[i] = string(it.Raw)
		}
		return fmt.Sprintf("history page %d", w.hist.query.Page+1), []byte("[" + strings.Join(parts, ",") + "]"), true
	}
	iw, ok := w.selected()
	if !ok {
		return "", nil, false
	}
	return screenkit.Inspected(strings.ToUpper(iw.Currency)+" wallet", iw.Raw)
}

// columns are the table's columns at the screen's width, titled after the
// gateway's own fields where they stand in for the client's.
func (w *Screen) columns() []table.Column {
	cols := walletColumns(w.Width > 0 && w.Width < walletNarrowBelow)
	for i := range cols {
		cols[i].Title = w.internalShape.FallbackTitle(i, cols[i].Title)
	}
	return cols
}

// rebuildRows fills the internal wallets table, each column from the
// client's field or the gateway's own.
func (w *Screen) rebuildRows() {
	raws := make([]apiclient.RawJSON, len(w.internal))
	for i, iw := range w.internal {
		raws[i] = iw.Raw
	}
	w.internalShape = screenkit.NewRecordShape(raws, internalRecordColumns)
	w.table.SetColumns(w.columns())
	rows := make([][]string, len(w.internal))
	for i, iw := range w.internal {
		card := "—"
		if p := w.linkedIndex(iw); p >= 0 {
			card = fmt.Sprintf("linked #%d", p+1)
		}
		shape := w.internalShape
		rows[i] = []string{strings.ToUpper(iw.Currency), shape.Value(i, internalColBalance, string(iw.Balance)),
			shape.Value(i, internalColAddress, iw.Address), shape.Value(i, internalColMemo, screenkit.OrDash(iw.AddressMemo)), card}
	}
	screenkit.KeepCursor(&w.table, func() {
		w.table.SetRows(rows)
		w.table.SetSize(w.Width, min(len(rows), 8)+2)
	})
}
