package orders

import (
	"cardterm/ui/keymap"

	"context"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/sanitize"
)

// orderLookup looks a past order up by its id (GET /v1/order/{orderId}): a
// one-field form, then the record with every field the gateway sent. An
// unknown id is a 404, said as such, never shown as a status. It is a
// layer over the Orders screen.
type orderLookup struct {
	deps          screenkit.Deps
	requests      ui.Owner
	keys          lookupKeys
	width, height int
	closed        bool

	form  *form.Form
	reqID ui.RequestID
	found *apiclient.OrderStatus
}

// lookedUp is the answer to a look-up, with the id asked.
type lookedUp struct {
	id     string
	status apiclient.OrderStatus
}

// lookupKeys are the result's bindings (the form has its own).
type lookupKeys struct {
	Again, Back key.Binding
}

func (k lookupKeys) ShortHelp() []key.Binding  { return []key.Binding{k.Again, k.Back} }
func (k lookupKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

func newOrderLookup(deps screenkit.Deps, requests ui.Owner, width int) *orderLookup {
	l := &orderLookup{deps: deps, requests: requests, width: width, keys: lookupKeys{
		Again: keymap.Bind("orders.again"),
		Back:  keymap.Bind("orders.back"),
	}}
	l.newForm("")
	return l
}

// newForm opens the form, holding id as typed.
func (l *orderLookup) newForm(id string) {
	l.form = form.New(l.deps.Styles, form.Spec{
		Title:  "Look up an order by id",
		Lines:  []string{"GET /v1/order/{orderId}"},
		Submit: "look up",
		Fields: []form.Field{{Key: "orderId", Label: "Order id", Value: id, Placeholder: "the orderId the order answered with",
			Check: func(v string) string {
				if v == "" {
					return "an order id is required"
				}
				return ""
			}}},
	})
	l.form.SetWidth(max(l.width-2, 20))
	l.found = nil
}

// setWidth follows the screen's width.
func (l *orderLookup) setWidth(width int) {
	l.width = width
	l.form.SetWidth(max(width-2, 20))
}

// capturesKeys: the form takes every letter.
func (l *orderLookup) capturesKeys() bool { return l.found == nil }

// keyMap is the form's keys, or the result's.
func (l *orderLookup) keyMap() help.KeyMap {
	if l.found == nil {
		return l.form.KeyMap()
	}
	return l.keys
}

// update takes a key or the answer; closed is true when the look-up is left.
func (l *orderLookup) update(msg tea.Msg) (closed bool, cmd tea.Cmd) {
	switch msg := msg.(type) {
	case ui.Result[lookedUp]:
		if msg.ID != l.reqID {
			return false, nil
		}
		l.form.SetBusy(false)
		switch {
		case apiclient.IsNotFound(msg.Err):
			// Not a state of an order: the id names none this user has.
			said := strings.TrimSuffix(apiclient.ErrorMessage(msg.Err), " (404)")
			l.form.SetProblem("No order with the id " + msg.Value.id + " for this user (404). The gateway said: " + said)
			return false, nil
		case msg.Err != nil:
			return false, screenkit.FormFailed(l.form, "looking the order up", msg.Err)
		}
		status := readOrderStatus(msg.Value.status)
		l.found = &status
		return false, nil
	case tea.PasteMsg:
		// A pasted order id goes to the form as typing does.
		if l.found == nil {
			return false, screenkit.ToForm(l.form, msg)
		}
	case tea.KeyPressMsg:
		if l.found != nil {
			switch {
			case key.Matches(msg, l.keys.Back):
				return true, nil
			case key.Matches(msg, l.keys.Again):
				l.newForm("")
				return false, l.form.Focus()
			}
			return false, nil
		}
		event, cmd := l.form.Update(msg)
		switch event {
		case form.Cancel:
			return true, nil
		case form.Submit:
			return false, l.send(l.form.Value("orderId"))
		}
		return false, cmd
	}
	return false, nil
}

// Update implements layer.Layer: keys, a paste and the answer; a click
// focuses the form's field.
func (l *orderLookup) Update(msg tea.Msg) tea.Cmd {
	if click, ok := msg.(ui.BodyMouseMsg); ok {
		if l.found == nil {
			return screenkit.ClickForm(l.form, 0, click)
		}
		return nil
	}
	closed, cmd := l.update(msg)
	l.closed = l.closed || closed
	return cmd
}

// SetSize implements layer.Layer.
func (l *orderLookup) SetSize(width, height int) {
	l.setWidth(width)
	l.height = height
}

// View implements layer.Layer.
func (l *orderLookup) View() string { return screenkit.Place(l.view(), l.width, l.height) }

// KeyMap implements layer.Layer.
func (l *orderLookup) KeyMap() help.KeyMap { return l.keyMap() }

// CapturesKeys implements layer.Typist.
func (l *orderLookup) CapturesKeys() bool { return l.capturesKeys() }

// Done implements layer.Layer.
func (l *orderLookup) Done() bool { return l.closed }

// Inspect implements ui.Inspectable.
func (l *orderLookup) Inspect() (string, []byte, bool) { return l.inspect() }

// TypingPlain implements ui.PlainTyping: an order id is not a secret.
func (l *orderLookup) TypingPlain() bool { return l.form.TypingPlain() }

// send looks id up; the function captures the client and the id only.
func (l *orderLookup) send(id string) tea.Cmd {
	client := l.deps.Client
	l.form.SetBusy(true)
	return ui.Start(l.requests, &l.reqID, func(ctx context.Context) (lookedUp, error) {
		st, err := client.OrderStatus(ctx, id)
		return lookedUp{id: id, status: st}, err
	})
}

// inspect is the order found, as the gateway sent it.
func (l *orderLookup) inspect() (string, []byte, bool) {
	if l.found == nil {
		return "", nil, false
	}
	return screenkit.Inspected("order "+l.form.Value("orderId"), l.found.Raw)
}

// view draws the form, or the order found with every field it carries.
func (l *orderLookup) view() string {
	st := l.deps.Styles
	if l.found == nil {
		return l.form.View()
	}
	status := l.found.Status
	badge := st.Muted.Render("not given")
	if status != "" {
		badge = screenkit.Badge(st, status, statusTone(status))
	}
	fields := []screenkit.Field{{Label: "Status", Styled: badge}}
	if l.found.Final() {
		text, _ := finalText(l.deps, *l.found)
		fields = append(fields, screenkit.Field{Label: "Outcome", Value: text})
	}
	fields = append(fields, screenkit.OtherFields(l.found.Raw, []screenkit.KnownField{{Names: []string{"status"}}})...)
	head := st.Title.Render("Order "+sanitize.Text(l.form.Value("orderId"))) + "  " + st.Muted.Render("as the gateway sent it · "+keymap.Key("global.inspect")+" shows its JSON")
	hint := st.Text(theme.ToneNeutral).Render(l.keys.Again.Help().Key + " looks up another order · " + l.keys.Back.Help().Key + " goes back")
	return head + "\n\n" + screenkit.RenderFields(st, fields, l.width) + "\n\n" + hint
}
