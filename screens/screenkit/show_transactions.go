package screenkit

import "cardterm/apiclient"

// ShowTransactionsMsg asks the Transactions screen to list the
// transactions of a filter (the Spending screen's bar opened); the root
// broadcasts it, and a NavigateMsg then shows the screen.
type ShowTransactionsMsg struct {
	Filter apiclient.TransactionFilter
	// Tag, when set, lists the transactions carrying this tag of the
	// holder's (domain/notes).
	Tag string
}
