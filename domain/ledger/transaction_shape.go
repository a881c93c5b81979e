package ledger

import (
	"strings"

	"cardterm/apiclient"
)

// The interface does not show a transaction's fields: another gateway
// sends the direction in its own field, amounts in any shape MoneyAt reads,
// a negative amount for money out, the merchant category as a numeric code
// beside its name, its own status words. AdoptTransactionShape reads all of
// that once, when a page arrives, into the typed fields, so the list, the
// detail, the billing line, the statements and the insights read one
// amount, one sign and one status for each transaction, in every shape.

// The other shapes' wire names AdoptTransactionShape reads, by typed
// field, the most particular first. Screens list them as the names a
// detail line stands for, so each is shown once.
var (
	TransactionAmountNames  = []string{"transactionAmount", "amountInTransactionCurrency", "amount", "amounts", "transaction", "amountMinor", "amountInMinorUnits"}
	TransactionBillingNames = []string{"billingAmount", "amountInBillingCurrency", "settlement", "billing", "billed", "billingAmountMinor"}
	TransactionFeeNames     = []string{"feeAmount", "fees", "fee", "feeAmountMinor"}
	TransactionSignNames    = []string{"sign", "direction", "side", "type", "creditDebitIndicator"}
	TransactionMCCNames     = []string{"mcc", "merchant.categoryCode", "categoryCode", "merchantCategoryCode", "mccCode"}
	TransactionCategoryName = []string{"mccCategory", "merchant.categoryName", "categoryName", "category", "mccDescription"}
	TransactionStatusNames  = []string{"status", "state"}
	TransactionDateNames    = []string{"dateTime", "createdAt", "occurredAt", "transactionDate", "date", "timestamp", "postedAt"}
	TransactionDeclineNames = []string{"declineReason", "decline.code", "decline.reason", "declineCode"}
	// TransactionCurrencyNames are the currency members read beside a flat
	// amount, so a detail lists them with it.
	TransactionCurrencyNames = []string{"transactionCurrency", "billingCurrency", "feeCurrency", "currency"}
)

// transactionStatus reads other gateways' words for the reference
// statuses (in lower case); ok is false for a word it does not know.
func transactionStatus(word string) (status string, ok bool) {
	switch word {
	case "confirmed", "settled", "completed", "posted", "cleared":
		return apiclient.TxConfirmed, true
	case "pending", "authorized", "authorised", "processing":
		return apiclient.TxPending, true
	case "declined", "rejected", "failed":
		return apiclient.TxDeclined, true
	case "reverted", "reversed", "voided", "cancelled", "canceled":
		return apiclient.TxReverted, true
	}
	return "", false
}

// AdoptTransactionShape reads x's amounts, sign, status, date, category
// and decline reason from whichever shape its gateway sent, into the typed
// fields: amounts unsigned (the sign says which way), the status one of
// the reference's when the gateway's word is known. A transaction with no
// amount keeps TransactionAmount and BillingAmount empty (NoAmount).
func AdoptTransactionShape(x *apiclient.Transaction) {
	var fields []apiclient.RawField
	if x.Raw != "" {
		fields = x.Raw.Fields()
	} else {
		fields = typedTransactionFields(x)
	}
	amount, hasAmount := MoneyAt(fields, TransactionAmountNames...)
	billing, hasBilling := MoneyAt(fields, TransactionBillingNames...)
	fee, hasFee := MoneyAt(fields, TransactionFeeNames...)
	x.TransactionAmount, x.TransactionCurrency = "", ""
	x.BillingAmount, x.BillingCurrency = "", ""
	x.FeeAmount, x.FeeCurrency = "", ""
	if hasAmount {
		x.TransactionAmount, x.TransactionCurrency = apiclient.Decimal(amount.Value), amount.Currency
	}
	if hasBilling {
		x.BillingAmount, x.BillingCurrency = apiclient.Decimal(billing.Value), billing.Currency
	}
	if hasFee {
		x.FeeAmount, x.FeeCurrency = apiclient.Decimal(fee.Value), fee.Currency
	}
	// A sign field says which way; without one a minus sign on the amount
	// (or the billed amount) says money out.
	if sign, ok := SignOf(fields, TransactionSignNames...); ok {
		x.Sign = sign
	} else if (hasAmount && amount.Negative) || (!hasAmount && hasBilling && billing.Negative) {
		x.Sign = apiclient.TxDebit
	} else if hasAmount || hasBilling {
		x.Sign = strings.ToUpper(x.Sign)
	}
	if status := FieldAt(fields, TransactionStatusNames...); status != "" {
		if known, ok := transactionStatus(strings.ToLower(strings.TrimSpace(status))); ok {
			x.Status = known
		} else if x.Status == "" {
			x.Status = status
		}
	}
	if x.DateTime == "" {
		for _, name := range TransactionDateNames {
			if v := FieldAt(fields, name); v != "" {
				if _, ok := ParseTime(v); ok {
					x.DateTime = v
					break
				}
			}
		}
	}
	if x.MCC == "" {
		x.MCC = FieldAt(fields, TransactionMCCNames...)
	}
	if x.MCCCategory == "" {
		x.MCCCategory = FieldAt(fields, TransactionCategoryName...)
	}
	if x.MerchantNameLocation == "" {
		x.MerchantNameLocation = merchantOf(fields)
	}
	if x.ID == "" {
		x.ID = RecordID(x.Raw)
	}
	if x.DeclineReason == nil {
		if reason := FieldAt(fields, TransactionDeclineNames...); reason != "" {
			x.DeclineReason = &reason
		}
	}
}

// merchantOf joins a merchant's name and place sent apart
// ({"merchant": {"name", "city", "country"}}) as the reference writes
// them: "Name, City CC".
func merchantOf(fields []apiclient.RawField) string {
	name := FieldAt(fields, "merchant.name", "merchantName", "merchant", "description")
	if name == "" {
		return ""
	}
	place := strings.TrimSpace(FieldAt(fields, "merchant.city", "merchantCity") + " " + FieldAt(fields, "merchant.country", "merchantCountry"))
	if place == "" {
		return name
	}
	return name + ", " + place
}

// typedTransactionFields are the typed fields of a transaction built in
// code (no Raw), as a gateway would have sent them.
func typedTransactionFields(x *apiclient.Transaction) []apiclient.RawField {
	return []apiclient.RawField{
		{Path: "transactionAmount", Value: string(x.TransactionAmount)}, {Path: "transactionCurrency", Value: x.TransactionCurrency},
		{Path: "billingAmount", Value: string(x.BillingAmount)}, {Path: "billingCurrency", Value: x.BillingCurrency},
		{Path: "feeAmount", Value: string(x.FeeAmount)}, {Path: "feeCurrency", Value: x.FeeCurrency},
		{Path: "sign", Value: x.Sign}, {Path: "status", Value: x.Status},
	}
}
