package sandbox

import (
	"strings"
)

// Wallets, withdrawals, history, orders and chain configuration in the
// alternate shapes (alt_shapes.go says why).

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
