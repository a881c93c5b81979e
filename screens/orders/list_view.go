package orders

import (
	"github.com/charmbracelet/x/ansi"
	"strings"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// SetSize implements ui.Screen.
func (s *Screen) SetSize(width, height int) {
	s.Width, s.Height = width, height
	s.layout()
}

// layout gives the table the room the heading and the selected product's
// detail leave; the detail's height changes with the selection, so Update
// calls it after every message as SetSize does.
func (s *Screen) layout() {
	detail := lineCount(s.detailView())
	s.table.SetSize(s.Width, min(len(s.products)+2, max(s.Height-2-detail-1, 3)))
}

// View implements ui.Screen.
func (s *Screen) View() string {
	st := s.Deps.Styles
	head := st.Title.Render("Orders")
	switch {
	case s.loading && s.products == nil:
		head += "  " + st.Muted.Render("loading…")
	case s.order.Running():
		head += "  " + st.Muted.Render("ordering…")
	default:
		eligible := 0
		for _, p := range s.products {
			if p.IsEligible {
				eligible++
			}
		}
		head += "  " + st.Muted.Render(ui.FormatCount(len(s.products))+" "+screenkit.Plural(len(s.products), "product", "products")+", "+
			ui.FormatCount(eligible)+" eligible")
	}
	lines := []string{head}
	switch {
	case apiclient.IsStatus(s.loadErr, 403):
		lines = append(lines, "", st.Text(theme.ToneWarn).Render("The gateway does not allow this account to order products."))
		return screenkit.Place(strings.Join(lines, "\n"), s.Width, s.Height)
	case s.loadErr != nil:
		// Wrapped, not cut: a missing setting is named at its end.
		why := ansi.Wrap("Could not load the products: "+sanitize.Text(apiclient.ErrorMessage(s.loadErr)), max(s.Width-2, 20), " ")
		lines = append(lines, "", st.Text(theme.ToneDanger).Render(why), st.Muted.Render("r retries"))
		return screenkit.Place(strings.Join(lines, "\n"), s.Width, s.Height)
	}
	lines = append(lines, "")
	return ui.FitBlock(strings.Join(lines, "\n")+"\n"+s.table.View()+"\n\n"+s.detailView(), s.Width, s.Height)
}

// detailView describes the selected product and what enter does with it.
func (s *Screen) detailView() string {
	st, width := s.Deps.Styles, s.Width
	p, ok := s.selected()
	if !ok {
		return st.Muted.Render("No products to order.")
	}
	eligible := screenkit.Badge(st, "ELIGIBLE", theme.ToneOK)
	if !p.IsEligible {
		eligible = screenkit.Badge(st, "NOT ELIGIBLE", theme.ToneWarn)
	}
	known := []screenkit.KnownField{
		{Field: screenkit.Field{Label: "Product", Value: p.Description}, Names: []string{"description"}},
		{Field: screenkit.Field{Label: "Product id", Value: p.ID}, Names: []string{"id"}},
		{Field: screenkit.Field{Label: "Eligibility", Styled: eligible}, Names: []string{"isEligible"}},
	}
	fields := []screenkit.Field{known[0].Field, known[1].Field, known[2].Field}
	if r := ineligibleReason(p); r != "" && !p.IsEligible {
		fields = append(fields, screenkit.Field{Label: "Why", Value: r})
	}
	// Whatever else the gateway says of the product (a price, a region).
	for _, f := range screenkit.OtherFields(p.Raw, known) {
		if f.Value != ineligibleReason(p) {
			fields = append(fields, f)
		}
	}
	fields = append(fields, screenkit.Field{Label: "Payment", Value: paymentText(s.paymentMethod())})
	var hint string
	switch {
	case !s.keys.Order.Enabled():
		hint = st.Muted.Render("read-only mode: ordering is disabled")
	case p.IsEligible:
		hint = st.KeyHint.Render(s.keys.Order.Help().Key) + " " + st.KeyDesc.Render("orders it: you confirm first, then the payment details show")
	default:
		hint = st.Text(theme.ToneWarn).Render("This product cannot be ordered for this account.")
	}
	out := screenkit.Section(st, "Selected product", screenkit.RenderFields(st, fields, width)) + "\n\n" + hint
	if s.refused != "" {
		out += "\n\n" + st.Text(theme.ToneDanger).Render(sanitize.Text("The gateway refused the last order: "+s.refused))
	}
	return out
}

// lineCount is the number of lines of a rendered block.
func lineCount(s string) int { return strings.Count(s, "\n") + 1 }

// paymentText says how an order is paid: "crypto, through Daimo
// (CRYPTO_EXTERNAL_DAIMO)".
func paymentText(method string) string {
	provider, ok := strings.CutPrefix(method, "CRYPTO_EXTERNAL_")
	if !ok || provider == "" {
		return method
	}
	name := strings.ToUpper(provider[:1]) + strings.ToLower(provider[1:])
	return "crypto, through " + name + " (" + method + ")"
}
