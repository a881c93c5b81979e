package whitelist

import (
	"cardterm/ui/keymap"

	"context"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
)

// entryKeys are the add form's own bindings beside the form's: another
// entry, and removing the one in focus.
type entryKeys struct {
	AddEntry, RemoveEntry key.Binding
}

func newEntryKeys() entryKeys {
	return entryKeys{
		AddEntry:    keymap.Bind("whitelist.add-entry"),
		RemoveEntry: keymap.Bind("whitelist.remove-entry"),
	}
}

// formKeyMap is the help while the add form is open: the form's keys and
// the entry keys.
type formKeyMap struct {
	form    help.KeyMap
	entries entryKeys
}

// ShortHelp implements help.KeyMap.
func (k formKeyMap) ShortHelp() []key.Binding {
	return append(k.form.ShortHelp(), k.entries.AddEntry, k.entries.RemoveEntry)
}

// FullHelp implements help.KeyMap.
func (k formKeyMap) FullHelp() [][]key.Binding {
	return append(k.form.FullHelp(), []key.Binding{k.entries.AddEntry, k.entries.RemoveEntry})
}

// The fields of one entry, in form order: wire names and labels. A field's
// key in the form is its wire name under the entry's index
// ("wallets[1].walletAddress"), the name the gateway's 422 uses.
var (
	entryWire   = []string{"name", "beneficiaryFirstName", "beneficiaryLastName", "walletAddress", "walletMemo"}
	entryLabels = []string{"Name", "First name", "Last name", "Address", "Memo/tag"}
)

func fieldKey(entry int, wire string) string { return fmt.Sprintf("wallets[%d].%s", entry, wire) }

// entriesForm adds several entries of one currency in one request: a
// form.Form with one group of fields per entry, rebuilt (what was typed kept)
// when an entry is added or removed.
type entriesForm struct {
	form     *form.Form
	st       *theme.Styles
	keys     entryKeys
	currency string
	count    int
}

func newEntriesForm(st *theme.Styles, currency string) *entriesForm {
	f := &entriesForm{st: st, keys: newEntryKeys(), currency: currency}
	f.rebuild(1, nil)
	return f
}

// rebuild makes the form for count entries filled with typed.
func (f *entriesForm) rebuild(count int, typed map[string]string) {
	f.count = count
	memoLabel, memoHint := entryLabels[4], "optional"
	if apiclient.CurrencyNeedsMemo(f.currency) {
		memoLabel, memoHint = "Memo/tag *", "required for "+strings.ToUpper(f.currency)
	}
	var fields []form.Field
	for i := range count {
		group := fmt.Sprintf("Entry %d", i+1)
		for k, wire := range entryWire {
			spec := form.Field{Key: fieldKey(i, wire), Label: entryLabels[k], Group: group, CharLimit: 128, Value: typed[fieldKey(i, wire)]}
			switch wire {
			case "walletAddress":
				spec.Placeholder = addressHint(f.currency)
			case "walletMemo":
				spec.Label, spec.Placeholder = memoLabel, memoHint
			}
			fields = append(fields, spec)
		}
	}
	f.form = form.New(f.st, form.Spec{
		Title: fmt.Sprintf("Add whitelist entries · %s · %d %s, sent in one request",
			strings.ToUpper(f.currency), count, screenkit.Plural(count, "entry", "entries")),
		Lines:  []string{"ctrl+n adds another entry · ctrl+x removes the one in focus"},
		Submit: "send all",
		Fields: fields,
	})
}

func addressHint(cur string) string {
	switch cur {
	case "btc":
		return "1…, 3… or bc1…"
	case "sol":
		return "base58 public key"
	case "xrp":
		return "r… classic address"
	case "xlm":
		return "G… account"
	}
	return "0x followed by 40 hex digits"
}

// focusedEntry is the index of the entry in focus.
func (f *entriesForm) focusedEntry() int {
	var i int
	if _, err := fmt.Sscanf(f.form.Focused(), "wallets[%d]", &i); err != nil {
		return 0
	}
	return i
}

// addEntry appends an empty entry and focuses its name.
func (f *entriesForm) addEntry() tea.Cmd {
	f.rebuild(f.count+1, f.form.Typed())
	return f.form.FocusField(fieldKey(f.count-1, entryWire[0]))
}

// removeEntry drops the entry in focus; the later ones move up.
func (f *entriesForm) removeEntry() tea.Cmd {
	gone, typed := f.focusedEntry(), f.form.Typed()
	moved := make(map[string]string, len(typed))
	for i := range f.count {
		if i == gone {
			continue
		}
		to := i
		if i > gone {
			to = i - 1
		}
		for _, wire := range entryWire {
			moved[fieldKey(to, wire)] = typed[fieldKey(i, wire)]
		}
	}
	f.rebuild(f.count-1, moved)
	return f.form.FocusField(fieldKey(min(gone, f.count-1), entryWire[0]))
}

// payload is what will be sent.
func (f *entriesForm) payload() []apiclient.NewWhitelistEntry {
	out := make([]apiclient.NewWhitelistEntry, f.count)
	for i := range out {
		v := func(wire string) string { return f.form.Value(fieldKey(i, wire)) }
		out[i] = apiclient.NewWhitelistEntry{Currency: f.currency, Name: v("name"), BeneficiaryFirstName: v("beneficiaryFirstName"),
			BeneficiaryLastName: v("beneficiaryLastName"), WalletAddress: v("walletAddress"), WalletMemo: v("walletMemo")}
	}
	return out
}

// problems are the client's checks of every entry, on the fields of the
// entry they concern.
func (f *entriesForm) problems() []form.FieldError {
	var out []form.FieldError
	for i, p := range f.payload() {
		for _, fe := range apiclient.ValidateWhitelistEntry(p) {
			out = append(out, form.FieldError{Field: fieldKey(i, fe.Field), Message: fe.Message})
		}
	}
	return out
}

// refused shows a refusal on the entry and field it names; every typed
// value stays.
func (f *entriesForm) refused(err error) tea.Cmd {
	msg := apiclient.ErrorMessage(err)
	var fields []form.FieldError
	if e := (*apiclient.Error)(nil); errors.As(err, &e) {
		fields = screenkit.FieldErrors(e.Fields)
	}
	if idx, ok := apiclient.WhitelistErrorEntry(err); ok && idx < f.count {
		problem := fmt.Sprintf("The gateway refused entry %d: %s. Nothing was added; your entries are kept.", idx+1, msg)
		if len(fields) == 0 {
			fields = []form.FieldError{{Field: fieldKey(idx, entryWire[0]), Message: msg}}
		}
		return f.form.SetErrors(problem, fields)
	}
	return f.form.SetErrors("The gateway refused the entries: "+msg+". Nothing was added; your entries are kept.", fields)
}

// openForm opens the add form for the current currency.
func (w *Screen) openForm() tea.Cmd {
	w.form = newEntriesForm(w.Deps.Styles, w.currency)
	w.sizeForm()
	return w.form.form.Focus()
}

// sizeForm gives the form the body; it scrolls to the field in focus.
func (w *Screen) sizeForm() {
	if w.form != nil {
		w.form.form.SetSize(w.Width, w.Height)
	}
}

// formKey handles a key while the add form is open.
func (w *Screen) formKey(msg tea.KeyPressMsg) tea.Cmd {
	f := w.form
	if !f.form.Busy() && !w.add.Busy() {
		switch {
		case key.Matches(msg, f.keys.AddEntry):
			cmd := f.addEntry()
			w.sizeForm()
			return cmd
		case key.Matches(msg, f.keys.RemoveEntry):
			if f.count == 1 {
				return ui.Notify(theme.ToneInfo, "at least one entry is needed: esc cancels the form")
			}
			cmd := f.removeEntry()
			w.sizeForm()
			return cmd
		}
	}
	event, cmd := f.form.Update(msg)
	switch event {
	case form.Cancel:
		if !w.add.Busy() {
			w.form = nil
		}
		return nil
	case form.Submit:
		if errs := f.problems(); len(errs) > 0 {
			return f.form.SetErrors("Fix the marked fields; nothing was sent.", errs)
		}
		return w.confirmAdd()
	}
	return cmd
}

// confirmAdd shows the request the add will send, then sends it.
func (w *Screen) confirmAdd() tea.Cmd {
	entries := w.form.payload()
	lines := listEntries(len(entries), func(i int) (string, string) { return entries[i].Name, entries[i].WalletAddress })
	client, n := w.Deps.Client, len(entries)
	return w.add.Ask(ui.ChangeSpec[whitelistDone]{
		Title:        "Add " + countEntries(n) + "?",
		Request:      apiclient.AddWhitelistCall(entries).Lines(),
		Lines:        append(lines, "Withdrawals may then be sent to these addresses."),
		ConfirmLabel: "add",
		Tone:         theme.ToneInfo,
		What:         "adding whitelist entries",
		Done:         "added " + countEntries(n),
		Send:         screenkit.SentOf(apiclient.AddWhitelistCall(entries)),
		Run: func(ctx context.Context) (whitelistDone, error) {
			return whitelistDone{n: n}, client.AddWhitelist(ctx, entries)
		},
	})
}

// added closes the form after an add, or shows the refusal on it.
func (w *Screen) added(res ui.ChangeResult[whitelistDone]) tea.Cmd {
	reload := w.load()
	if w.form == nil {
		return tea.Batch(screenkit.Report(res), reload)
	}
	if res.Err != nil {
		return tea.Batch(w.form.refused(res.Err), screenkit.Failed(res.Spec.What, res.Err), reload)
	}
	w.form = nil
	return tea.Batch(screenkit.Report(res), reload)
}
