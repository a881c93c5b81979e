package screenkit

import "cardterm/apiclient"

// The interface shows an external wallet only in part: a gateway may name
// and nest its fields its own way. The Wallets and Delegation screens both
// list external wallets, and read them here, through a RecordShape, so a
// field the gateway does not fill under the client's names shows the
// gateway's own.

// externalWalletColumns are the fields drawn of an external wallet, by the
// wire names the client knows and what another gateway's field should be
// called.
var externalWalletColumns = []RecordColumn{
	{Known: []string{"currency"}, Hints: []string{"currency", "asset", "symbol"}},
	{Known: []string{"network"}, Hints: []string{"network", "chain"}},
	{Known: []string{"address"}, Hints: []string{"address"}},
	{Known: []string{"balance"}, Hints: []string{"balance", "available", "amount"}, Kind: AmountValue},
	{Known: []string{"allowance"}, Hints: []string{"allowance", "approved", "approval", "limit"}, Kind: AmountValue},
}

const (
	externalColCurrency = iota
	externalColNetwork
	externalColAddress
	externalColBalance
	externalColAllowance
)

// ExternalWallet is one external wallet as drawn: the client's fields or
// the gateway's own, unsanitized.
type ExternalWallet struct {
	Currency, Network, Address, Balance, Allowance string
	// Others are the fields the gateway sent beyond these.
	Others []Field
}

// Spendable is min(balance, allowance), "" when either is unreadable.
func (e ExternalWallet) Spendable() string {
	c, err := apiclient.CompareDecimal(e.Balance, e.Allowance)
	if err != nil {
		return ""
	}
	if c <= 0 {
		return e.Balance
	}
	return e.Allowance
}

// ExternalWallets reads the external wallets as drawn.
func ExternalWallets(list []apiclient.ExternalWallet) []ExternalWallet {
	raws := make([]apiclient.RawJSON, len(list))
	for i, e := range list {
		raws[i] = e.Raw
	}
	shape := NewRecordShape(raws, externalWalletColumns)
	var names []string
	for c, col := range externalWalletColumns {
		names = append(names, col.Known...)
		names = append(names, shape.FallbackPath(c))
	}
	out := make([]ExternalWallet, len(list))
	for i, e := range list {
		out[i] = ExternalWallet{
			Currency:  shape.Value(i, externalColCurrency, e.Currency),
			Network:   shape.Value(i, externalColNetwork, e.Network),
			Address:   shape.Value(i, externalColAddress, e.Address),
			Balance:   shape.Value(i, externalColBalance, string(e.Balance)),
			Allowance: shape.Value(i, externalColAllowance, string(e.Allowance)),
			Others:    OtherFields(e.Raw, []KnownField{{Names: names}}),
		}
	}
	return out
}
