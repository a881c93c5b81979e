package runbook

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"cardterm/apiclient"
	"cardterm/domain/casefile"
)

// SearchAddress looks a wallet address up among the customer's own
// wallets and in the customer's whitelist under every currency the
// customer or the gateway names: the currencies of the customer's
// wallets, then every token of the gateway's chain configuration (the
// interface lists a whitelist one currency at a time, and has no list
// of the currencies it takes). Every answer is kept with its request, so
// the fact says where it looked and what it found.
func SearchAddress(ctx context.Context, src Sources, address string) Fact {
	f := Fact{Name: "address", Label: "Wallet address " + address, Values: map[string]string{}}
	if src.Customer == nil {
		f.Missing = noApproval
		return f
	}
	var found, failed, currencies, untaken []string
	var internal []apiclient.InternalWallet
	if err := f.cited(ctx, func(ctx context.Context) (err error) { internal, err = src.Customer.InternalWallets(ctx); return err }); err == nil {
		for _, w := range internal {
			currencies = append(currencies, w.Currency)
			if strings.EqualFold(w.Address, address) {
				found = append(found, "the customer's own "+strings.ToUpper(w.Currency)+" wallet")
			}
		}
	}
	var external []apiclient.ExternalWallet
	if err := f.cited(ctx, func(ctx context.Context) (err error) { external, err = src.Customer.ExternalWallets(ctx); return err }); err == nil {
		for _, w := range external {
			currencies = append(currencies, w.Currency)
			if strings.EqualFold(w.Address, address) {
				found = append(found, "the customer's registered external wallet ("+w.Network+")")
			}
		}
	}
	var chains apiclient.ChainConfig
	if err := f.cited(ctx, func(ctx context.Context) (err error) { chains, err = src.Customer.ChainConfig(ctx, ""); return err }); err == nil {
		for _, n := range chains.Networks {
			for _, token := range n.SortedTokens() {
				currencies = append(currencies, token.Symbol)
			}
		}
	} else {
		failed = append(failed, "the chain configuration ("+apiclient.ErrorMessage(err)+")")
	}
	currencies = searchOrder(currencies)
	for _, cur := range currencies {
		var entries []apiclient.WhitelistEntry
		err := f.cited(ctx, func(ctx context.Context) (err error) { entries, err = src.Customer.Whitelist(ctx, cur); return err })
		switch {
		case apiclient.IsStatus(err, http.StatusUnprocessableEntity):
			untaken = append(untaken, strings.ToUpper(cur)) // the gateway keeps no whitelist in it
			continue
		case err != nil:
			failed = append(failed, strings.ToUpper(cur)+" ("+apiclient.ErrorMessage(err)+")")
			continue
		}
		for _, e := range entries {
			if strings.EqualFold(e.WalletAddress, address) {
				found = append(found, fmt.Sprintf("whitelist %s entry %q (id %s, added %s)", strings.ToUpper(cur), e.Name, e.ID, e.CreatedAt))
			}
		}
	}
	looked := fmt.Sprintf("looked in the customer's wallets and the whitelist under %d currencies (%s)", len(currencies), strings.ToUpper(strings.Join(currencies, ", ")))
	f.Summary = "address " + address + " not found for this customer (" + looked + ")"
	if len(found) > 0 {
		f.Summary = "address " + address + " found: " + strings.Join(found, "; ") + " (" + looked + ")"
	}
	if len(untaken) > 0 {
		f.Summary += "; the gateway keeps no whitelist in " + strings.Join(untaken, ", ")
	}
	if len(failed) > 0 {
		f.Summary += "; could not read " + strings.Join(failed, ", ")
	}
	f.Values["found"] = strings.Join(found, "; ")
	// The whitelist's answers first: the evidence is cited by its first.
	slices.SortStableFunc(f.Answers, func(a, b casefile.Answer) int {
		return boolOrder(!strings.HasPrefix(a.Request.Path, "/v1/wallet/whitelist"), !strings.HasPrefix(b.Request.Path, "/v1/wallet/whitelist"))
	})
	return f
}

// searchOrder is each currency once, lower case, in the order first
// named (the customer's wallets first); empty names are dropped.
func searchOrder(named []string) []string {
	var out []string
	for _, c := range named {
		c = strings.ToLower(strings.TrimSpace(c))
		if c != "" && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// cited runs one read under a capture and keeps its answer in the fact,
// so that the fact names the very answers it was drawn from.
func (f *Fact) cited(ctx context.Context, read func(context.Context) error) error {
	ctx, captured := casefile.Capture(ctx)
	err := read(ctx)
	if a, ok := captured.Last(); ok {
		f.Answers = append(f.Answers, a)
	}
	return err
}

// boolOrder orders false before true.
func boolOrder(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}
