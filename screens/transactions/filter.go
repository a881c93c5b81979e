package transactions

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/domain/savedview"
	"cardterm/screens/screenkit"
	"cardterm/ui"
	"cardterm/ui/form"
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
	t.form = form.New(t.Deps.Styles, form.Spec{Title: title, Submit: submit, Lines: lines, Fields: fields})
	t.form.SetWidth(min(t.Width-2, 70))
	return t.form.Focus()
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

// formKey handles a key while the filter form is open: enter checks the
// filters and asks for the first page; the form stays, values kept, until
// the gateway answers, so a refusal is shown next to its field.
func (t *Screen) formKey(msg tea.KeyPressMsg) tea.Cmd {
	ev, cmd := t.form.Update(msg)
	switch ev {
	case form.Cancel:
		if t.form.CancelIfBusy(t.Requests) {
			t.loading = false
		}
		t.form = nil
		return nil
	case form.Submit:
		nf := filterFromForm(t.form)
		if errs := nf.Validate(); len(errs) > 0 {
			return t.form.SetErrors("", screenkit.FieldErrors(errs))
		}
		_, naming := t.form.Typed()["saveAs"]
		name := t.form.Value("saveAs")
		if !naming {
			t.form.SetBusy(true)
			return t.load(nf)
		}
		if err := savedview.CheckName(name); err != nil {
			return t.form.SetErrors("", []form.FieldError{{Field: "saveAs", Message: err.Error()}})
		}
		t.form.SetBusy(true)
		view := savedview.View{Screen: string(t.ID()), Name: name, Filter: savedview.FromTransactions(nf)}
		return tea.Batch(t.load(nf), ui.SaveView(view))
	}
	return cmd
}

// openView shows a saved view of this screen, as Spending's request to
// show transactions does.
func (t *Screen) openView(view savedview.View) tea.Cmd {
	if view.Screen != string(t.ID()) {
		return nil
	}
	return t.update(screenkit.ShowTransactionsMsg{Filter: view.Transactions()})
}
