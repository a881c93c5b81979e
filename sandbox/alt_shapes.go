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

// altTransactionStates renames the default statuses.
var altTransactionStates = map[string]string{"CONFIRMED": "settled", "PENDING": "authorized", "DECLINED": "declined", "REVERTED": "reversed"}

// altTransactions reshapes a page of transactions.
func altTransactions(in []transactionRecord) []altTransaction {
	return convertAll(in, func(t transactionRecord) altTransaction {
		a := altTransaction{
			TransactionID: t.ID, CreatedAt: t.DateTime,
			Merchant: altMerchantOf(t.MerchantNameLocation, t.MCC, t.MCCCategory),
			State:    altTransactionStates[t.Status], EntryMode: strings.ToLower(t.Channel), AuthCode: t.AuthorizationCode,
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

// altInternal is an internal wallet: addressId and currency as documented,
// the rest renamed and nested.
type altInternal struct {
	WalletID  string         `json:"walletId"`
	AddressID string         `json:"addressId"`
	Currency  string         `json:"currency"`
	Holdings  altHoldings    `json:"holdings"`
	Deposit   altDepositInfo `json:"deposit"`
	Kind      string         `json:"kind"`
}

type altHoldings struct {
	Available string `json:"available"`
	Pending   string `json:"pending"`
}

type altDepositInfo struct {
	Address string  `json:"address"`
	Memo    *string `json:"memo"`
	Chain   string  `json:"chain"`
}

func altInternalWallets(in []*internalWallet) []altInternal {
	return convertAll(in, func(w *internalWallet) altInternal {
		return altInternal{WalletID: w.ID, AddressID: w.AddressID, Currency: w.Currency,
			Holdings: altHoldings{Available: w.Balance, Pending: "0"},
			Deposit:  altDepositInfo{Address: w.Address, Memo: w.Memo, Chain: w.Network}, Kind: "custodial"}
	})
}

// altLinked is a card-linked wallet.
type altLinked struct {
	AddressID      string `json:"addressId"`
	Currency       string `json:"currency"`
	WalletID       string `json:"walletId"`
	DepositAddress string `json:"depositAddress"`
	Chain          string `json:"chain"`
	Rank           int    `json:"rank"`
}

// altLinkedWallets lists the linked wallets, in priority order.
func altLinkedWallets(ws *walletState) []altLinked {
	out := make([]altLinked, 0, len(ws.linked))
	for i, id := range ws.linked {
		if w := ws.byID(id); w != nil {
			out = append(out, altLinked{AddressID: w.AddressID, Currency: w.Currency, WalletID: w.ID,
				DepositAddress: w.Address, Chain: w.Network, Rank: i + 1})
		}
	}
	return out
}

// altExternal is an external wallet: {walletAddress, chain, funds}, with
// a date and a flag whose names start like the balance and the allowance
// (balanceAsOf, allowanceGranted): a client must not draw them under
// those labels.
type altExternal struct {
	WalletAddress    string   `json:"walletAddress"`
	Chain            string   `json:"chain"`
	Currency         string   `json:"currency"`
	BalanceAsOf      string   `json:"balanceAsOf"`
	AllowanceGranted bool     `json:"allowanceGranted"`
	Funds            altFunds `json:"funds"`
	Delegated        bool     `json:"delegated"`
}

// altBalanceAsOf is when the alternate gateway says it last read the
// chain: a fixed moment, as a gateway caching balances would send.
const altBalanceAsOf = "2025-01-15T10:30:00.000Z"

type altFunds struct {
	Available string `json:"available"`
	Approved  string `json:"approved"`
}

func altExternalWallets(in []externalJSON) []altExternal {
	return convertAll(in, func(w externalJSON) altExternal {
		return altExternal{WalletAddress: w.Address, Chain: w.Network, Currency: w.Currency,
			BalanceAsOf: altBalanceAsOf, AllowanceGranted: w.Allowance != "" && w.Allowance != "0",
			Funds: altFunds{Available: w.Balance, Approved: w.Allowance}, Delegated: true}
	})
}

// altCredit is the credit wallet: currency and isWithdrawable as
// documented.
type altCredit struct {
	CreditWalletID string    `json:"creditWalletId"`
	Currency       string    `json:"currency"`
	IsWithdrawable bool      `json:"isWithdrawable"`
	Line           altCredLn `json:"line"`
}

type altCredLn struct {
	Available string `json:"available"`
	Status    string `json:"status"`
}

func altCreditWallet(in creditJSON) altCredit {
	return altCredit{CreditWalletID: in.ID, Currency: in.Currency, IsWithdrawable: in.IsWithdrawable,
		Line: altCredLn{Available: in.Balance, Status: "open"}}
}

// altEstimation is the withdrawal fee estimation:
// {amount, fee, receiveAmount, maxAmount}, for the whole balance.
type altEstimation struct {
	Amount        string `json:"amount"`
	Fee           string `json:"fee"`
	ReceiveAmount string `json:"receiveAmount"`
	MaxAmount     string `json:"maxAmount"`
	Currency      string `json:"currency"`
}

func altWithdrawEstimation(balanceMicros int64) altEstimation {
	return altWithdrawEstimationFor(balanceMicros, balanceMicros)
}

// altWithdrawEstimationFor is the estimation of a withdrawal of amount
// from a balance.
func altWithdrawEstimationFor(amountMicros, balanceMicros int64) altEstimation {
	return altEstimation{Amount: formatMicros(amountMicros), Fee: formatMicros(withdrawFeeMicros),
		ReceiveAmount: formatMicros(max(amountMicros-withdrawFeeMicros, 0)), MaxAmount: formatMicros(balanceMicros), Currency: "usdc"}
}

// altWithdrawal is the withdrawal answer: txHash as documented, with what
// this gateway adds.
type altWithdrawal struct {
	TxHash   string `json:"txHash"`
	Status   string `json:"status"`
	Amount   string `json:"amount"`
	Fee      string `json:"fee"`
	Received string `json:"received"`
}

func altWithdrawalOf(tx string, amountMicros int64) altWithdrawal {
	return altWithdrawal{TxHash: tx, Status: "submitted", Amount: formatMicros(amountMicros),
		Fee: formatMicros(withdrawFeeMicros), Received: formatMicros(amountMicros - withdrawFeeMicros)}
}

// altHistoryItem is a wallet movement: {title, value, direction, occurredAt}.
type altHistoryItem struct {
	Title      string       `json:"title"`
	Value      altHistValue `json:"value"`
	Direction  string       `json:"direction"`
	OccurredAt string       `json:"occurredAt"`
}

// altHistValue is a movement's amount, nested under "value".
type altHistValue struct {
	Amount   string `json:"amount"`
	Currency string `json:"currency"`
}

func altHistory(in []historyJSON) []altHistoryItem {
	return convertAll(in, func(h historyJSON) altHistoryItem {
		return altHistoryItem{Title: h.Name, Value: altHistValue{h.Amount, h.Currency}, Direction: altDirection(h.Sign), OccurredAt: h.Date}
	})
}

// altOrderStatus is the order lookup record.
type altOrderStatus struct {
	Order altOrderBody `json:"order"`
}

type altOrderBody struct {
	ID        string         `json:"id"`
	Reference string         `json:"reference"`
	State     string         `json:"state"`
	Payment   altPayment     `json:"payment"`
	Details   map[string]any `json:"details"`
}

type altPayment struct {
	CompletedAt *string `json:"completedAt"`
	Method      any     `json:"method"`
	TxHash      any     `json:"txHash,omitempty"`
}

func altOrderStatusOf(in ordStatusJSON) altOrderStatus {
	details := map[string]any{}
	for k, v := range in.Metadata {
		if k != "paymentMethod" && k != "txHash" {
			details[k] = v
		}
	}
	return altOrderStatus{Order: altOrderBody{ID: in.OrderID, Reference: in.RequestID, State: strings.ToLower(in.Status),
		Payment: altPayment{CompletedAt: in.PaidAt, Method: in.Metadata["paymentMethod"], TxHash: in.Metadata["txHash"]},
		Details: details}}
}

// altProduct keeps the documented id, description and isEligible and adds
// this gateway's own fields.
type altProduct struct {
	ID          string      `json:"id"`
	Description string      `json:"description"`
	IsEligible  bool        `json:"isEligible"`
	Price       altMoney    `json:"price"`
	Eligibility altEligible `json:"eligibility"`
}

type altEligible struct {
	Reason string `json:"reason,omitempty"`
	Region string `json:"region"`
}

func altProducts(in []ordProductJSON, region string) []altProduct {
	return convertAll(in, func(p ordProductJSON) altProduct {
		price := ""
		if cp, ok := ordProductByID(p.ID); ok {
			price = cp.Price
		}
		return altProduct{ID: p.ID, Description: p.Description, IsEligible: p.IsEligible,
			Price: altMoney{price, "USD"}, Eligibility: altEligible{Reason: p.IneligibleReason, Region: region}}
	})
}

// altChainNetwork is a chain configuration network: the documented fields
// as they are, and Solana's own fields (not shown) in this gateway's names.
type altChainNetwork struct {
	chainNetworkJSON
	Cluster    string `json:"cluster,omitempty"`
	ProgramID  string `json:"programId,omitempty"`
	Commitment string `json:"commitment,omitempty"`
	RPC        string `json:"rpcEndpoint,omitempty"`
}

func altChainNetworks(in []chainNetworkJSON) []altChainNetwork {
	return convertAll(in, func(n chainNetworkJSON) altChainNetwork {
		a := altChainNetwork{chainNetworkJSON: n}
		if n.Network == "solana" {
			a.Cluster, a.Commitment = "devnet", "confirmed"
			if n.Environment == "production" {
				a.Cluster = "mainnet-beta"
			}
			a.ProgramID = n.DelegationContract
			a.RPC = "https://api." + a.Cluster + ".solana.com"
		}
		return a
	})
}
