package runbook

import (
	"context"
	"fmt"
	"strings"

	"cardterm/apiclient"
)

// SearchAddress looks a wallet address up in the customer's whitelist
// under every currency the whitelist takes (the interface lists it one
// currency at a time), and among the customer's own wallets. Every
// answer is kept, so the fact says where it looked and what it found.
func SearchAddress(ctx context.Context, src Sources, address string) Fact {
	f := Fact{Name: "address", Label: "Wallet address " + address, Values: map[string]string{}}
	if src.Customer == nil {
		f.Missing = noApproval
		return f
	}
	var found, failed []string
	for _, cur := range apiclient.WhitelistCurrencies {
		entries, err := src.Customer.Whitelist(ctx, cur)
		f.from(src.CustomerRec, "/v1/wallet/whitelist?currency="+cur)
		if err != nil {
			failed = append(failed, strings.ToUpper(cur)+" ("+apiclient.ErrorMessage(err)+")")
			continue
		}
		for _, e := range entries {
			if strings.EqualFold(e.WalletAddress, address) {
				found = append(found, fmt.Sprintf("whitelist %s entry %q (id %s, added %s)", strings.ToUpper(cur), e.Name, e.ID, e.CreatedAt))
			}
		}
	}
	if internal, err := src.Customer.InternalWallets(ctx); err == nil {
		f.from(src.CustomerRec, "/v1/wallet/internal")
		for _, w := range internal {
			if strings.EqualFold(w.Address, address) {
				found = append(found, "the customer's own "+strings.ToUpper(w.Currency)+" wallet")
			}
		}
	}
	if external, err := src.Customer.ExternalWallets(ctx); err == nil {
		f.from(src.CustomerRec, "/v1/wallet/external")
		for _, w := range external {
			if strings.EqualFold(w.Address, address) {
				found = append(found, "the customer's registered external wallet ("+w.Network+")")
			}
		}
	}
	looked := fmt.Sprintf("looked in %d whitelist currencies (%s) and the customer's wallets", len(apiclient.WhitelistCurrencies), strings.Join(apiclient.WhitelistCurrencies, ", "))
	switch {
	case len(found) > 0:
		f.Summary = "address " + address + " found: " + strings.Join(found, "; ") + " (" + looked + ")"
	default:
		f.Summary = "address " + address + " not found for this customer (" + looked + ")"
	}
	if len(failed) > 0 {
		f.Summary += "; could not read " + strings.Join(failed, ", ")
	}
	f.Values["found"] = strings.Join(found, "; ")
	return f
}
