package transactionview

import (
	"testing"

	"cardterm/apiclient"
	"cardterm/domain/savedview"
)

// A transaction filter saved as a view comes back as it went, first page.
func TestFilterComesBackAsItWent(t *testing.T) {
	filter := apiclient.TransactionFilter{DateFrom: "2026-01-01", DateTo: "2026-01-31", SearchKey: "Amazon",
		MCCCategories: []string{"SHOPPING", "TRAVEL"}, Page: 3}
	got := Filter(savedview.View{Screen: "transactions", Name: "jan", Filter: Fields(filter)})
	if got.SearchKey != "Amazon" || got.DateFrom != "2026-01-01" || got.DateTo != "2026-01-31" ||
		len(got.MCCCategories) != 2 || got.MCCCategories[1] != "TRAVEL" || got.Page != 0 {
		t.Fatalf("filter back: %+v", got)
	}
}
