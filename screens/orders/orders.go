package screens

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/theme"
	"cardterm/ui"
)

// ordKeys are the orders screen's bindings. Ordering is disabled in
// read-only mode; while the payment panel is open its own keys show.
type ordKeys struct {
	Order, Close, Recheck, Copy, QR key.Binding
	table                           help.KeyMap
	panel                           bool
}

func newOrdKeys(readOnly bool, table help.KeyMap) ordKeys {
	k := ordKeys{
		Order:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "order product")),
		Close:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close payment")),
		Recheck: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "check status now")),
		Copy:    key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy address")),
		QR:      key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "QR code alone")),
		table:   table,
	}
	if readOnly {
		k.Order.SetEnabled(false)
	}
	return k
}

// ShortHelp implements help.KeyMap.
func (k ordKeys) ShortHelp() []key.Binding {
	if k.panel {
		return []key.Binding{k.Recheck, k.Copy, k.QR, k.Close}
	}
	return append([]key.Binding{k.Order}, k.table.ShortHelp()...)
}

// FullHelp implements help.KeyMap.
func (k ordKeys) FullHelp() [][]key.Binding {
	if k.panel {
		return [][]key.Binding{{k.Recheck, k.Copy, k.QR, k.Close}}
	}
	return append([][]key.Binding{{k.Order}}, k.table.FullHelp()...)
}

// Messages of the order confirmation.
type (
	ordConfirmMsg struct{ product apiclient.Product }
	ordCancelMsg  struct{}
)

// ordPlaced is the answer to an order, with the product it was for.
type ordPlaced struct {
	product apiclient.Product
	order   apiclient.Order
}

// Orders lists the products the user may order, orders one after a
// confirmation and follows its payment (orders_payment.go).
type Orders struct {
	deps Deps
	keys ordKeys

	table    ui.Table
	products []apiclient.Product
	loadID   ui.RequestID
	loading  bool
	loadErr  error

	// ordering holds the product being confirmed or ordered; while set,
	// enter does nothing, so a double press sends one order.
	ordering *apiclient.Product
	placeID  ui.RequestID
	placing  bool
	// refused is the gateway's last refusal of an order, shown under the
	// list until the next order.
	refused string

	pay *ordPayment
	// tickSeq numbers poll timers across panels: only the latest timer
	// counts, so a closed panel's timer never polls a new one.
	tickSeq int
}

// NewOrders builds the orders screen.
func NewOrders(deps Deps) *Orders {
	o := &Orders{deps: deps}
	o.table = ui.NewTable(deps.Styles, []ui.Column{
		{Title: "Product", Min: 20},
		{Title: "Eligible", Width: 16},
		{Title: "Product id", Width: 22},
	})
	o.keys = newOrdKeys(deps.ReadOnly, o.table.KeyMap())
	return o
}

// ID implements ui.Screen.
func (o *Orders) ID() ui.ScreenID { return ui.ScreenOrders }

// Title implements ui.Screen.
func (o *Orders) Title() string { return "Orders" }

// KeyMap implements ui.Screen.
func (o *Orders) KeyMap() help.KeyMap {
	k := o.keys
	k.panel = o.pay != nil
	return k
}

// CapturesKeys implements ui.Screen: only the table filter takes letters.
func (o *Orders) CapturesKeys() bool { return o.pay == nil && o.table.Filtering() }

// Enter loads the products; an open payment panel stays as it is (its
// polling never stopped).
func (o *Orders) Enter() tea.Cmd { return o.load() }

func (o *Orders) load() tea.Cmd {
	client := o.deps.Client
	o.loading = true
	var cmd tea.Cmd
	o.loadID, cmd = ui.Go(o.deps.Requests, func(ctx context.Context) ([]apiclient.Product, error) {
		return client.Products(ctx)
	})
	return cmd
}

// setProducts shows products in the table.
func (o *Orders) setProducts(ps []apiclient.Product) {
	o.products = ps
	rows := make([][]string, len(ps))
	for i, p := range ps {
		elig := "✓ eligible"
		if !p.IsEligible {
			elig = "✗ not eligible"
		}
		rows[i] = []string{p.Description, elig, p.ID}
	}
	o.table.SetRows(rows)
}

// Update implements ui.Screen.
func (o *Orders) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case ui.Result[[]apiclient.Product]:
		if msg.ID != o.loadID {
			return o, nil
		}
		o.loading = false
		o.loadErr = msg.Err
		if msg.Err != nil {
			o.setProducts(nil)
			if apiclient.IsStatus(msg.Err, 403) {
				return o, nil // shown on the screen
			}
			return o, failed("loading the products", msg.Err)
		}
		o.setProducts(msg.Value)
	case ordConfirmMsg:
		return o, o.place(msg.product)
	case ordCancelMsg:
		o.ordering = nil
	case ui.Result[ordPlaced]:
		if msg.ID != o.placeID {
			return o, nil
		}
		return o, o.placed(msg)
	case ui.Result[apiclient.OrderStatus], ordTickMsg, ui.Result[ordDecimals]:
		return o, o.payUpdate(msg)
	case ui.RefreshMsg:
		if o.pay != nil {
			return o, o.recheck()
		}
		return o, o.load()
	case ui.SignedOutMsg, ui.SessionExpiredMsg:
		seq := o.tickSeq
		*o = *NewOrders(o.deps)
		o.tickSeq = seq + 1 // timers of the old session poll nothing
	case tea.KeyPressMsg:
		return o, o.handleKey(msg)
	}
	return o, nil
}

func (o *Orders) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if o.pay != nil {
		switch {
		case key.Matches(msg, o.keys.Close):
			o.closePayment()
		case key.Matches(msg, o.keys.QR):
			o.pay.qrOnly = !o.pay.qrOnly
		}
		return nil
	}
	if !o.table.Filtering() && msg.String() == "enter" {
		if o.deps.ReadOnly {
			return refuseReadOnly("ordering products")
		}
		return o.confirmOrder()
	}
	var cmd tea.Cmd
	o.table, cmd = o.table.Update(msg)
	return cmd
}

// selected is the product under the cursor.
func (o *Orders) selected() (apiclient.Product, bool) {
	if i, ok := o.table.Cursor(); ok && i < len(o.products) {
		return o.products[i], true
	}
	return apiclient.Product{}, false
}

// ordIneligibleReason is why the gateway says a product is not eligible,
// when it says so in a field the interface does not show.
func ordIneligibleReason(p apiclient.Product) string {
	for _, k := range []string{"ineligibleReason", "reason", "eligibilityReason"} {
		if v := strings.Trim(strings.TrimSpace(string(p.Extra[k])), `"`); v != "" && v != "null" {
			return v
		}
	}
	return ""
}

// confirmOrder refuses an ineligible product before anything is sent and
// asks to confirm an eligible one, showing the exact request.
func (o *Orders) confirmOrder() tea.Cmd {
	if o.ordering != nil || o.placing {
		return nil
	}
	p, ok := o.selected()
	if !ok {
		return ui.Notify(theme.ToneInfo, "no product selected")
	}
	if !p.IsEligible {
		why := "the gateway marks it not eligible for this account"
		if r := ordIneligibleReason(p); r != "" {
			why += " (" + r + ")"
		}
		return ui.Notify(theme.ToneWarn, p.Description+" cannot be ordered: "+why+". Nothing was sent.")
	}
	o.ordering = &p
	clientID := o.deps.Client.Config().ClientID
	return ui.Confirm(ui.ConfirmSpec{
		Title: "Order " + p.Description + "?",
		Lines: []string{
			"POST /v1/order  (X-Client-ID: " + clientID + ")",
			apiclient.OrderRequestBody(p.ID, apiclient.PaymentMethodDaimo),
			"",
			"The gateway answers with the payment details: the amount, and the address to pay in crypto. " +
				"Nothing is paid until you send the funds; the status is checked every 3 s.",
		},
		ConfirmLabel: "order",
		Tone:         theme.ToneWarn,
		OnConfirm:    ordConfirmMsg{product: p},
		OnCancel:     ordCancelMsg{},
	})
}

// place sends the confirmed order.
func (o *Orders) place(p apiclient.Product) tea.Cmd {
	if o.placing || o.ordering == nil || o.ordering.ID != p.ID {
		return nil
	}
	o.placing, o.refused = true, ""
	client := o.deps.Client
	var cmd tea.Cmd
	o.placeID, cmd = ui.Go(o.deps.Requests, func(ctx context.Context) (ordPlaced, error) {
		order, err := client.PlaceOrder(ctx, p.ID, apiclient.PaymentMethodDaimo)
		return ordPlaced{product: p, order: order}, err
	})
	return cmd
}

// placed opens the payment panel, or says why the gateway refused; either
// way the product list is read again.
func (o *Orders) placed(msg ui.Result[ordPlaced]) tea.Cmd {
	o.ordering, o.placing = nil, false
	reload := o.load()
	if msg.Err != nil {
		if apiclient.IsStatus(msg.Err, 422) || apiclient.IsStatus(msg.Err, 403) {
			o.refused = msg.Value.product.Description + ": " + apiclient.ErrorMessage(msg.Err)
		}
		return tea.Batch(failed("ordering "+msg.Value.product.Description, msg.Err), reload)
	}
	return tea.Batch(o.openPayment(msg.Value.product, msg.Value.order), reload,
		ui.Notify(theme.ToneOK, "order placed: pay to the address shown"))
}

// View implements ui.Screen.
func (o *Orders) View(width, height int) string {
	if o.pay != nil {
		return place(o.paymentView(width, height), width, height)
	}
	st := o.deps.Styles
	head := st.Title.Render("Orders")
	switch {
	case o.loading && o.products == nil:
		head += "  " + st.Muted.Render("loading…")
	case o.placing:
		head += "  " + st.Muted.Render("ordering…")
	default:
		eligible := 0
		for _, p := range o.products {
			if p.IsEligible {
				eligible++
			}
		}
		head += "  " + st.Muted.Render(ui.FormatCount(len(o.products))+" "+plural(len(o.products), "product", "products")+", "+
			ui.FormatCount(eligible)+" eligible")
	}
	lines := []string{head}
	switch {
	case apiclient.IsStatus(o.loadErr, 403):
		lines = append(lines, "", st.Text(theme.ToneWarn).Render("The gateway does not allow this account to order products."))
		return place(strings.Join(lines, "\n"), width, height)
	case o.loadErr != nil:
		lines = append(lines, "", st.Text(theme.ToneDanger).Render("Could not load the products: "+ui.Sanitize(apiclient.ErrorMessage(o.loadErr))),
			st.Muted.Render("r retries"))
		return place(strings.Join(lines, "\n"), width, height)
	}
	lines = append(lines, "")
	detail := o.detailView(width)
	tableH := min(len(o.products)+2, max(height-len(lines)-ordLines(detail)-1, 3))
	o.table.SetSize(width, tableH)
	return ui.FitBlock(strings.Join(lines, "\n")+"\n"+o.table.View()+"\n\n"+detail, width, height)
}

// detailView describes the selected product and what enter does with it.
func (o *Orders) detailView(width int) string {
	st := o.deps.Styles
	p, ok := o.selected()
	if !ok {
		return st.Muted.Render("No products to order.")
	}
	elig := badge(st, "ELIGIBLE", theme.ToneOK)
	if !p.IsEligible {
		elig = badge(st, "NOT ELIGIBLE", theme.ToneWarn)
	}
	fields := []field{
		{label: "Product", value: p.Description},
		{label: "Product id", value: p.ID},
		{label: "Eligibility", styled: elig},
	}
	if r := ordIneligibleReason(p); r != "" && !p.IsEligible {
		fields = append(fields, field{label: "Why", value: r})
	}
	fields = append(fields, field{label: "Payment", value: "crypto, through Daimo (" + apiclient.PaymentMethodDaimo + ")"})
	var hint string
	switch {
	case o.deps.ReadOnly:
		hint = st.Muted.Render("read-only mode: ordering is disabled")
	case p.IsEligible:
		hint = st.KeyHint.Render("enter") + " " + st.KeyDesc.Render("orders it: you confirm first, then the payment details show")
	default:
		hint = st.Text(theme.ToneWarn).Render("This product cannot be ordered for this account.")
	}
	out := section(st, "Selected product", renderFields(st, fields, width)) + "\n\n" + hint
	if o.refused != "" {
		out += "\n\n" + st.Text(theme.ToneDanger).Render(ui.Sanitize("The gateway refused the last order: "+o.refused))
	}
	return out
}

// ordLines is the number of lines of a rendered block.
func ordLines(s string) int { return strings.Count(s, "\n") + 1 }
