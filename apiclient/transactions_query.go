package apiclient

// Path is the request path (with its query) of the page f asks for, as
// Transactions sends it: for a request copied as curl.
func (f TransactionFilter) Path() string {
	if q := f.query().Encode(); q != "" {
		return "/v1/card/transactions?" + q
	}
	return "/v1/card/transactions"
}
