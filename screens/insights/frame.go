package insights

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/domain/ledger"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui/sanitize"
)

// headingRows are the lines above the bars: title, totals, the charts'
// names, a blank line.
const headingRows = 4

// rebuild draws the frame from the screen's state; View returns it.
func (s *Screen) rebuild() {
	st := s.Deps.Styles
	if st == nil || s.Width <= 0 || s.Height <= 0 {
		s.body = ""
		return
	}
	var b strings.Builder
	head := st.Title.Render("Spending")
	s.offerBars(0) // until a chart of bars is drawn
	switch {
	case s.loading:
		at := s.reached
		line := fmt.Sprintf("reading every page: %d transactions, %d pages", at.Rows, at.Pages)
		if at.Reached != "" {
			line += ", back to " + sanitize.Bounded(at.Reached, maxDate)
		}
		b.WriteString(head + "\n\n" + st.Muted.Render(line+" · esc stops"))
		s.body = screenkit.Place(b.String(), s.Width, s.Height)
		return
	case apiclient.IsNotFound(s.loadErr):
		s.body = screenkit.Place(head+"\n\n"+st.Subtitle.Render("No card yet")+"\n"+
			st.Muted.Render("Spending appears once there is a card and it is used."), s.Width, s.Height)
		return
	case s.loadErr != nil:
		s.body = screenkit.Place(head+"\n\n"+st.Text(theme.ToneDanger).Render("Could not read the transactions: "+sanitize.Text(apiclient.ErrorMessage(s.loadErr)))+
			"\n"+st.Muted.Render("r tries again"), s.Width, s.Height)
		return
	case s.totals == nil:
		s.body = screenkit.Place(head, s.Width, s.Height)
		return
	}
	a := s.totals
	cur := s.currencyShown()
	// The gateway's currency and dates are drawn sanitized and bounded;
	// cur stays the key the totals are kept under.
	curLabel := ledger.CurrencyLabel(cur)
	period := ""
	if a.First != "" {
		period = sanitize.Bounded(a.First, maxDate) + " to " + sanitize.Bounded(a.Last, maxDate) + " (UTC) · "
	}
	currencies := a.Currencies()
	which := ""
	if len(currencies) > 1 {
		which = fmt.Sprintf(" · c: %d currencies", len(currencies))
	}
	// The period and the totals wrap on a narrow body: a figure is never
	// cut.
	about := []string{fmt.Sprintf("%d %s", a.Transactions, screenkit.Plural(a.Transactions, "transaction", "transactions"))}
	if curLabel != "" { // no transaction, no currency: "in " alone read as a cut line
		about = append(about, "in "+curLabel)
	}
	if period != "" {
		about = append([]string{strings.TrimSuffix(period, " · ")}, about...)
	}
	if which != "" {
		about = append(about, strings.TrimPrefix(which, " · "))
	}
	if s.partial {
		about = append(about, "INCOMPLETE: the walk of the pages stopped early")
	}
	b.WriteString(head + "  " + st.Muted.Render(joinWrapped(about, max(s.Width-lipgloss.Width(head)-2, 20))))
	b.WriteByte('\n')
	totals := []string{"Spent " + summaryOf(a.Spent, cur), "Refunded " + summaryOf(a.Refunded, cur), "Declined " + summaryOf(a.Declined, cur)}
	if a.NoAmount > 0 {
		totals = append(totals, fmt.Sprintf("%d without an amount", a.NoAmount))
	}
	b.WriteString(joinWrapped(totals, max(s.Width, 20)))
	b.WriteByte('\n')
	b.WriteString(s.tabs(st))
	b.WriteString("\n\n")
	b.WriteString(s.chartView(st, cur, curLabel))
	s.body = screenkit.Place(b.String(), s.Width, s.Height)
}

// chartView is what is under the charts' names: the bars, or the
// Budgets or Recurring list (views.go).
func (s *Screen) chartView(st *theme.Styles, cur, curLabel string) string {
	if s.chart == budgetsView || s.chart == recurringView {
		return s.listView(st)
	}
	bars := s.bars()
	s.offerBars(len(bars))
	if len(bars) == 0 {
		return st.Muted.Render(s.nothingText(curLabel))
	}
	return drawBars(st, bars, cur, s.selection[s.chart], s.Width)
}

// offerBars offers enter on a chart of n bars, and the arrows when there
// is another bar to move to: the lists (Budgets, Recurring) select nothing.
func (s *Screen) offerBars(n int) {
	s.keys.Open.SetEnabled(n > 0)
	s.keys.Up.SetEnabled(n > 1)
	s.keys.Down.SetEnabled(n > 1)
}

// maxDate bounds a date from the gateway as drawn (an RFC 3339 time is
// at most 35 characters; anything longer is not one).
const maxDate = 35

// tabs names the charts, the one shown marked (bold and in brackets, so
// it reads without colour).
func (s *Screen) tabs(st *theme.Styles) string {
	parts := make([]string, chartCount)
	for c := range chartCount {
		if c == s.chart {
			parts[c] = st.Accent.Bold(true).Render("[" + chartNames[c] + "]")
		} else {
			parts[c] = st.Muted.Render(" " + chartNames[c] + " ")
		}
	}
	line := strings.Join(parts, " ")
	if hint := "  v switches · enter lists"; lipgloss.Width(line)+len(hint) <= s.Width {
		line += st.Muted.Render(hint)
	}
	return line
}

// drawBars draws one bar a line: a marker on the selected one, the label,
// the bar (█ cells, a half cell ▌ for the rest, so it reads without
// colour) and the sum with its count.
func drawBars(st *theme.Styles, bars []*Bucket, currency string, selected, width int) string {
	labelWidth, amountWidth := 0, 0
	amounts := make([]string, len(bars))
	largest := 0.0
	for i, b := range bars {
		labelWidth = max(labelWidth, ansi.StringWidth(sanitize.Text(b.Label)))
		t := b.Totals[currency]
		amounts[i] = fmt.Sprintf("%s (%d)", groupDigits(t.String()), t.Count())
		amountWidth = max(amountWidth, len(amounts[i]))
		largest = max(largest, t.Float())
	}
	labelWidth = min(labelWidth, max(width/3, 10))
	barWidth := max(width-labelWidth-amountWidth-6, 4)
	barStyle := st.Accent
	var out strings.Builder
	for i, b := range bars {
		marker := "  "
		label := ansi.Truncate(sanitize.Text(b.Label), labelWidth, "…")
		label += strings.Repeat(" ", labelWidth-ansi.StringWidth(label))
		if i == selected {
			marker = "› "
			label = lipgloss.NewStyle().Bold(true).Render(label)
		}
		cells := 0.0
		if largest > 0 {
			cells = b.Totals[currency].Float() / largest * float64(barWidth)
		}
		whole := int(cells)
		bar := strings.Repeat("█", whole)
		if cells-float64(whole) >= 0.5 && whole < barWidth {
			bar += "▌"
		}
		if bar == "" {
			bar = "▏"
		}
		pad := barWidth - ansi.StringWidth(bar)
		if i > 0 {
			out.WriteByte('\n')
		}
		out.WriteString(marker + label + " " + barStyle.Render(bar) + strings.Repeat(" ", pad) + " " +
			fmt.Sprintf("%*s", amountWidth, amounts[i]))
	}
	return out.String()
}

// groupDigits writes the whole part of a decimal in groups of three:
// "8900461.58" → "8,900,461.58". For display only: statements keep the
// plain text.
func groupDigits(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, dot := strings.Cut(s, ".")
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if dot {
		b.WriteString("." + frac)
	}
	return sign + b.String()
}

// joinWrapped joins parts with " · ", starting a new line where the next
// part would pass width, so no part (a figure and its count) is split.
func joinWrapped(parts []string, width int) string {
	var b strings.Builder
	line := 0
	for i, part := range parts {
		w := ansi.StringWidth(part)
		switch {
		case i == 0:
		case line+3+w > width:
			b.WriteString("\n")
			line = 0
		default:
			b.WriteString(" · ")
			line += 3
		}
		b.WriteString(part)
		line += w
	}
	return b.String()
}
