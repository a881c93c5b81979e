package screens

import (
	"errors"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
)

// txnAPIError is errors.As for *apiclient.Error.
func txnAPIError(err error, e **apiclient.Error) bool { return errors.As(err, e) }

// openFilters shows the filter form filled with the filters in effect.
func (t *Transactions) openFilters() tea.Cmd {
	f := t.filter
	t.form = newFieldsForm(t.deps.Styles, "Filter transactions", "apply",
		[]string{"GET /v1/card/transactions · dates go together · empty = no filter"},
		[]ffSpec{
			{"dateFrom", "From date", "YYYY-MM-DD", f.DateFrom},
			{"dateTo", "To date", "YYYY-MM-DD", f.DateTo},
			{"searchKey", "Search", "merchant, place or MCC", f.SearchKey},
			{"mccCategories", "Category", "e.g. GROCERIES,TRAVEL", strings.Join(f.MCCCategories, ",")},
		})
	cat := &t.form.fields[3].input
	cat.ShowSuggestions = true
	cat.SetSuggestions(t.knownCategories())
	// tab moves between fields here; → completes a suggested category.
	cat.KeyMap.AcceptSuggestion = key.NewBinding(key.WithKeys("right"))
	if cats := t.knownCategories(); len(cats) > 0 {
		t.form.lines = append(t.form.lines, "categories seen: "+strings.Join(cats, ", "))
	}
	return t.form.start()
}

// filterFromForm reads the form into a filter for page 0.
func filterFromForm(f *fieldsForm) apiclient.TransactionFilter {
	var cats []string
	for _, c := range strings.Split(f.value("mccCategories"), ",") {
		if c = strings.ToUpper(strings.TrimSpace(c)); c != "" {
			cats = append(cats, c)
		}
	}
	return apiclient.TransactionFilter{
		DateFrom:      f.value("dateFrom"),
		DateTo:        f.value("dateTo"),
		SearchKey:     f.value("searchKey"),
		MCCCategories: cats,
	}
}

// formKey handles a key while the filter form is open: enter checks the
// filters and asks for the first page; the form stays, values kept, until
// the gateway answers, so a refusal is shown next to its field.
func (t *Transactions) formKey(msg tea.KeyPressMsg) tea.Cmd {
	ev, cmd := t.form.update(msg)
	switch ev {
	case ffCancel:
		if t.form.busy {
			t.deps.Requests.CancelAll()
			t.loading = false
		}
		t.form = nil
		return nil
	case ffSubmit:
		nf := filterFromForm(t.form)
		if errs := nf.Validate(); len(errs) > 0 {
			return t.form.setErrors("", errs)
		}
		t.form.setErrors("", nil)
		t.form.busy = true
		return t.load(nf)
	}
	return cmd
}
