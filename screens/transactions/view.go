package transactions

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/domain/ledger"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui/sanitize"
)

// detailHeight is the height of the detail pane for a body height.
func detailHeight(height int) int {
	if height < 24 {
		return max(height/3, 4)
	}
	return transactionDetailHeight
}

// SetSize implements ui.Screen: the category column goes on narrow
// terminals; rows, cursor and quick filter stay.
func (t *Screen) SetSize(width, height int) {
	t.Width, t.Height = width, height
	t.table.SetColumns(transactionColumns(width < transactionNarrowBelow, t.shape))
	t.table.SetSize(width, max(height-2-detailHeight(height), 3))
	t.staleFrame()
	t.refreshFrame()
}

// View implements ui.Screen: the heading and the detail pane come built
// from Update (frame.go); only the table is drawn here.
func (t *Screen) View() string {
	width, height := t.Width, t.Height
	st := t.Deps.Styles
	head := t.frame.head
	switch {
	case t.loaded && t.loadErr == nil:
		// The list: drawn below.
	case apiclient.IsNotFound(t.loadErr):
		hint := "Transactions appear once you have a card (screen 2, n orders one)."
		if t.Deps.ReadOnly { // read-only mode names no key that orders
			hint = "Transactions appear once the customer has a card."
		}
		return screenkit.Place(head+"\n\n"+st.Subtitle.Render("No card yet")+"\n"+st.Muted.Render(hint), width, height)
	case apiclient.IsStatus(t.loadErr, 403):
		return screenkit.Place(head+"\n\n"+st.Text(theme.ToneWarn).Render("The gateway does not allow card operations for this account.")+"\n"+
			st.Muted.Render(sanitize.Text(apiclient.ErrorMessage(t.loadErr))), width, height)
	case !t.loaded && t.loadErr != nil:
		return screenkit.Place(head+"\n\n"+st.Text(theme.ToneDanger).Render("Could not load transactions: "+sanitize.Text(apiclient.ErrorMessage(t.loadErr)))+
			"\n"+st.Muted.Render("r retries"), width, height)
	case !t.loaded:
		return screenkit.Place(head+"\n\n"+st.Muted.Render("Loading transactions…"), width, height)
	}
	table := t.table.View()
	var b strings.Builder
	b.Grow(len(head) + len(table) + len(t.frame.detail) + 512)
	b.WriteString(head)
	b.WriteByte('\n')
	t.writeHighlighted(&b, table)
	b.WriteByte('\n')
	b.WriteString(t.frame.detail)
	return screenkit.Place(b.String(), width, height)
}

// summaryHints are the keys the line beside the title names after the
// filters, each only when it fits whole: the footer and help name them
// too. They are the bindings' own keys, so a keys file moves them here.
func (k keyMap) summaryHints() []string {
	return []string{
		k.Filters.Help().Key + " filters",
		k.Next.Help().Key + "/" + k.Prev.Help().Key + " pages",
		k.Export.Help().Key + " export",
	}
}

// summary is the line beside the title in width cells: page, filters,
// loading, then the hints that fit. The filters in effect come first and
// are cut only when they alone do not fit.
func (t *Screen) summary(width int) string {
	parts := []string{fmt.Sprintf("page %d", t.filter.Page+1)}
	if t.filter.DateFrom != "" {
		parts = append(parts, t.filter.DateFrom+" to "+t.filter.DateTo)
	}
	if len(t.filter.MCCCategories) > 0 {
		parts = append(parts, "category "+strings.Join(t.filter.MCCCategories, ","))
	}
	if t.filter.SearchKey != "" {
		parts = append(parts, "search \""+t.filter.SearchKey+"\"")
	}
	if t.tag != "" {
		parts = append(parts, "#"+t.tag+" from every page")
	}
	if t.loading {
		parts = append(parts, "loading…")
	} else if t.atEnd {
		parts = append(parts, "last page")
	}
	line := sanitize.Text(strings.Join(parts, " · "))
	for _, hint := range t.keys.summaryHints() {
		if ansi.StringWidth(line+" · "+hint) > width {
			break
		}
		line += " · " + hint
	}
	return ansi.Truncate(line, max(width, 0), "…")
}

// detailView is the pane for the selected transaction: amounts and fees,
// status, decline reason, merchant, MCC, and every field the app does not
// know.
func (t *Screen) detailView(width, height int) string {
	st := t.Deps.Styles
	x, ok := t.selected()
	if !ok {
		return st.Muted.Render("no transaction selected")
	}
	reason := ""
	if x.DeclineReason != nil {
		reason = *x.DeclineReason
	}
	money := func(a apiclient.Decimal, cur string) string {
		if a == "" {
			return ""
		}
		return strings.TrimSpace(string(a) + " " + cur)
	}
	status := screenkit.Badge(st, x.Status, transactionTones.Of(x.Status))
	known := func(f screenkit.Field, names ...string) screenkit.KnownField {
		return screenkit.KnownField{Field: f, Names: names}
	}
	leftKnown := []screenkit.KnownField{
		known(screenkit.Field{Label: "Status", Styled: status}, "status", "declineReason"),
		known(screenkit.Field{Label: "Amount", Value: transactionOr(signedAmount(x), ledger.NoAmount)}, amountNames()...),
		known(screenkit.Field{Label: "Billed", Value: signedMoney(x.Sign, x.BillingAmount, x.BillingCurrency)}, ledger.TransactionBillingNames...),
		known(screenkit.Field{Label: "Fee", Value: money(x.FeeAmount, x.FeeCurrency)}, ledger.TransactionFeeNames...),
		known(screenkit.Field{Label: "Sign", Value: x.Sign}, ledger.TransactionSignNames...),
		known(screenkit.Field{Label: "Date", Value: screenkit.FormatTime(x.DateTime)}, "dateTime"),
	}
	if reason != "" || x.Status == apiclient.TxDeclined {
		danger := t.frame.danger
		declined := known(screenkit.Field{Label: "Declined", Styled: danger[0] + transactionOr(sanitize.Text(reason), "no reason given") + danger[1]}, "declineReason", "status")
		leftKnown = append(leftKnown[:1], append([]screenkit.KnownField{declined}, leftKnown[1:]...)...)
	}
	rightKnown := []screenkit.KnownField{
		known(screenkit.Field{Label: "Merchant", Value: x.MerchantNameLocation}, "merchantNameLocation"),
		known(screenkit.Field{Label: "Category", Value: strings.TrimSpace(x.MCC + " " + x.MCCCategory)}, slices.Concat(ledger.TransactionMCCNames, ledger.TransactionCategoryName)...),
		known(screenkit.Field{Label: "Id", Value: x.ID}, "id"),
	}
	// Every field the gateway sent: the known ones it carries on the left,
	// the rest (its own names, nested ones flattened) on the right.
	sent := x.Raw.Fields()
	left := screenkit.PresentFieldsIn(x.Raw, sent, leftKnown)
	if x.TransactionAmount == "" && x.BillingAmount == "" {
		// No member holds an amount: the pane says so rather than
		// leaving the line out.
		at := min(1, len(left))
		left = append(left[:at], append([]screenkit.Field{{Label: "Amount", Value: ledger.NoAmount}}, left[at:]...)...)
	}
	right := append(append(t.noteFields(x), screenkit.PresentFieldsIn(x.Raw, sent, rightKnown)...),
		screenkit.OtherFieldsIn(sent, append(leftKnown, rightKnown...))...)
	if len(left) == 0 {
		half := (len(right) + 1) / 2
		left, right = right[:half], right[half:]
	}
	colW := max((width-3)/2, 20)
	l := screenkit.RenderFields(st, left, colW)
	// The right column sits beside the left one's content, not half a
	// wide terminal away; it takes the rest of the width.
	leftW := min(screenkit.BlockWidth(l), colW)
	r := screenkit.RenderFields(st, right, max(width-leftW-3, 20))
	pane := screenkit.SideBySide(l, r, leftW, "   ")
	return t.frame.detailTitle + "\n" + firstLines(pane, height-1)
}

// transactionTones colours a transaction status.
var transactionTones = screenkit.StateTones{
	{State: apiclient.TxConfirmed, Tone: theme.ToneOK},
	{State: apiclient.TxPending, Tone: theme.ToneInfo},
	{State: apiclient.TxDeclined, Tone: theme.ToneDanger},
	{State: apiclient.TxReverted, Tone: theme.ToneWarn},
}

func transactionOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// knownCategories lists the categories seen, sorted, for the filter form.
func (t *Screen) knownCategories() []string {
	out := make([]string, 0, len(t.categories))
	for c := range t.categories {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// firstLines is the first n lines of text (none for n <= 0).
func firstLines(text string, n int) string {
	if n <= 0 {
		return ""
	}
	end := 0
	for range n {
		i := strings.IndexByte(text[end:], '\n')
		if i < 0 {
			return text
		}
		end += i + 1
	}
	return text[:end-1]
}
