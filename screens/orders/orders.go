// Package orders is the Orders screen: the products the user may order,
// an order placed after a confirmation that shows the request, and the
// payment panel that follows the order until it is paid (payment.go).
package orders

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/keymap"
	"cardterm/ui/table"
)

// listKeys are the product list's bindings. Ordering is disabled in
// read-only mode; while the payment panel is open, its keys show instead.
type listKeys struct {
	Order key.Binding
	// Find looks a past order up by its id (a read: on in read-only mode).
	Find  key.Binding
	table table.KeyMap
	// filtering: the table's filter has the keys; enter applies it.
	filtering bool
}

// ShortHelp implements help.KeyMap.
func (k listKeys) ShortHelp() []key.Binding {
	if k.filtering {
		return []key.Binding{k.table.Accept, k.table.ClearFilter}
	}
	return []key.Binding{k.Order, k.Find, k.table.Up, k.table.Down, k.table.Filter}
}

// FullHelp implements help.KeyMap: the table's moves and filter, without
// its filter-mode keys (enter there orders) or marking (nothing to mark).
func (k listKeys) FullHelp() [][]key.Binding {
	if k.filtering {
		return [][]key.Binding{{k.table.Accept, k.table.ClearFilter, k.table.Backspace}}
	}
	t := k.table
	return [][]key.Binding{{k.Order, k.Find}, {t.Up, t.Down, t.PageUp, t.PageDown, t.Home, t.End}, {t.Filter}}
}

// placed is the answer to an order, with the product it was for.
type placed struct {
	product apiclient.Product
	order   apiclient.Order
}

// Screen lists the products the user may order, orders one after a
// confirmation and follows its payment.
type Screen struct {
	screenkit.Base
	keys listKeys

	table    table.Table
	products []apiclient.Product
	loadID   ui.RequestID
	loading  bool
	loadErr  error

	// order is the one order flow: its confirmation shows the request and
	// it is its own double-press guard.
	order ui.Change[placed]
	// refused is the gateway's last refusal of an order, shown under the
	// list until the next order.
	refused string
}

// New builds the orders screen.
func New(deps screenkit.Deps) *Screen {
	s := &Screen{Base: screenkit.NewBase(deps, screenkit.OrdersScreen, "Orders")}
	s.table = table.New(deps.Styles, []table.Column{
		{Title: "Product", Min: 20},
		{Title: "Eligible", Width: 16},
		{Title: "Product id", Width: 22},
	})
	order := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "order product"))
	screenkit.DisableInReadOnly(deps.ReadOnly, &order)
	find := keymap.Bind("orders.again") // the same find as the look-up's own
	s.keys = listKeys{Order: order, Find: find, table: table.Keys()}
	s.order = ui.NewChange[placed](s.Requests)
	return s
}

// KeyMap implements ui.Screen: the payment panel's keys while it is open.
func (s *Screen) KeyMap() help.KeyMap {
	k := s.keys
	k.filtering = s.table.Filtering()
	return k
}

// CapturesKeys implements ui.Screen: only the table filter takes letters.
func (s *Screen) CapturesKeys() bool {
	return s.table.Filtering()
}

// Enter loads the products; an open payment panel stays as it is (its
// polling never stopped).
func (s *Screen) Enter() tea.Cmd { return s.load() }

func (s *Screen) load() tea.Cmd {
	s.loading = true
	return ui.Start(s.Requests, &s.loadID, s.Deps.Client.Products)
}

// setProducts shows products in the table.
func (s *Screen) setProducts(ps []apiclient.Product) {
	s.products = ps
	rows := make([][]string, len(ps))
	for i, p := range ps {
		eligible := "✓ eligible"
		if !p.IsEligible {
			eligible = "✗ not eligible"
		}
		rows[i] = []string{p.Description, eligible, p.ID}
	}
	s.table.SetRows(rows)
}

// Update implements ui.Screen.
func (s *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	if res, done, cmd := s.order.Update(msg); done {
		return s, s.placed(res)
	} else if cmd != nil {
		s.refused = ""
		return s, cmd
	}
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case ui.Result[[]apiclient.Product]:
		cmd = s.loaded(msg)
	case ui.RefreshMsg:
		cmd = s.load()
	case tea.KeyPressMsg:
		cmd = s.handleKey(msg)
	case ui.BodyMouseMsg:
		cmd = s.mouse(msg)
	}
	// The product list's detail may have changed height.
	s.layout()
	return s, cmd
}

func (s *Screen) loaded(msg ui.Result[[]apiclient.Product]) tea.Cmd {
	if msg.ID != s.loadID {
		return nil
	}
	s.loading = false
	s.loadErr = msg.Err
	if msg.Err != nil {
		s.setProducts(nil)
		return screenkit.ReadFailed("loading the products", msg.Err, 403)
	}
	s.setProducts(msg.Value)
	return nil
}

func (s *Screen) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if !s.table.Filtering() && key.Matches(msg, s.keys.Order) {
		return s.confirmOrder()
	}
	if !s.table.Filtering() && key.Matches(msg, s.keys.Find) {
		lookup := newOrderLookup(s.Deps, s.Requests, s.Width)
		return ui.OpenLayer(lookup, lookup.form.Focus())
	}
	var cmd tea.Cmd
	s.table, cmd = s.table.Update(msg)
	return cmd
}

// selected is the product under the cursor.
func (s *Screen) selected() (apiclient.Product, bool) {
	return screenkit.Selected(&s.table, s.products)
}

// ineligibleReason is why the gateway says a product is not eligible,
// when it says so in a field the interface does not show.
func ineligibleReason(p apiclient.Product) string {
	for _, k := range []string{"ineligibleReason", "reason", "eligibilityReason", "eligibility.reason"} {
		if v, _ := p.Raw.Field(k); strings.TrimSpace(v) != "" && v != "null" {
			return v
		}
		if v := strings.Trim(strings.TrimSpace(string(p.Extra[k])), `"`); v != "" && v != "null" {
			return v
		}
	}
	return ""
}

// confirmOrder refuses an ineligible product before anything is sent and
// asks to confirm an eligible one, showing the exact request.
func (s *Screen) confirmOrder() tea.Cmd {
	if s.order.Busy() {
		return nil
	}
	p, ok := s.selected()
	if !ok {
		return ui.Notify(theme.ToneInfo, "no product selected")
	}
	if !p.IsEligible {
		why := "the gateway marks it not eligible for this account"
		if r := ineligibleReason(p); r != "" {
			why += " (" + r + ")"
		}
		return ui.Notify(theme.ToneWarn, p.Description+" cannot be ordered: "+why+". Nothing was sent.")
	}
	client, method := s.Deps.Client, s.paymentMethod()
	return s.order.Ask(ui.ChangeSpec[placed]{
		Title: "Order " + p.Description + "?",
		Request: append(apiclient.PlaceOrderCall(p.ID, method).Lines(),
			"X-Client-ID: "+client.OrderClientID()),
		Lines: []string{"The gateway answers with the payment details: the amount, and the address to pay in crypto. " +
			"Nothing is paid until you send the funds; the status is checked every 3 s."},
		ConfirmLabel: "order",
		Tone:         theme.ToneWarn,
		What:         "ordering " + p.Description,
		Done:         "order placed: pay to the address shown",
		Run: func(ctx context.Context) (placed, error) {
			order, err := client.PlaceOrder(ctx, p.ID, method)
			return placed{product: p, order: order}, err
		},
	})
}

// placed opens the payment panel, or says why the gateway refused; either
// way the product list is read again.
func (s *Screen) placed(res ui.ChangeResult[placed]) tea.Cmd {
	reload := s.load()
	if res.Err != nil {
		if apiclient.IsStatus(res.Err, 422) || apiclient.IsStatus(res.Err, 403) {
			s.refused = res.Value.product.Description + ": " + apiclient.ErrorMessage(res.Err)
		}
		s.layout()
		return tea.Batch(reload, screenkit.Report(res))
	}
	pay := newPayment(s.Deps, s.Requests, res.Value.product, res.Value.order)
	pay.SetSize(s.Width, s.Height)
	return ui.OpenLayer(pay, pay.open(), reload, screenkit.Report(res))
}

// CopyValue implements ui.Copier: the payment address while the panel is
// open, else the selected product's id.
func (s *Screen) CopyValue() (label, value string, ok bool) {
	if p, ok := s.selected(); ok {
		return "product id", p.ID, true
	}
	return "", "", false
}

// paymentMethod is the paymentMethod orders send: the setting
// order-payment-method, else the one the gateway's reference names.
func (s *Screen) paymentMethod() string {
	if m := s.Deps.OrderPaymentMethod; m != "" {
		return m
	}
	return apiclient.PaymentMethodDaimo
}
