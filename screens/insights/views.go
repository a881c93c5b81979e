package insights

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"cardterm/domain/budget"
	"cardterm/domain/ledger"
	"cardterm/domain/recurring"
	"cardterm/theme"
	"cardterm/ui/keymap"
	"cardterm/ui/sanitize"
)

// The Budgets and Recurring views are lists under the charts' names: a
// budget's progress as a gauge with its figures, a recurring payment with
// its interval, monthly cost, next date and flags. Both read without
// colour: the gauge is cells, the flags are words.

// nothingText says why a chart has no bars.
func (s *Screen) nothingText(currency string) string {
	if s.chart == byTag {
		return "No tagged spending in " + currency + ": tag payments on the Transactions screen (" + keymap.Key("transactions.note") + ")."
	}
	if currency == "" { // no transaction at all: there is no currency to name
		return "Nothing spent yet: the card has no transactions."
	}
	return "Nothing spent in " + currency + "."
}

// listView draws the Budgets or the Recurring view.
func (s *Screen) listView(st *theme.Styles) string {
	if s.holder == nil {
		return ""
	}
	if s.chart == budgetsView {
		return drawBudgets(st, s.holder.tracker.Progress(), s.holder.month, s.Width)
	}
	return drawRecurring(st, s.holder.found, s.Deps.Clock(), s.Width)
}

// drawBudgets is one line a budget: name and currency, a gauge, spent of
// limit, the share used and what is left.
func drawBudgets(st *theme.Styles, progress []budget.Progress, month string, width int) string {
	if len(progress) == 0 {
		hint := ansi.Wrap("No budgets yet: "+keymap.Key("insights.budget")+" sets one (a monthly limit, overall or for a category).", max(width-2, 20), " ")
		return st.Muted.Render(hint)
	}
	var b strings.Builder
	b.WriteString(st.Muted.Render("This month, " + month + " (UTC)"))
	nameWidth := 0
	for _, p := range progress {
		nameWidth = max(nameWidth, ansi.StringWidth(sanitize.Text(p.Budget.Name())))
	}
	nameWidth = min(nameWidth, max(width/4, 10))
	figures := make([]string, len(progress))
	figuresWidth := 0
	for i, p := range progress {
		// past the limit the sum is "over", not a negative "left"
		rest := "left " + groupDigits(p.Left)
		if over, ok := strings.CutPrefix(p.Left, "-"); ok {
			rest = "over " + groupDigits(over)
		}
		figures[i] = fmt.Sprintf("%s of %s %s  %3d%%  %s", groupDigits(p.Spent), groupDigits(p.Budget.Limit), p.Budget.Currency, p.Percent, rest)
		figuresWidth = max(figuresWidth, ansi.StringWidth(figures[i]))
	}
	gaugeWidth := max(width-nameWidth-figuresWidth-4, 5)
	for i, p := range progress {
		name := ansi.Truncate(sanitize.Text(p.Budget.Name()), nameWidth, "…")
		name += strings.Repeat(" ", nameWidth-ansi.StringWidth(name))
		tone := theme.ToneOK
		switch {
		case p.Percent >= 100:
			tone = theme.ToneDanger
		case p.Percent >= 80:
			tone = theme.ToneWarn
		}
		b.WriteString("\n" + name + " " + st.Text(tone).Render(gauge(p.Percent, gaugeWidth)) + " " +
			strings.Repeat(" ", figuresWidth-ansi.StringWidth(figures[i])) + figures[i])
	}
	return b.String()
}

// gauge is a bar of width cells filled to percent (past 100 full):
// █ used, ░ left, so it reads without colour.
func gauge(percent, width int) string {
	filled := min(percent, 100) * width / 100
	return strings.Repeat("█", filled) + strings.Repeat("░", width-filled)
}

// drawRecurring is one line a recurring payment: merchant, interval,
// amount, its monthly cost, the next date and its flags.
func drawRecurring(st *theme.Styles, found []recurring.Series, now time.Time, width int) string {
	if len(found) == 0 {
		return st.Muted.Render("No recurring payments found: the same merchant weekly, monthly or yearly for a similar amount.")
	}
	var b strings.Builder
	b.WriteString(st.Muted.Render(fmt.Sprintf("%d found · a month: %s", len(found), monthlyTotals(found))))
	// Wide, a payment is one line; narrow, its figures go under it.
	wide := width >= 96
	merchantWidth := min(max(width-64, 12), 32)
	if !wide {
		merchantWidth = width - 2
	}
	for _, r := range found {
		merchant := ansi.Truncate(sanitize.Text(r.Merchant), merchantWidth, "…")
		figures := fmt.Sprintf("%-7s %8s %s %8s/mo next %s", r.Interval.Name, r.Amount, r.Currency, r.MonthlyCost, r.Next.Format(time.DateOnly))
		flags := strings.Join(seriesFlags(st, r), " ")
		if wide {
			merchant += strings.Repeat(" ", merchantWidth-ansi.StringWidth(merchant))
			b.WriteString("\n" + ansi.Truncate(merchant+" "+figures+"  "+flags, width, "…"))
			continue
		}
		b.WriteString("\n" + ansi.Truncate(strings.TrimSpace(merchant+"  "+flags), width, "…"))
		b.WriteString("\n  " + ansi.Truncate(figures, width-2, "…"))
	}
	return b.String()
}

// seriesFlags are the words that flag a series: missed, a new price, new.
func seriesFlags(st *theme.Styles, r recurring.Series) []string {
	var flags []string
	if r.Missed {
		flags = append(flags, st.Text(theme.ToneDanger).Render("missed"))
	}
	if r.PriceChanged {
		flags = append(flags, st.Text(theme.ToneWarn).Render("price "+r.Previous+"→"+r.Amount))
	}
	if r.New {
		flags = append(flags, st.Text(theme.ToneInfo).Render("new"))
	}
	return flags
}

// monthlyTotals adds the monthly costs per currency, exactly.
func monthlyTotals(found []recurring.Series) string {
	sums := ledger.Totals{}
	for _, r := range found {
		sums.Add(r.Currency, r.MonthlyCost, false)
	}
	var parts []string
	for _, c := range sums.Currencies() {
		parts = append(parts, groupDigits(sums[c].String())+" "+c)
	}
	return strings.Join(parts, ", ")
}
