// Package transactionview turns a transaction filter into a saved view's
// fields and back. It is kept apart from domain/savedview so the views'
// store, which the ui package reads, knows nothing of the gateway client.
package transactionview

import (
	"strings"

	"cardterm/apiclient"
	"cardterm/domain/savedview"
)

// Fields is a transaction filter as a view's fields.
func Fields(f apiclient.TransactionFilter) map[string]string {
	return map[string]string{"dateFrom": f.DateFrom, "dateTo": f.DateTo, "searchKey": f.SearchKey,
		"mccCategories": strings.Join(f.MCCCategories, ",")}
}

// Filter is a view's fields as a transaction filter, first page.
func Filter(v savedview.View) apiclient.TransactionFilter {
	var categories []string
	for _, c := range strings.Split(v.Filter["mccCategories"], ",") {
		if c = strings.TrimSpace(c); c != "" {
			categories = append(categories, c)
		}
	}
	return apiclient.TransactionFilter{DateFrom: v.Filter["dateFrom"], DateTo: v.Filter["dateTo"],
		SearchKey: v.Filter["searchKey"], MCCCategories: categories}
}
