package transactions

import (
	"cardterm/apiclient"
	"cardterm/screens/screenkit"
)

// The interface does not show a transaction's fields: another gateway
// sends the direction in its own field, amounts per currency and the
// merchant category as a numeric code beside its name. adoptShape reads
// those into the typed fields the gateway left empty, so the list, the
// detail and the billing line draw amount, sign, currency and category the
// same way in every shape. Fields read here are listed in adoptedNames, so
// the columns keep their typed values and the detail lists each once.

// adoptedNames are the other shapes' wire names adoptShape reads, by
// typed field.
var (
	amountNames    = []string{"amount", "amounts", "transaction"}
	billingNames   = []string{"settlement", "billing", "billed"}
	feeNames       = []string{"fees", "fee"}
	signNames      = []string{"direction", "side", "type"}
	mccNames       = []string{"merchant.categoryCode", "categoryCode", "merchantCategoryCode", "mccCode"}
	categoryNames  = []string{"merchant.categoryName", "categoryName", "category", "mccDescription"}
	adoptedAmounts = append(append(append([]string{}, amountNames...), billingNames...), feeNames...)
)

// adoptShape fills x's empty typed fields from the fields x's gateway
// sent in its own shape.
func adoptShape(x *apiclient.Transaction) {
	if x.Raw == "" || (x.TransactionAmount != "" && x.Sign != "" && x.MCCCategory != "") {
		return
	}
	fields := x.Raw.Fields()
	if x.TransactionAmount == "" {
		if m, ok := screenkit.MoneyAt(fields, amountNames...); ok {
			x.TransactionAmount, x.TransactionCurrency = apiclient.Decimal(m.Value), m.Currency
		}
	}
	if x.BillingAmount == "" {
		if m, ok := screenkit.MoneyAt(fields, billingNames...); ok {
			x.BillingAmount, x.BillingCurrency = apiclient.Decimal(m.Value), m.Currency
		}
	}
	if x.FeeAmount == "" {
		if m, ok := screenkit.MoneyAt(fields, feeNames...); ok {
			x.FeeAmount, x.FeeCurrency = apiclient.Decimal(m.Value), m.Currency
		}
	}
	if x.Sign == "" {
		x.Sign, _ = screenkit.SignOf(fields, signNames...)
	}
	if x.MCC == "" {
		x.MCC = screenkit.FieldAt(fields, mccNames...)
	}
	if x.MCCCategory == "" {
		x.MCCCategory = screenkit.FieldAt(fields, categoryNames...)
	}
}
