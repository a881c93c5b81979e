package transactions

import (
	"fmt"
	"sort"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
)

// detailHeight is the height of the detail pane for a body height.
func detailHeight(height int) int {
	if height < 24 {
		return max(height/3, 4)
	}
	return txnDetailHeight
}

// SetSize implements ui.Screen: the category column goes on narrow
// terminals; rows, cursor and quick filter stay.
func (t *Screen) SetSize(width, height int) {
	t.width, t.height = width, height
	t.table.SetColumns(txnColumns(width < txnNarrowBelow, t.shape))
	t.table.SetSize(width, max(height-2-detailHeight(height), 3))
	if t.form != nil {
		t.form.SetWidth(min(width-2, 70))
	}
}

// View implements ui.Screen.
func (t *Screen) View() string {
	width, height := t.width, t.height
	st := t.deps.Styles
	head := st.Title.Render("Transactions") + "  " + st.Muted.Render(ansi.Truncate(t.summary(), max(width-16, 0), "…"))
	switch {
	case apiclient.IsNotFound(t.loadErr):
		return screenkit.Place(head+"\n\n"+st.Subtitle.Render("No card yet")+"\n"+st.Muted.Render("Transactions appear once you have a card (screen 2, n orders one)."), width, height)
	case apiclient.IsStatus(t.loadErr, 403):
		return screenkit.Place(head+"\n\n"+st.Text(theme.ToneWarn).Render("The gateway does not allow card operations for this account.")+"\n"+
			st.Muted.Render(ui.Sanitize(apiclient.ErrorMessage(t.loadErr))), width, height)
	case !t.loaded && t.loadErr != nil:
		return screenkit.Place(head+"\n\n"+st.Text(theme.ToneDanger).Render("Could not load transactions: "+ui.Sanitize(apiclient.ErrorMessage(t.loadErr)))+
			"\n"+st.Muted.Render("r retries"), width, height)
	case !t.loaded:
		return screenkit.Place(head+"\n\n"+st.Muted.Render("Loading transactions…"), width, height)
	}
	if t.form != nil {
		return screenkit.Place(head+"\n\n"+t.form.View(), width, height)
	}
	detailH := detailHeight(height)
	body := t.highlightStatuses(t.table.View())
	return screenkit.Place(head+"\n"+body+"\n"+t.detailView(width, detailH), width, height)
}

// summary is the line under the title: page, filters, loading.
func (t *Screen) summary() string {
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
	if t.loading {
		parts = append(parts, "loading…")
	} else if t.atEnd {
		parts = append(parts, "last page")
	}
	return ui.Sanitize(strings.Join(parts, " · ")) + " · f filters · n/p pages"
}

// txnStandOut are the statuses drawn as badges in the list.
var txnStandOut = map[string]theme.Tone{apiclient.TxDeclined: theme.ToneDanger, apiclient.TxReverted: theme.ToneWarn}

// highlightStatuses makes DECLINED and REVERTED stand out in the table:
// ui.Table draws cells as plain text, so the status cell (the last column,
// padded to its width) is replaced by a badge of the same width, and the
// row's own style is switched back on after it.
func (t *Screen) highlightStatuses(view string) string {
	st := t.deps.Styles
	rowPre := txnStylePrefix(st.TableRow)
	selPre := txnStylePrefix(st.TableSelected)
	lines := strings.Split(view, "\n")
	for i := 1; i < len(lines)-1; i++ {
		line := lines[i]
		for status, tone := range txnStandOut {
			cell := status + "  " // the 10-wide column holds 8 letters and 2 spaces
			j := strings.LastIndex(line, cell)
			if j < 0 {
				continue
			}
			pre := rowPre
			if selPre != "" && strings.Contains(line[:j], selPre) {
				pre = selPre
			}
			lines[i] = line[:j] + st.Badge(status, tone) + pre + line[j+len(cell):]
			break
		}
	}
	return strings.Join(lines, "\n")
}

// txnStylePrefix is the escape sequence a style puts before its text.
func txnStylePrefix(s lipgloss.Style) string {
	out := s.Render("\x00")
	if i := strings.IndexByte(out, 0); i >= 0 {
		return out[:i]
	}
	return ""
}

// detailView is the pane for the selected transaction: amounts and fees,
// status, decline reason, merchant, MCC, and every field the app does not
// know.
func (t *Screen) detailView(width, height int) string {
	st := t.deps.Styles
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
	status := screenkit.Badge(st, x.Status, txnTones.Of(x.Status))
	known := func(f screenkit.Field, names ...string) screenkit.KnownField {
		return screenkit.KnownField{Field: f, Names: names}
	}
	leftKnown := []screenkit.KnownField{
		known(screenkit.Field{Label: "Status", Styled: status}, "status", "declineReason"),
		known(screenkit.Field{Label: "Amount", Value: txnAmount(x)}, "transactionAmount", "transactionCurrency"),
		known(screenkit.Field{Label: "Billed", Value: money(x.BillingAmount, x.BillingCurrency)}, "billingAmount", "billingCurrency"),
		known(screenkit.Field{Label: "Fee", Value: money(x.FeeAmount, x.FeeCurrency)}, "feeAmount", "feeCurrency"),
		known(screenkit.Field{Label: "Sign", Value: x.Sign}, "sign"),
		known(screenkit.Field{Label: "Date", Value: screenkit.FormatTime(x.DateTime)}, "dateTime"),
	}
	if reason != "" || x.Status == apiclient.TxDeclined {
		declined := known(screenkit.Field{Label: "Declined", Styled: st.Text(theme.ToneDanger).Render(txnOr(ui.Sanitize(reason), "no reason given"))}, "declineReason", "status")
		leftKnown = append(leftKnown[:1], append([]screenkit.KnownField{declined}, leftKnown[1:]...)...)
	}
	rightKnown := []screenkit.KnownField{
		known(screenkit.Field{Label: "Merchant", Value: x.MerchantNameLocation}, "merchantNameLocation"),
		known(screenkit.Field{Label: "MCC", Value: strings.TrimSpace(x.MCC + " " + x.MCCCategory)}, "mcc", "mccCategory"),
		known(screenkit.Field{Label: "Id", Value: x.ID}, "id"),
	}
	// Every field the gateway sent: the known ones it carries on the left,
	// the rest (its own names, nested ones flattened) on the right.
	left := screenkit.PresentFields(x.Raw, leftKnown)
	right := append(screenkit.PresentFields(x.Raw, rightKnown),
		screenkit.OtherFields(x.Raw, append(leftKnown, rightKnown...))...)
	if len(left) == 0 {
		half := (len(right) + 1) / 2
		left, right = right[:half], right[half:]
	}
	colW := max((width-3)/2, 20)
	l := screenkit.RenderFields(st, left, colW)
	r := screenkit.RenderFields(st, right, colW)
	pane := screenkit.SideBySide(l, r, colW, "   ")
	lines := strings.Split(pane, "\n")
	if len(lines) > height-1 {
		lines = lines[:height-1]
	}
	return st.Subtitle.Render("Selected transaction") + "\n" + strings.Join(lines, "\n")
}

// txnTones colours a transaction status.
var txnTones = screenkit.StateTones{
	apiclient.TxConfirmed: theme.ToneOK,
	apiclient.TxPending:   theme.ToneInfo,
	apiclient.TxDeclined:  theme.ToneDanger,
	apiclient.TxReverted:  theme.ToneWarn,
}

func txnOr(s, def string) string {
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
