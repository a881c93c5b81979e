package transactions

import "cardterm/screens/screenkit"

// A transaction's amounts, sign, status and category are read once, when
// the page arrives, by screenkit.AdoptTransactionShape, whatever shape its
// gateway sent them in. The names it reads are the names the detail's
// typed lines stand for, so each is listed once.
var (
	amountNames   = append(append([]string{}, screenkit.TransactionAmountNames...), screenkit.TransactionCurrencyNames...)
	billingNames  = screenkit.TransactionBillingNames
	feeNames      = screenkit.TransactionFeeNames
	signNames     = screenkit.TransactionSignNames
	mccNames      = screenkit.TransactionMCCNames
	categoryNames = screenkit.TransactionCategoryName
	// adoptedAmounts are every amount member read, for the amount column.
	adoptedAmounts = append(append(append([]string{}, amountNames...), billingNames...), feeNames...)
)
