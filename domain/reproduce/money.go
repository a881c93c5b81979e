package reproduce

import (
	"slices"
	"strings"

	"cardterm/apiclient"
	"cardterm/domain/ledger"
	"cardterm/sandbox"
)

// The customer's wallets and card transactions, read from the records
// kept on the Wallets and Transactions screens in whichever shape the
// gateway sent them: amounts, currencies, networks, statuses, MCCs and
// dates kept, ids and addresses replaced by stand-ins, names, e-mails
// and card numbers taken out of the merchant text.

// Member names of a wallet in the shapes gateways send.
var (
	walletIDNames      = []string{"id", "walletId"}
	walletAddressNames = []string{"address", "deposit.address", "depositAddress", "walletAddress"}
	walletBalanceNames = []string{"balance", "holdings.available", "funds.available", "available"}
	walletNetworkNames = []string{"network", "deposit.chain", "chain"}
	walletMemoNames    = []string{"addressMemo", "memo", "deposit.memo", "destinationTag", "tag"}
	allowanceNames     = []string{"allowance", "funds.approved"}
	priorityNames      = []string{"priority", "rank"}
)

// wallets gathers the wallet records kept on the Wallets screen; nil
// when there are none.
func wallets(recs []record) *sandbox.ReproWallets {
	out := &sandbox.ReproWallets{History: map[string][]sandbox.ReproHistory{}}
	seen := map[string]int{}
	var linked []struct {
		id       string
		priority string
	}
	for _, r := range recs {
		if r.screen != "Wallets" {
			continue
		}
		fields := r.raw.Fields()
		switch {
		case r.has("name", "sign") && r.has("amount", "date"):
			id := StandIn("wallet", r.queryOf("id"))
			out.History[id] = append(out.History[id], sandbox.ReproHistory{Name: ledger.FieldAt(fields, "name"),
				Amount: ledger.FieldAt(fields, "amount"), Currency: ledger.FieldAt(fields, "currency"),
				Sign: ledger.FieldAt(fields, "sign"), Date: ledger.FieldAt(fields, "date")})
		case ledger.FieldAt(fields, walletIDNames...) != "":
			w := sandbox.ReproInternalWallet{ID: StandIn("wallet", ledger.FieldAt(fields, walletIDNames...)),
				AddressID: StandIn("address-id", ledger.FieldAt(fields, "addressId")), Currency: strings.ToLower(ledger.FieldAt(fields, "currency")),
				Address: Address(ledger.FieldAt(fields, walletAddressNames...)), Balance: decimal(ledger.FieldAt(fields, walletBalanceNames...)),
				Network: ledger.FieldAt(fields, walletNetworkNames...)}
			if memo := ledger.FieldAt(fields, walletMemoNames...); memo != "" {
				tag := Tag(memo)
				w.Memo = &tag
			}
			if i, ok := seen[w.ID]; ok {
				out.Internal[i] = w // the newer answer
			} else {
				seen[w.ID] = len(out.Internal)
				out.Internal = append(out.Internal, w)
			}
			if p := ledger.FieldAt(fields, priorityNames...); p != "" {
				linked = append(linked, struct{ id, priority string }{w.ID, p})
			}
		case ledger.FieldAt(fields, walletAddressNames...) != "":
			out.External = append(out.External, sandbox.ReproExternalWallet{Address: Address(ledger.FieldAt(fields, walletAddressNames...)),
				Currency: strings.ToLower(ledger.FieldAt(fields, "currency")), Balance: decimal(ledger.FieldAt(fields, walletBalanceNames...)),
				Allowance: decimal(ledger.FieldAt(fields, allowanceNames...)), Network: ledger.FieldAt(fields, walletNetworkNames...)})
		}
	}
	slices.SortStableFunc(linked, func(a, b struct{ id, priority string }) int { return strings.Compare(a.priority, b.priority) })
	for _, l := range linked {
		if !slices.Contains(out.Linked, l.id) {
			out.Linked = append(out.Linked, l.id)
		}
	}
	if len(out.Internal)+len(out.External) == 0 && len(out.History) == 0 {
		return nil
	}
	return out
}

// transactions gathers the transactions kept on the Transactions screen,
// each once (the newest answer), oldest first.
func transactions(recs []record, names []string) []sandbox.ReproTransaction {
	var out []sandbox.ReproTransaction
	seen := map[string]int{}
	for _, r := range recs {
		if r.screen != "Transactions" {
			continue
		}
		x := apiclient.Transaction{Raw: r.raw}
		ledger.AdoptTransactionShape(&x)
		if x.ID == "" {
			x.ID = ledger.FieldAt(r.raw.Fields(), "transactionId", "id")
		}
		if x.ID == "" || (x.TransactionAmount == "" && x.BillingAmount == "") {
			continue
		}
		t := sandbox.ReproTransaction{ID: StandIn("transaction", x.ID), DateTime: x.DateTime, Sign: x.Sign,
			Merchant: scrubbed(x.MerchantNameLocation, names), MCC: x.MCC, Category: x.MCCCategory,
			Channel: ledger.FieldAt(r.raw.Fields(), "channel"), Amount: string(x.TransactionAmount), Currency: x.TransactionCurrency,
			BillingAmount: string(x.BillingAmount), BillingCurrency: x.BillingCurrency,
			FeeAmount: string(x.FeeAmount), FeeCurrency: x.FeeCurrency, Status: x.Status, DeclineReason: x.DeclineReason}
		if i, ok := seen[t.ID]; ok {
			out[i] = t
			continue
		}
		seen[t.ID] = len(out)
		out = append(out, t)
	}
	slices.SortStableFunc(out, func(a, b sandbox.ReproTransaction) int { return strings.Compare(a.DateTime, b.DateTime) })
	return out
}

// decimal is an amount as the sandbox keeps it (unsigned decimal text),
// "0" when the record had none it could read.
func decimal(amount string) string {
	if p, ok := ledger.ParseAmount(amount); ok && p.Value != "" {
		return p.Value
	}
	return "0"
}
