package runbook

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"cardterm/apiclient"
	"cardterm/domain/casefile"
)

// The facts read in the customer's approved session besides the card and
// the verification state: wallets, the credit wallet, transactions and
// the cards the customer may order.

func readWallets(ctx context.Context, src Sources, f *Fact) error {
	linked, err := src.Customer.LinkedWallets(ctx)
	f.from(src.CustomerRec, "/v1/wallet/internal/card_linked")
	if err != nil {
		return err
	}
	room := max(maxLinked-len(linked), 0)
	f.Values["linked"], f.Values["max"], f.Values["room"] = strconv.Itoa(len(linked)), strconv.Itoa(maxLinked), strconv.Itoa(room)
	f.Values["advice"] = fmt.Sprintf("You can link %d more wallet(s).", room)
	if room == 0 {
		f.Values["advice"] = "That is the maximum: to link another wallet, please unlink one first in the app (Wallets)."
	}
	f.Summary = fmt.Sprintf("%d of %d card-linked wallets", len(linked), maxLinked)
	return nil
}

// maxLinked is the interface's limit of card-linked wallets per user.
const maxLinked = 5

func readCredit(ctx context.Context, src Sources, f *Fact) error {
	credit, err := src.Customer.CreditWallet(ctx)
	f.from(src.CustomerRec, "/v1/wallet/credit")
	if err != nil {
		return err
	}
	external, err := src.Customer.ExternalWallets(ctx)
	f.from(src.CustomerRec, "/v1/wallet/external")
	if err != nil {
		return err
	}
	f.Values["balance"], f.Values["currency"] = string(credit.Balance), strings.ToUpper(credit.Currency)
	f.Values["withdrawable"] = strconv.FormatBool(credit.IsWithdrawable)
	f.Values["external"] = strconv.Itoa(len(external))
	var reasons []string
	if !credit.IsWithdrawable {
		reasons = append(reasons, "the credit wallet is not flagged withdrawable")
	}
	if len(external) == 0 {
		reasons = append(reasons, "no external wallet is registered (the delegation is not completed)")
	}
	if est, err := src.Customer.WithdrawEstimation(ctx); err == nil {
		f.from(src.CustomerRec, "/v1/wallet/credit/withdraw-estimation")
		f.Values["fee"] = string(est.USDC) + " USDC"
	} else {
		f.Values["fee"] = "not known (" + apiclient.ErrorMessage(err) + ")"
	}
	f.Values["reasons"] = orText(strings.Join(reasons, "; "), "none of the conditions the interface names is failing")
	f.Summary = fmt.Sprintf("credit wallet %s %s, withdrawable %t, %d external wallet(s), fee %s", f.Values["balance"], f.Values["currency"],
		credit.IsWithdrawable, len(external), f.Values["fee"])
	if items, err := src.Customer.WalletHistory(ctx, apiclient.HistoryQuery{WalletID: credit.ID, WalletType: "credit", WalletCurrency: credit.Currency}); err == nil {
		f.from(src.CustomerRec, "/v1/wallet/history")
		for i, it := range items {
			f.Events = append(f.Events, casefile.Event{Time: it.Date, Source: "wallet history",
				Text: it.Name + " " + it.Sign + string(it.Amount) + " " + strings.ToUpper(it.Currency), Key: fmt.Sprintf("history:%s:%s:%d", it.Date, it.Name, i)})
		}
	}
	return nil
}

func readTransactions(ctx context.Context, src Sources, f *Fact) error {
	page, err := src.Customer.Transactions(ctx, apiclient.TransactionFilter{})
	f.from(src.CustomerRec, "/v1/card/transactions")
	if err != nil {
		return err
	}
	txs := page.Transactions
	f.Values["count"] = strconv.Itoa(len(txs))
	f.Values["latest"] = "none"
	if len(txs) > 0 {
		f.Values["latest"] = describe(txs[0])
	}
	var twice []string
	for i := range txs {
		for j := i + 1; j < len(txs); j++ {
			if sameCharge(txs[i], txs[j]) {
				twice = append(twice, describe(txs[i])+" and "+describe(txs[j]))
			}
		}
		f.Events = append(f.Events, casefile.Event{Time: txs[i].DateTime, Source: "card transactions", Text: describe(txs[i]), Key: "tx:" + txs[i].ID})
	}
	f.Values["twice"] = orText(strings.Join(twice, "; "), "no two payments of the same amount at the same merchant within an hour")
	f.Summary = fmt.Sprintf("%d transactions on the first page; latest %s; %s", len(txs), f.Values["latest"], f.Values["twice"])
	return nil
}

// describe is a transaction in a few words.
func describe(t apiclient.Transaction) string {
	amount := string(t.TransactionAmount)
	if t.Sign == "-" || t.Sign == "+" {
		amount = t.Sign + amount
	}
	return amount + " " + t.TransactionCurrency + " at " + t.MerchantNameLocation + " on " + readableTime(t.DateTime) + " (" + t.Status + ")"
}

// sameCharge reports whether two transactions look like one payment
// taken twice: same amount, currency and merchant, within an hour.
func sameCharge(a, b apiclient.Transaction) bool {
	if a.TransactionAmount != b.TransactionAmount || a.TransactionCurrency != b.TransactionCurrency || a.MerchantNameLocation != b.MerchantNameLocation {
		return false
	}
	ta, errA := time.Parse(time.RFC3339, a.DateTime)
	tb, errB := time.Parse(time.RFC3339, b.DateTime)
	if errA != nil || errB != nil {
		return a.DateTime == b.DateTime
	}
	d := ta.Sub(tb)
	return d < time.Hour && d > -time.Hour
}

func readProducts(ctx context.Context, src Sources, f *Fact) error {
	products, err := src.Customer.Products(ctx)
	f.from(src.CustomerRec, "/v1/order/products/available")
	if err != nil {
		return err
	}
	var eligible []string
	for _, p := range products {
		if p.IsEligible {
			eligible = append(eligible, p.Description)
		}
	}
	f.Values["eligible"] = orText(strings.Join(eligible, ", "), "none")
	f.Summary = fmt.Sprintf("%d products, eligible: %s", len(products), f.Values["eligible"])
	return nil
}
