package delegation

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/ui/uitest"
)

// fillApproval types a valid EVM post-approval after the prefilled
// network and currency, leaving the focus on the signed message.
func fillApproval(app *screentest.App, amount string) {
	app.T.Helper()
	app.Keys("a", "tab", "tab")
	app.Type(amount)
	app.Keys("tab", "ctrl+u")
	app.Fill(testAddress, testTx, "0x"+strings.Repeat("ab", 65), "I approve 150 USDC")
}

func TestDelegationPostApprovalRegistersWallet(t *testing.T) {
	app, s := newApp(t, "nora@demo.test")
	app.Keys("t", "enter") // the form comes filled, no address: no gas
	token := s.issued.token
	app.Keys("a")
	app.MustShow(t, "Post-approval", "•••", token.Nonce)
	app.MustNotShow(t, token.Token, "No unused delegation token")
	// Network, currency prefilled: go to amount.
	app.Keys("tab", "tab")
	app.Type("1,5")
	app.Keys("tab", "ctrl+u")
	app.Fill(testAddress, "0xabc")
	app.Keys("ctrl+s")
	app.MustShow(t, "Fix the marked fields", "✗ amount must use a dot", "✗ transaction hash must be 0x followed by 64 hex digits", "✗ signature must be", "✗ signed message is required")
	if app.UI().DialogOpen() {
		t.Fatal("an invalid post-approval reached the confirmation")
	}
	// The focus went to the amount.
	app.Keys("ctrl+u")
	app.Type("150.00")
	app.Keys("tab", "tab", "ctrl+u")
	app.Fill(testTx, "0x"+strings.Repeat("ab", 65), "I approve 150 USDC")
	app.Keys("ctrl+s")
	screen := app.Screen()
	screentest.MustShow(t, screen, "Send the post-approval?", "POST /v1/delegation/evm/post-approval", `"amount": "150.00"`, `"token": "`+token.Token[:6]+`…"`)
	screentest.MustNotShow(t, screen, token.Token)
	app.Keys("y")
	app.MustShow(t, "delegation registered", testAddress, "USDC on linea · allowance 150.00", "used by the post-approval")
	// The used token is not offered again.
	app.Keys("a")
	app.MustShow(t, "No unused delegation token")
	app.Keys("esc")
}

// The post-approval is a change on the gateway: its confirmation shows
// the request with the token masked, and nothing is sent before it is
// confirmed. The form submits with enter on its last field too.
func TestDelegationPostApprovalConfirmationShowsTheRequestBeforeSending(t *testing.T) {
	app, s := newApp(t, "nora@demo.test")
	app.Keys("t", "enter")
	token := s.issued.token.Token
	fillApproval(app, "150.00")
	app.Keys("tab", "tab", "enter") // enter on the nonce, the last field
	spec, open := app.UI().Dialog()
	if !open || spec.Request[0] != "POST /v1/delegation/evm/post-approval" {
		t.Fatalf("the confirmation's request is %q (open %v)", spec.Request, open)
	}
	if body := strings.Join(spec.Request, "\n"); strings.Contains(body, token) || !strings.Contains(body, `"nonce":"`+s.issued.token.Nonce+`"`) ||
		!strings.Contains(body, `"token":"`+apiclient.MaskSecret(token)+`"`) {
		t.Fatalf("the confirmation's body:\n%s", body)
	}
	app.MustConfirmBeforeSending("POST", "/v1/delegation/evm/post-approval", "ctrl+s")
	if !s.issued.used {
		t.Fatal("the confirmed post-approval did not use the token")
	}
}

func TestDelegationPostApprovalRefusalKeepsValues(t *testing.T) {
	app, s := newApp(t, "alice@demo.test")
	app.Keys("t", "enter")
	fillApproval(app, "10")
	app.Keys("tab", "tab", "ctrl+u")
	app.Type("not-the-nonce")
	app.Keys("ctrl+s", "y")
	app.MustShow(t, "The gateway refused: Nonce does not match the delegation token", "not-the-nonce", "I approve 150 USDC")
	if s.issued.used {
		t.Fatal("a refused post-approval marked the token used")
	}
	if _, ok := topForm(app); !ok {
		t.Fatal("the refused form was closed")
	}
}

// At 80x24 a post-approval with an error on most fields still shows the
// focused field, the last field and the form's problem: the explanation
// under the title gives way first.
func TestDelegationPostApprovalErrorsFitSmallTerminal(t *testing.T) {
	app, _ := newApp(t, "alice@demo.test")
	app.Resize(80, 24)
	app.Keys("a", "tab", "tab")
	app.Type("1,5")
	app.Keys("ctrl+s")
	app.MustShow(t, "Post-approval", "› Amount", "✗ amount must use a dot", "Nonce", "Fix the marked fields")
}

// Esc while the post-approval is on its way cancels it, as the form says
// ("esc cancels"); the form stays with every value.
func TestDelegationPostApprovalEscCancelsInFlight(t *testing.T) {
	app, s := newApp(t, "nora@demo.test")
	app.Keys("t", "enter")
	fillApproval(app, "150.00")
	app.Keys("ctrl+s")
	// Confirm, but hold the request the confirmation starts.
	root, confirm := app.Root.Update(uitest.Key("y"))
	app.Root = root
	var request tea.Cmd
	for _, msg := range uitest.Run(confirm) {
		var cmd tea.Cmd
		app.Root, cmd = app.Root.Update(msg)
		request = tea.Batch(request, cmd)
	}
	if app.Deps.Requests.InFlightFor(screenkit.DelegationScreen) == 0 {
		t.Fatal("the post-approval did not start")
	}
	app.MustShow(t, "sending… (esc cancels)")
	app.EscCancels(screenkit.DelegationScreen, request)
	if _, ok := topForm(app); !ok {
		t.Fatal("esc while sending closed the form")
	}
	app.MustShow(t, "Cancelled", "I approve 150 USDC")
	if s.issued.used {
		t.Fatal("a cancelled post-approval marked the token used")
	}
}

// At 80x24 the sentences of the Delegation screen are read whole: the used
// token's "t requests a new one" and an unverified user's refusal were cut
// mid-word at the screen's edge.
func TestDelegationSentencesWrapAtEightyColumns(t *testing.T) {
	app, _ := newApp(t, "nora@demo.test", screentest.WithSize(80, 24))
	app.Keys("t", "enter")
	fillApproval(app, "150.00")
	app.Keys("ctrl+s", "y")
	app.MustShow(t, "delegation registered", "t requests a", "new one")

	refused, _ := newApp(t, "umar@demo.test", screentest.WithSize(80, 24))
	refused.MustShow(t, "(verification required).")
}
