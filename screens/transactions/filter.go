package transactions

import (
	"errors"
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/domain/savedview"
	"cardterm/domain/transactionview"
	"cardterm/screens/screenkit"
	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/sanitize"
)

// openFilters shows the filter form filled with the filters in effect;
// naming adds the name to save them under as a view (V).
func (t *Screen) openFilters(naming bool) tea.Cmd {
	f := t.filter
	lines := []string{"GET /v1/card/transactions · dates go together · empty = no filter"}
	if cats := t.knownCategories(); len(cats) > 0 {
		lines = append(lines, "categories seen: "+strings.Join(cats, ", "))
	}
	field := func(key, label, placeholder, value string) form.Field {
		return form.Field{Key: key, Label: label, Placeholder: placeholder, Value: value, CharLimit: 64}
	}
	fields := []form.Field{
		field("dateFrom", "From date", "YYYY-MM-DD", f.DateFrom),
		field("dateTo", "To date", "YYYY-MM-DD", f.DateTo),
		field("searchKey", "Search", "merchant, place or MCC", f.SearchKey),
		field("mccCategories", "Category", "e.g. GROCERIES,TRAVEL", strings.Join(f.MCCCategories, ",")),
	}
	title, submit := "Filter transactions", "apply"
	if naming {
		fields = append(fields, field("saveAs", "View name", "to open these filters again from :", ""))
		title, submit = "Save the filters as a view", "apply and save"
	}
	filters := form.New(t.Deps.Styles, form.Spec{Title: title, Submit: submit, Lines: lines, Fields: fields})
	l := &screenkit.FormLayer{Form: filters, Requests: t.Requests, Submit: t.applyFilters, Answer: t.filtered,
		Width: func(width int) int { return min(width-2, 70) }, Draw: t.drawForm}
	return l.Open(filters.Focus())
}

// drawForm draws a form of the screen (the filters, the export's file)
// under the screen's heading.
func (t *Screen) drawForm(f *form.Form) string {
	return screenkit.Place(t.frame.head+"\n\n"+f.View(), t.Width, t.Height)
}

// filterFromForm reads the form into a filter for page 0.
func filterFromForm(f *form.Form) apiclient.TransactionFilter {
	var cats []string
	for _, c := range strings.Split(f.Value("mccCategories"), ",") {
		if c = strings.ToUpper(strings.TrimSpace(c)); c != "" {
			cats = append(cats, c)
		}
	}
	return apiclient.TransactionFilter{
		DateFrom:      f.Value("dateFrom"),
		DateTo:        f.Value("dateTo"),
		SearchKey:     f.Value("searchKey"),
		MCCCategories: cats,
	}
}

// applyFilters checks the filters (and the view's name, when saving them
// as a view) and asks for the first page; the form stays, values kept,
// until the gateway answers, so a refusal is shown next to its field.
func (t *Screen) applyFilters(f *form.Form) (tea.Cmd, bool) {
	nf := filterFromForm(f)
	if errs := nf.Validate(); len(errs) > 0 {
		return f.SetErrors("", screenkit.FieldErrors(errs)), false
	}
	_, naming := f.Typed()["saveAs"]
	name := f.Value("saveAs")
	if naming {
		if err := savedview.CheckName(name); err != nil {
			return f.SetErrors("", []form.FieldError{{Field: "saveAs", Message: err.Error()}}), false
		}
	}
	f.SetBusy(true)
	cmd := t.load(nf)
	t.filterLoadID = t.loadID
	if naming {
		view := savedview.View{Screen: string(t.ID()), Name: name, Filter: transactionview.Fields(nf)}
		cmd = tea.Batch(cmd, ui.SaveView(view))
	}
	return cmd, false
}

// filtered takes the answer to the filters asked for (the screen has
// applied it first): a refusal of the filters lands on their fields, what
// was typed kept; any other answer closes the form, as do transactions
// another screen shows here.
func (t *Screen) filtered(f *form.Form, msg tea.Msg) (tea.Cmd, bool) {
	if _, shown := msg.(screenkit.ShowTransactionsMsg); shown {
		return nil, true
	}
	res, ok := msg.(ui.Result[transactionLoad])
	if !ok || res.ID != t.filterLoadID {
		return nil, false
	}
	f.SetBusy(false)
	if e := filtersRefused(res.Err); e != nil {
		return f.SetErrors(sanitize.Text(e.Message), screenkit.FieldErrors(e.Fields)), false
	}
	return nil, res.Err == nil
}

// filtersRefused is the gateway's refusal of the filters asked for (a 422
// or a 400), nil for any other answer.
func filtersRefused(err error) *apiclient.Error {
	var e *apiclient.Error
	if errors.As(err, &e) && (e.Status == 422 || e.Status == 400) {
		return e
	}
	return nil
}

// openView shows a saved view of this screen, as Spending's request to
// show transactions does.
func (t *Screen) openView(view savedview.View) tea.Cmd {
	if view.Screen != string(t.ID()) {
		return nil
	}
	return t.update(screenkit.ShowTransactionsMsg{Filter: transactionview.Filter(view)})
}
