package sandbox

// A reproduction's wallets and card transactions (fixture_repro.go), as
// a support case kept them from the customer's screens, addresses and
// ids already replaced by stand-ins.

// ReproWallets are the customer's wallets.
type ReproWallets struct {
	Internal []ReproInternalWallet
	// Linked are the ids of the internal wallets linked to the card, in
	// priority order.
	Linked   []string
	External []ReproExternalWallet
	// History is the wallet history kept, by wallet id.
	History map[string][]ReproHistory
}

// ReproInternalWallet is a custodial wallet; Balance is decimal text.
type ReproInternalWallet struct {
	ID, AddressID, Currency, Address, Balance, Network string
	Memo                                               *string
}

// ReproExternalWallet is a registered non-custodial wallet.
type ReproExternalWallet struct {
	Address, Currency, Balance, Allowance, Network string
}

// ReproHistory is one movement of a wallet's history.
type ReproHistory struct {
	Name, Amount, Currency, Sign, Date string
}

// ReproTransaction is one card transaction; amounts are unsigned decimal
// text, Sign says which way.
type ReproTransaction struct {
	ID, DateTime, Sign, Merchant, MCC, Category, Channel string
	Amount, Currency                                     string
	BillingAmount, BillingCurrency                       string
	FeeAmount, FeeCurrency                               string
	Status                                               string
	DeclineReason                                        *string
}

func reproWallets(in *ReproWallets) *fixtureWallets {
	if in == nil {
		return nil
	}
	out := &fixtureWallets{Internal: []*internalWallet{}, Linked: []string{}, External: []externalWallet{}, History: map[string][]historyRecord{}}
	for _, w := range in.Internal {
		out.Internal = append(out.Internal, &internalWallet{ID: w.ID, AddressID: w.AddressID, Currency: w.Currency,
			Address: w.Address, Balance: w.Balance, Network: w.Network, Memo: w.Memo})
	}
	out.Linked = append(out.Linked, in.Linked...)
	for _, w := range in.External {
		out.External = append(out.External, externalWallet(w))
	}
	for id, items := range in.History {
		for _, h := range items {
			out.History[id] = append(out.History[id], historyRecord(h))
		}
	}
	return out
}

// reproTransactions are the fixture's transactions, oldest first (as the
// sandbox keeps its simulated ones).
func reproTransactions(in []ReproTransaction) []transactionRecord {
	var out []transactionRecord
	for _, t := range in {
		out = append(out, transactionRecord{ID: t.ID, DateTime: t.DateTime, Sign: t.Sign, MerchantNameLocation: t.Merchant,
			MCC: t.MCC, MCCCategory: t.Category, TransactionAmount: t.Amount, TransactionCurrency: t.Currency,
			BillingAmount: t.BillingAmount, BillingCurrency: t.BillingCurrency, FeeAmount: t.FeeAmount, FeeCurrency: t.FeeCurrency,
			Status: t.Status, DeclineReason: t.DeclineReason, Channel: t.Channel})
	}
	return out
}
