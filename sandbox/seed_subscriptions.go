package sandbox

import (
	"fmt"
	"sort"
	"time"
)

// subscription is a payment the seed repeats on a rhythm, so the app's
// recurring payments (domain/recurring) have something to find in the
// demo: monthly and weekly ones, one whose price went up, one that
// stopped (missed). None is older than the generated history's oldest
// record, so SeedTransactions' older records stay older than all of
// them (a yearly one would need years of history: the unit tests have
// it).
type subscription struct {
	merchant  merchant
	first     time.Time
	count     int
	step      func(time.Time, int) time.Time
	cents     []int // the amount of each payment, the last repeated
	currency  string
	billingFX bool
}

func monthly(at time.Time, i int) time.Time { return at.AddDate(0, i, 0) }
func weekly(at time.Time, i int) time.Time  { return at.AddDate(0, 0, 7*i) }

// subscriptions are the seed's recurring payments, made at first use
// (their dates are computed).
var subscriptions = lazy[[]subscription]{build: func() []subscription {
	return []subscription{
		{merchant{name: "Netflix Premium, Los Gatos US", mcc: "4899", category: "ENTERTAINMENT"},
			time.Date(2026, 6, 1, 6, 0, 0, 0, time.UTC), 6, monthly, []int{1799}, "EUR", false},
		{merchant{name: "Basic-Fit Gym, Paris FR", mcc: "7997", category: "HEALTH"},
			time.Date(2026, 9, 7, 7, 30, 0, 0, time.UTC), 11, weekly, []int{999}, "EUR", false},
		{merchant{name: "The Guardian, London GB", mcc: "5994", category: "SHOPPING"},
			time.Date(2026, 7, 12, 5, 0, 0, 0, time.UTC), 5, monthly, []int{1200, 1200, 1200, 1200, 1400}, "GBP", true},
		{merchant{name: "Headspace, Santa Monica US", mcc: "5815", category: "ENTERTAINMENT"},
			time.Date(2026, 6, 20, 8, 0, 0, 0, time.UTC), 4, monthly, []int{1299}, "USD", true},
	}
}}

// withSubscriptions merges the seed's recurring payments into a history
// (newest first), keeping it newest first.
func withSubscriptions(username string, history []transactionRecord) []transactionRecord {
	if len(history) == 0 {
		return history
	}
	oldest := history[len(history)-1].DateTime
	for s, sub := range subscriptions.get() {
		for i := range sub.count {
			amount := sub.cents[min(i, len(sub.cents)-1)]
			billing, fee := amount, 0
			if sub.billingFX {
				billing = amount * fxRate.get()[sub.currency] / 100
				fee = (billing*15 + 500) / 1000
			}
			at := sub.step(sub.first, i)
			if at.After(transactionAnchor()) {
				break
			}
			if at.Format(time.RFC3339) <= oldest {
				continue
			}
			history = append(history, transactionRecord{
				ID: uuidFrom("subscription", username, fmt.Sprint(s, "/", i)), DateTime: at.Format(time.RFC3339), Sign: "DEBIT",
				MerchantNameLocation: sub.merchant.name, MCC: sub.merchant.mcc, MCCCategory: sub.merchant.category,
				TransactionAmount: cents(amount), TransactionCurrency: sub.currency, BillingAmount: cents(billing), BillingCurrency: "EUR",
				FeeAmount: cents(fee), FeeCurrency: "EUR", Status: "CONFIRMED", Channel: "ONLINE",
				AuthorizationCode: fmt.Sprintf("%06d", hashNum("sub/"+username+fmt.Sprint(s, i))%1000000),
			})
		}
	}
	sort.SliceStable(history, func(i, j int) bool { return history[i].DateTime > history[j].DateTime })
	return history
}
