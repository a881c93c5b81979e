package sandbox

import (
	"encoding/json"
	"strconv"
	"strings"
)

// The alternate-shapes mode (Options.AltShapes) answers every record the
// interface leaves "not shown" the way another gateway, written by someone
// else from the same interface, might: other field names, nesting and extra
// fields. What the interface documents (addressId and currency of a wallet,
// isWithdrawable of the credit wallet, txHash of a withdrawal, the product's
// id, description and isEligible, the chain configuration's tables) stays
// exactly as documented. The handlers build their default answer and pass
// it through one of the alt* functions below when the mode is on, so both
// modes share every rule and every piece of state.

// altMoney is an amount with its currency, nested.
type altMoney struct {
	Value    string `json:"value"`
	Currency string `json:"currency"`
}

// altMerchant is a transaction's merchant, split where the default joins,
// its category code a number beside the category's name (as public
// clients of this gateway show it).
type altMerchant struct {
	Name     string `json:"name"`
	City     string `json:"city"`
	Country  string `json:"country"`
	MCC      int    `json:"categoryCode"`
	Category string `json:"categoryName"`
}

// altPerCurrency is an amount given per currency, {"EUR": "53.63"}, the
// unsigned magnitude: the direction says which way it went.
type altPerCurrency map[string]string

// perCurrency is amount under its currency; empty when either is blank.
func perCurrency(amount, currency string) altPerCurrency {
	if amount == "" || currency == "" {
		return altPerCurrency{}
	}
	return altPerCurrency{currency: amount}
}

// altTransaction is a card transaction in the alternate shape: the
// direction in its own field, the merchant split, and the money in one of
// the shapes gateways use (altMoneyShapes), chosen by the transaction's
// id, so one page holds them all.
type altTransaction struct {
	TransactionID string      `json:"transactionId"`
	CreatedAt     string      `json:"createdAt"`
	Direction     string      `json:"direction,omitempty"`
	Sign          string      `json:"sign,omitempty"`
	Merchant      altMerchant `json:"merchant"`
	// The money: which members are set depends on the shape.
	Amount                      any    `json:"amount,omitempty"`
	Currency                    string `json:"currency,omitempty"`
	AmountInTransactionCurrency string `json:"amountInTransactionCurrency,omitempty"`
	TransactionCurrency         string `json:"transactionCurrency,omitempty"`
	AmountInBillingCurrency     any    `json:"amountInBillingCurrency,omitempty"`
	BillingAmount               any    `json:"billingAmount,omitempty"`
	BillingCurrency             string `json:"billingCurrency,omitempty"`
	Settlement                  any    `json:"settlement,omitempty"`
	Fees                        any    `json:"fees,omitempty"`

	State     string      `json:"state"`
	Decline   *altDecline `json:"decline,omitempty"`
	EntryMode string      `json:"entryMode"`
	AuthCode  string      `json:"authCode"`
}

// The shapes of a transaction's money in the alternate mode.
const (
	// altPerCurrencyMoney: {"amount": {"EUR": "53.63"}}, unsigned, the
	// direction beside it (as public clients of this gateway show it).
	altPerCurrencyMoney = iota
	// altFlatSignedMoney: {"amount": -53.63, "currency": "EUR",
	// "billingAmount": -53.63, "billingCurrency": "EUR"}, JSON numbers,
	// negative for money out, and no direction.
	altFlatSignedMoney
	// altInCurrencyMoney: {"amountInTransactionCurrency": "53.63",
	// "transactionCurrency": "EUR", "amountInBillingCurrency": 53.63,
	// "billingCurrency": "EUR"}.
	altInCurrencyMoney
	// altMinorUnitsMoney: {"amount": {"minorUnits": 5363, "exponent": 2,
	// "currency": "EUR"}} with {"sign": "debit"}.
	altMinorUnitsMoney
	// altNestedMoney: {"amount": {"value": "53.63", "currency": "EUR"}}.
	altNestedMoney
	altMoneyShapes
)

// altMoneyShapeOf is the shape a transaction's money is sent in: by its
// id, so it is the same on every page and filter.
func altMoneyShapeOf(id string) int {
	return int(hashNum("altmoney/"+id) % altMoneyShapes)
}

// altTransactionState renames a default status; "" for another.
func altTransactionState(status string) string {
	switch status {
	case "CONFIRMED":
		return "settled"
	case "PENDING":
		return "authorized"
	case "DECLINED":
		return "declined"
	case "REVERTED":
		return "reversed"
	}
	return ""
}

// altTransactions reshapes a page of transactions.
func altTransactions(in []transactionRecord) []altTransaction {
	return convertAll(in, func(t transactionRecord) altTransaction {
		a := altTransaction{
			TransactionID: t.ID, CreatedAt: t.DateTime,
			Merchant: altMerchantOf(t.MerchantNameLocation, t.MCC, t.MCCCategory),
			State:    altTransactionState(t.Status), EntryMode: strings.ToLower(t.Channel), AuthCode: t.AuthorizationCode,
		}
		altMoneyOf(&a, t)
		if a.State == "" {
			a.State = strings.ToLower(t.Status)
		}
		if t.DeclineReason != nil {
			a.Decline = &altDecline{Code: *t.DeclineReason}
		}
		return a
	})
}

// altMoneyOf sets a's money members in the shape its id picks.
func altMoneyOf(a *altTransaction, t transactionRecord) {
	switch altMoneyShapeOf(t.ID) {
	case altPerCurrencyMoney:
		a.Direction = altDirection(t.Sign)
		a.Amount = perCurrency(t.TransactionAmount, t.TransactionCurrency)
		a.Settlement = perCurrency(t.BillingAmount, t.BillingCurrency)
		a.Fees = perCurrency(t.FeeAmount, t.FeeCurrency)
	case altFlatSignedMoney:
		amount, billed := t.TransactionAmount, t.BillingAmount
		if t.Sign != "CREDIT" {
			amount, billed = "-"+amount, "-"+billed
		}
		a.Amount, a.Currency = json.Number(amount), t.TransactionCurrency
		a.BillingAmount, a.BillingCurrency = json.Number(billed), t.BillingCurrency
		a.Fees = perCurrency(t.FeeAmount, t.FeeCurrency)
	case altInCurrencyMoney:
		a.Direction = altDirection(t.Sign)
		a.AmountInTransactionCurrency, a.TransactionCurrency = t.TransactionAmount, t.TransactionCurrency
		a.AmountInBillingCurrency, a.BillingCurrency = json.Number(t.BillingAmount), t.BillingCurrency
		a.Fees = perCurrency(t.FeeAmount, t.FeeCurrency)
	case altMinorUnitsMoney:
		a.Sign = strings.ToLower(t.Sign)
		a.Amount = altMinorOf(t.TransactionAmount, t.TransactionCurrency)
		a.Settlement = altMinorOf(t.BillingAmount, t.BillingCurrency)
		a.Fees = altMinorOf(t.FeeAmount, t.FeeCurrency)
	default:
		a.Direction = altDirection(t.Sign)
		a.Amount = altMoney{t.TransactionAmount, t.TransactionCurrency}
		a.Settlement = altMoney{t.BillingAmount, t.BillingCurrency}
		a.Fees = altMoney{t.FeeAmount, t.FeeCurrency}
	}
}

// altMinor is an amount in minor units: {minorUnits, exponent, currency}.
type altMinor struct {
	MinorUnits int64  `json:"minorUnits"`
	Exponent   int    `json:"exponent"`
	Currency   string `json:"currency"`
}

// altMinorOf writes a two-decimal amount ("53.63") in minor units.
func altMinorOf(amount, currency string) altMinor {
	units, _ := strconv.ParseInt(strings.Replace(amount, ".", "", 1), 10, 64)
	return altMinor{MinorUnits: units, Exponent: 2, Currency: currency}
}

type altDecline struct {
	Code string `json:"code"`
}

// altDirection is this gateway's name for a DEBIT or CREDIT sign.
func altDirection(sign string) string {
	if sign == "CREDIT" {
		return "in"
	}
	return "out"
}

// altMerchantOf splits "Name, City CC" into its parts; anything else is
// all name.
func altMerchantOf(nameLocation, mcc, category string) altMerchant {
	code, _ := strconv.Atoi(mcc)
	m := altMerchant{Name: nameLocation, MCC: code, Category: strings.ToLower(category)}
	name, place, ok := strings.Cut(nameLocation, ", ")
	if !ok {
		return m
	}
	m.Name = name
	if i := strings.LastIndexByte(place, ' '); i > 0 && len(place)-i == 3 {
		m.City, m.Country = place[:i], place[i+1:]
	} else {
		m.City = place
	}
	return m
}
