package transactions

import "cardterm/domain/ledger"

// A transaction's amounts, sign, status and category are read once, when
// the page arrives, by ledger.AdoptTransactionShape, whatever shape its
// gateway sent them in. The names it reads are the names the detail's
// typed lines stand for, so each is listed once.
var (
	amountNames   = append(append([]string{}, ledger.TransactionAmountNames...), ledger.TransactionCurrencyNames...)
	billingNames  = ledger.TransactionBillingNames
	feeNames      = ledger.TransactionFeeNames
	signNames     = ledger.TransactionSignNames
	mccNames      = ledger.TransactionMCCNames
	categoryNames = ledger.TransactionCategoryName
	// adoptedAmounts are every amount member read, for the amount column.
	adoptedAmounts = append(append(append([]string{}, amountNames...), billingNames...), feeNames...)
)
