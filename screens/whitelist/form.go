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

// addLayer is the add form, a layer on the root's stack: several entries
// of one currency in one request, one group of fields per entry. Adding
// or removing an entry rebuilds the form (screenkit.FormLayer.Replace),
// what was typed kept.
type addLayer struct {
	*screenkit.FormLayer
	w        *Screen
	keys     entryKeys
	currency string
	count    int
}

// addAnswered tells the add form how the add it asked for ended.
type addAnswered struct{ err error }

// openForm opens the add form for the current currency, over the list.
func (w *Screen) openForm() tea.Cmd {
	l := &addLayer{w: w, keys: newEntryKeys(), currency: w.currency, count: 1}
	l.FormLayer = &screenkit.FormLayer{Form: l.build(nil), Requests: w.Requests, Scroll: true,
		Width: func(width int) int { return width }, Submit: l.submit, Answer: l.answer}
	return ui.OpenLayer(l, l.Form.Focus())
}

// build makes the form for l.count entries filled with typed.
func (l *addLayer) build(typed map[string]string) *form.Form {
	memoLabel, memoHint := entryLabels[4], "optional"
	if apiclient.CurrencyNeedsMemo(l.currency) {
		memoLabel, memoHint = "Memo/tag *", "required for "+strings.ToUpper(l.currency)
	}
	var fields []form.Field
	for i := range l.count {
		group := fmt.Sprintf("Entry %d", i+1)
		for k, wire := range entryWire {
			spec := form.Field{Key: fieldKey(i, wire), Label: entryLabels[k], Group: group, CharLimit: 128, Value: typed[fieldKey(i, wire)]}
			switch wire {
			case "walletAddress":
				spec.Placeholder = addressHint(l.currency)
			case "walletMemo":
				spec.Label, spec.Placeholder = memoLabel, memoHint
			}
			fields = append(fields, spec)
		}
	}
	return form.New(l.w.Deps.Styles, form.Spec{
		Title: fmt.Sprintf("Add whitelist entries · %s · %d %s, sent in one request",
			strings.ToUpper(l.currency), l.count, screenkit.Plural(l.count, "entry", "entries")),
		Lines: []string{keymap.Key("whitelist.add-entry") + " adds another entry · " +
			keymap.Key("whitelist.remove-entry") + " removes the one in focus"},
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
func (l *addLayer) focusedEntry() int {
	var i int
	if _, err := fmt.Sscanf(l.Form.Focused(), "wallets[%d]", &i); err != nil {
		return 0
	}
	return i
}

// Update implements layer.Layer: the entry keys, then the form's. While
// the entries are on their way no key does anything, esc included: the
// add's outcome is told, never abandoned.
func (l *addLayer) Update(msg tea.Msg) tea.Cmd {
	press, ok := msg.(tea.KeyPressMsg)
	switch {
	case !ok:
	case l.Form.Busy():
		return nil
	case key.Matches(press, l.keys.AddEntry):
		return l.addEntry()
	case key.Matches(press, l.keys.RemoveEntry):
		if l.count == 1 {
			return ui.Notify(theme.ToneInfo, "at least one entry is needed: esc cancels the form")
		}
		return l.removeEntry()
	}
	return l.FormLayer.Update(msg)
}

// KeyMap implements layer.Layer: the form's keys and the entry keys.
func (l *addLayer) KeyMap() help.KeyMap { return formKeyMap{form: l.Form.KeyMap(), entries: l.keys} }

// addEntry appends an empty entry and focuses its name.
func (l *addLayer) addEntry() tea.Cmd {
	l.count++
	l.Replace(l.build)
	return l.Form.FocusField(fieldKey(l.count-1, entryWire[0]))
}

// removeEntry drops the entry in focus; the later ones move up.
func (l *addLayer) removeEntry() tea.Cmd {
	gone, count := l.focusedEntry(), l.count
	l.count--
	l.Replace(func(typed map[string]string) *form.Form {
		moved := make(map[string]string, len(typed))
		for i := range count {
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
		return l.build(moved)
	})
	return l.Form.FocusField(fieldKey(min(gone, l.count-1), entryWire[0]))
}

// payload is what will be sent.
func (l *addLayer) payload() []apiclient.NewWhitelistEntry {
	out := make([]apiclient.NewWhitelistEntry, l.count)
	for i := range out {
		v := func(wire string) string { return l.Form.Value(fieldKey(i, wire)) }
		out[i] = apiclient.NewWhitelistEntry{Currency: l.currency, Name: v("name"), BeneficiaryFirstName: v("beneficiaryFirstName"),
			BeneficiaryLastName: v("beneficiaryLastName"), WalletAddress: v("walletAddress"), WalletMemo: v("walletMemo")}
	}
	return out
}

// problems are the client's checks of every entry, on the fields of the
// entry they concern.
func (l *addLayer) problems() []form.FieldError {
	var out []form.FieldError
	for i, p := range l.payload() {
		for _, fe := range apiclient.ValidateWhitelistEntry(p) {
			out = append(out, form.FieldError{Field: fieldKey(i, fe.Field), Message: fe.Message})
		}
	}
	return out
}

// submit checks every entry, then asks to send them.
func (l *addLayer) submit(f *form.Form) (tea.Cmd, bool) {
	if errs := l.problems(); len(errs) > 0 {
		return f.SetErrors("Fix the marked fields; nothing was sent.", errs), false
	}
	return l.w.confirmAdd(l.payload()), false
}

// answer follows the add this form asked for: busy from the moment it
// runs (the confirmation reaches the screen first, then the layers); a
// refusal shown on the form, what was typed kept; a success closes it.
func (l *addLayer) answer(f *form.Form, msg tea.Msg) (tea.Cmd, bool) {
	if l.w.add.Running() && !f.Busy() {
		f.SetBusy(true)
	}
	answered, ok := msg.(addAnswered)
	if !ok {
		return nil, false
	}
	f.SetBusy(false)
	if answered.err == nil {
		return nil, true
	}
	return l.refused(answered.err), false
}

// refused shows a refusal on the entry and field it names; every typed
// value stays.
func (l *addLayer) refused(err error) tea.Cmd {
	msg := apiclient.ErrorMessage(err)
	var fields []form.FieldError
	if e := (*apiclient.Error)(nil); errors.As(err, &e) {
		fields = screenkit.FieldErrors(e.Fields)
	}
	if idx, ok := apiclient.WhitelistErrorEntry(err); ok && idx < l.count {
		problem := fmt.Sprintf("The gateway refused entry %d: %s. Nothing was added; your entries are kept.", idx+1, msg)
		if len(fields) == 0 {
			fields = []form.FieldError{{Field: fieldKey(idx, entryWire[0]), Message: msg}}
		}
		return l.Form.SetErrors(problem, fields)
	}
	return l.Form.SetErrors("The gateway refused the entries: "+msg+". Nothing was added; your entries are kept.", fields)
}

// confirmAdd shows the request the add will send, then sends it.
func (w *Screen) confirmAdd(entries []apiclient.NewWhitelistEntry) tea.Cmd {
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

// added tells the add form how the add ended (a success closes it, a
// refusal shows on it) and re-reads the list.
func (w *Screen) added(res ui.ChangeResult[whitelistDone]) tea.Cmd {
	answered := addAnswered{err: res.Err}
	return tea.Batch(func() tea.Msg { return answered }, screenkit.Report(res), w.load())
}
