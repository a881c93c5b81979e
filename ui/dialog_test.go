package ui_test

import (
	"strings"
	"testing"

	"cardterm/ui"
)

// Requests sent in a row to one endpoint show its line once, every body
// under it, so the box and its buttons stay on an 80x24 screen.
func TestDialogDrawsARepeatedRequestLineOnce(t *testing.T) {
	f := newFixture(t, true, false)
	f.signInNow()
	var request []string
	for _, method := range []string{"DELETE", "POST"} {
		for _, id := range []string{"a1", "b2", "c3", "d4"} {
			request = append(request, method+" /v1/wallet/internal/card_linked", `{"addressId":"`+id+`"}`)
		}
	}
	f.drive(ui.Confirm(ui.ConfirmSpec{Title: "Move?", Request: request, Lines: []string{"The gateway has no reorder."}})())
	frame := f.view()
	if n := strings.Count(frame, "DELETE /v1/wallet/internal/card_linked"); n != 1 {
		t.Fatalf("the DELETE line is drawn %d times:\n%s", n, frame)
	}
	if n := strings.Count(frame, "POST /v1/wallet/internal/card_linked"); n != 1 {
		t.Fatalf("the POST line is drawn %d times:\n%s", n, frame)
	}
	if n := strings.Count(frame, `{"addressId":"d4"}`); n != 2 {
		t.Fatalf("a body is drawn %d times, want once per request:\n%s", n, frame)
	}
}
