package orders

import (
	"strings"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
)

// The interface does not show the order status record: another gateway
// may send the status under its own name ("order.state": "completed").

// orderStatusKnown are the members of the record the client reads itself;
// the screen lists every other field the gateway sent.
var orderStatusKnown = []screenkit.KnownField{{Names: []string{"requestId", "orderId", "status", "paidAt", "metadata"}}}

// orderStatusColumns finds the status in a record of another shape.
var orderStatusColumns = []screenkit.RecordColumn{{Known: []string{"status"}, Hints: []string{"status", "state"}}}

// readOrderStatus fills Status from the record's own field when the
// gateway sent none under the client's name, upper-cased as the
// interface's states are, so polling stops on a final state whatever the
// shape. The raw record is untouched.
func readOrderStatus(s apiclient.OrderStatus) apiclient.OrderStatus {
	if s.Status != "" {
		return s
	}
	shape := screenkit.NewRecordShape([]apiclient.RawJSON{s.Raw}, orderStatusColumns)
	if v, ok := shape.Fallback(0, 0); ok {
		s.Status = strings.ToUpper(strings.TrimSpace(v))
	}
	return s
}

// Inspect implements ui.Inspectable: the order's latest status record (or
// the order itself) while its payment panel is open, else the selected
// product, as the gateway sent them.
func (s *Screen) Inspect() (string, []byte, bool) {
	p, ok := s.selected()
	if !ok {
		return "", nil, false
	}
	return screenkit.Inspected("product "+p.ID, p.Raw)
}
