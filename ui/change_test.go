package ui_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"cardterm/ui"
	"cardterm/ui/uitest"
)

// drainChange feeds the flow every message its commands produce, as the
// root would, and returns the finished result.
func drainChange(t *testing.T, c *ui.Change[string], cmd tea.Cmd) (ui.ChangeResult[string], bool) {
	t.Helper()
	for _, m := range uitest.Run(cmd) {
		if open, ok := m.(ui.OpenDialogMsg); ok {
			m = open.Spec.OnConfirm
		}
		res, done, next := c.Update(m)
		if done {
			return res, true
		}
		if next != nil {
			return drainChange(t, c, next)
		}
	}
	return ui.ChangeResult[string]{}, false
}

func TestChangeConfirmsThenRunsOnce(t *testing.T) {
	reqs := ui.NewRequests()
	c := ui.NewChange[string](reqs.For(cardScreen))
	runs := 0
	spec := ui.ChangeSpec[string]{
		Title:   "Freeze?",
		Request: []string{"POST /v1/card/freeze"},
		What:    "freeze",
		Run: func(context.Context) (string, error) {
			runs++
			return "frozen", nil
		},
	}
	cmd := c.Ask(spec)
	open, ok := cmd().(ui.OpenDialogMsg)
	if !ok || open.Spec.Request[0] != "POST /v1/card/freeze" {
		t.Fatalf("the confirmation does not show the request: %#v", open.Spec)
	}
	if runs != 0 {
		t.Fatal("the change ran before it was confirmed")
	}
	if again := c.Ask(spec); again != nil || !c.Busy() {
		t.Fatal("a second press while confirming asked again")
	}
	res, done := drainChange(t, &c, func() tea.Msg { return open })
	if !done || res.Value != "frozen" || res.Err != nil || runs != 1 {
		t.Fatalf("result %+v done %v runs %d", res, done, runs)
	}
	if c.Busy() || res.DoneText() != "freeze done" {
		t.Fatalf("busy %v text %q", c.Busy(), res.DoneText())
	}
}

func TestChangeCancelledSendsNothing(t *testing.T) {
	reqs := ui.NewRequests()
	c := ui.NewChange[string](reqs.For(cardScreen))
	spec := ui.ChangeSpec[string]{Request: []string{"DELETE /x"}, Run: func(context.Context) (string, error) {
		t.Fatal("a cancelled change ran")
		return "", nil
	}}
	open := c.Ask(spec)().(ui.OpenDialogMsg)
	if _, done, cmd := c.Update(open.Spec.OnCancel); done || cmd != nil {
		t.Fatal("cancel ran something")
	}
	if c.Busy() {
		t.Fatal("still busy after cancel")
	}
	// A confirmation of the old question, arriving late, is ignored.
	if _, _, cmd := c.Update(open.Spec.OnConfirm); cmd != nil {
		t.Fatal("a stale confirmation ran the change")
	}
}

func TestChangeFailureIsReported(t *testing.T) {
	reqs := ui.NewRequests()
	c := ui.NewChange[string](reqs.For(cardScreen))
	boom := errors.New("refused")
	open := c.Ask(ui.ChangeSpec[string]{What: "order", Request: []string{"POST /v1/card/order"},
		Run: func(context.Context) (string, error) { return "", boom }})().(ui.OpenDialogMsg)
	res, done := drainChange(t, &c, func() tea.Msg { return open })
	if !done || !errors.Is(res.Err, boom) {
		t.Fatalf("result %+v", res)
	}
}

// Two flows never take each other's answers.
func TestChangeFlowsAreAddressed(t *testing.T) {
	reqs := ui.NewRequests()
	a := ui.NewChange[string](reqs.For(cardScreen))
	b := ui.NewChange[string](reqs.For(cardScreen))
	spec := ui.ChangeSpec[string]{Request: []string{"POST /a"}, Run: func(context.Context) (string, error) { return "a", nil }}
	openA := a.Ask(spec)().(ui.OpenDialogMsg)
	b.Ask(spec)
	if _, _, cmd := b.Update(openA.Spec.OnConfirm); cmd != nil {
		t.Fatal("flow b ran on flow a's confirmation")
	}
}

// A JSON body too wide for the confirmation box is shown one member a
// line; a narrow one stays on its line.
func TestConfirmationIndentsAWideJSONBody(t *testing.T) {
	wide := `{"productId":"prod_virtual_card","paymentMethod":"CRYPTO_EXTERNAL_DAIMO","note":"x"}`
	got := ui.BodyLinesForTest(wide, 40)
	if len(got) != 5 || strings.TrimSpace(got[2]) != `"paymentMethod": "CRYPTO_EXTERNAL_DAIMO",` {
		t.Fatalf("a wide body reads %q", got)
	}
	if got := ui.BodyLinesForTest(`{"a":1}`, 40); len(got) != 1 || got[0] != `{"a":1}` {
		t.Fatalf("a narrow body reads %q", got)
	}
	nested := ui.BodyLinesForTest(`{"name":"a, b","event_types":["card.frozen","card.unfrozen"],"is_active":true}`, 30)
	if len(nested) != 5 || nested[1] != `  "name": "a, b",` || nested[2] != `  "event_types": ["card.frozen", "card.unfrozen"],` {
		t.Fatalf("a body with a list reads %q", nested)
	}
	// Too tall for the screen, the body stays on one line, with a space
	// after its commas so that it wraps between elements.
	if got := ui.CompactBodyForTest(`{"event_types":["card.frozen","card.unfrozen"],"name":"a,b"}`, 30); len(got) != 1 ||
		got[0] != `{"event_types":["card.frozen", "card.unfrozen"], "name":"a,b"}` {
		t.Fatalf("the compact body reads %q", got)
	}
	if got := ui.BodyLinesForTest("POST /v1/order with a long path that is not JSON at all, wrapped", 20); len(got) != 1 {
		t.Fatalf("a line that is not JSON reads %q", got)
	}
}
