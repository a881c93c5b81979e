package events

import (
	"testing"

	"cardterm/sandbox/webhookreceiver"
)

// A member of the event's object sent as null (a transaction's decline
// reason while it is pending) reads "not given", never "null".
func TestDeliveryFieldSentAsNullReadsNotGiven(t *testing.T) {
	var bodies bodyFields
	body := `{"event_type":"transaction.authorized","event_object":{"id":"t1","status":"PENDING","declineReason":null},"extra":null}`
	for _, f := range bodies.of(webhookreceiver.Delivery{Seq: 1, Body: []byte(body)}) {
		if f.Value == "null" {
			t.Errorf("%s reads null", f.Label)
		}
	}
}
