package transactions

import (
	"slices"

	"cardterm/domain/ledger"
)

// A transaction's amounts, sign, status and category are read once, when
// the page arrives, by ledger.AdoptTransactionShape, whatever shape its
// gateway sent them in. The names it reads (ledger.Transaction*Names) are
// the names the detail's typed lines stand for, so each is listed once.
// The joined lists are made when asked for, not before main.

// amountNames are the names the Amount line stands for: the amounts and
// the currencies read beside them.
func amountNames() []string {
	return slices.Concat(ledger.TransactionAmountNames, ledger.TransactionCurrencyNames)
}

// adoptedAmounts are every amount member read, for the amount column.
func adoptedAmounts() []string {
	return slices.Concat(amountNames(), ledger.TransactionBillingNames, ledger.TransactionFeeNames)
}
