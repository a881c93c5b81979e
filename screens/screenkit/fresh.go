package screenkit

import "cardterm/apiclient"

// FreshTransactionsMsg carries the transactions the alerts' read found
// new or newly declined (screens/transactions/alerts.go), oldest first,
// read in their gateway's shape. The root broadcasts it: the Spending
// screen measures budgets and recurring payments with it, the Card
// screen runs the guard rules.
type FreshTransactionsMsg struct {
	List []apiclient.Transaction
}
