package ledger

import (
	"encoding/json"

	"cardterm/apiclient"
)

// Steps of a card payment, as a gateway that sends them names them in
// transactionType (the sandbox's simulated activity does).
const (
	StepAuthorization = "AUTHORIZATION"
	StepIncrement     = "INCREMENTAL_AUTHORIZATION"
	StepClearing      = "CLEARING"
	StepReversal      = "REVERSAL"
	StepRefund        = "REFUND"
)

// PaymentStep is the step of a card payment a record is, "" when the
// gateway does not say.
func PaymentStep(x *apiclient.Transaction) string {
	raw, ok := x.Extra["transactionType"]
	if !ok {
		return ""
	}
	var step string
	_ = json.Unmarshal(raw, &step)
	return step
}

// HoldOnly reports a step that only holds money (an authorization or its
// increment): it spends while PENDING, and once cleared or released its
// clearings, or nothing, count instead.
func HoldOnly(step string) bool { return step == StepAuthorization || step == StepIncrement }
