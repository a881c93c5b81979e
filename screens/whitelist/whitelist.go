// Package whitelist is the Whitelist screen: the approved withdrawal
// addresses of one currency at a time, added several at once and deleted
// marked or selected.
package whitelist

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/keymap"
	"cardterm/ui/sanitize"
	"cardterm/ui/table"
)

// whitelistKeys are the whitelist screen's bindings; add and delete are
// disabled in read-only mode.
type whitelistKeys struct {
	Currency, Add, Delete, SaveView key.Binding
	table                           help.KeyMap
}

func newWhitelistKeys(readOnly bool, table help.KeyMap) whitelistKeys {
	k := whitelistKeys{
		Currency: keymap.Bind("whitelist.currency"),
		Add:      keymap.Bind("whitelist.add"),
		Delete:   keymap.Bind("whitelist.delete"),
		SaveView: keymap.Bind("whitelist.save-view"),
		table:    table,
	}
	screenkit.DisableInReadOnly(readOnly, &k.Add, &k.Delete)
	return k
}

// ShortHelp implements help.KeyMap.
func (k whitelistKeys) ShortHelp() []key.Binding {
	return append([]key.Binding{k.Currency, k.Add, k.Delete}, k.table.ShortHelp()...)
}

// FullHelp implements help.KeyMap.
func (k whitelistKeys) FullHelp() [][]key.Binding {
	return append([][]key.Binding{{k.Currency, k.Add, k.Delete, k.SaveView}}, k.table.FullHelp()...)
}

// whitelistDone is the answer to an add or delete: how many entries.
type whitelistDone struct{ n int }

// Screen lists the approved withdrawal addresses of one currency, adds
// several at once and deletes the marked ones.
type Screen struct {
	screenkit.Base
	keys       whitelistKeys
	pickerKeys pickerKeys

	currency string
	table    table.Table
	// store holds the entries, once: the table reads its cells from it.
	store *entryStore
	// The load in flight: its id, where its entries arrive, and whether
	// none has arrived yet (the table still shows the previous list).
	loadID   ui.RequestID
	arrivals *arrivals
	loading  bool
	fresh    bool
	// incomplete is set when a load stopped (esc, an error) after some
	// entries arrived: they are shown, marked as a part of the list.
	incomplete bool
	loadErr    error
	// loadErrText is loadErr as drawn, cut and sanitized once.
	loadErrText string

	picker *picker // non-nil while the currency picker is open
	// why is the reason, per key, that a disabled action cannot work now.
	why screenkit.DisabledReasons

	// add and remove are the two changes, separate so that an add sent
	// while a delete runs does not wait for it; each is its own
	// double-press guard.
	add, remove ui.Change[whitelistDone]

	// drawnHead is the last title line drawn, and what it showed.
	drawnHead struct {
		key  headKey
		text string
	}
}

// New builds the whitelist screen, showing usdc first.
func New(deps screenkit.Deps) *Screen {
	w := &Screen{Base: screenkit.NewBase(deps, screenkit.WhitelistScreen, "Whitelist"), currency: apiclient.WhitelistCurrencies[0],
		pickerKeys: newPickerKeys()}
	w.add = ui.NewChange[whitelistDone](w.Requests)
	w.remove = ui.NewChange[whitelistDone](w.Requests)
	w.table = table.New(deps.Styles, whitelistColumns(2))
	w.setStore(&entryStore{})
	// x deletes the marked entries; read-only mode has no use for marks,
	// so the help does not offer them.
	w.table.SetMarkable(!deps.ReadOnly)
	w.keys = newWhitelistKeys(deps.ReadOnly, w.table.KeyMap())
	return w
}

// whitelistColumns lays the table out for a level: 2 all columns (93 cells), 1
// without beneficiary and creation date (73), 0 name, address and memo
// (60: the body of an 80-column terminal). The address keeps its full 42 cells in all
// of them: an address cut short on screen is an address misread.
func whitelistColumns(level int) []table.Column {
	nameMin := 8
	if level == 0 {
		nameMin = 6
	}
	return []table.Column{
		{Title: "Name", Min: nameMin},
		{Title: "Beneficiary", Min: 8, Hidden: level < 2},
		{Title: "Address", Width: 42},
		{Title: "Memo/tag", Width: 8},
		{Title: "Last used", Width: 10, Hidden: level < 1},
		{Title: "Created", Width: 10, Hidden: level < 2},
	}
}

// SetSize implements ui.Screen: columns are hidden on narrow terminals,
// keeping rows, marks, cursor and quick filter.
func (w *Screen) SetSize(width, height int) {
	w.Width, w.Height = width, height
	w.table.SetColumns(whitelistColumns(screenkit.LayoutLevel(width, 73, 93)))
	w.sizeTable()
}

// sizeTable gives the table the rows it holds (with its header and footer)
// up to the room left by the title and the selected entry's pane, so that
// pane sits right under a short list, as on the other screens.
func (w *Screen) sizeTable() {
	room := max(w.Height-2-w.detailHeight(), 3)
	w.table.SetSize(w.Width, min(max(w.table.Len()+2, 3), room))
}

// detailHeight is the room the selected entry's pane takes: none on a
// terminal too short to spare it.
func (w *Screen) detailHeight() int {
	if w.Height < 14 {
		return 0
	}
	return detailLines + 1
}

// KeyMap implements ui.Screen: the currency picker's while it is open,
// else the list's.
func (w *Screen) KeyMap() help.KeyMap {
	if w.picker != nil {
		return w.pickerKeys
	}
	return w.keys
}

// CapturesKeys implements ui.Screen: the currency picker and the table
// filter take every key.
func (w *Screen) CapturesKeys() bool {
	return w.picker != nil || w.table.Filtering()
}

// Enter loads the entries of the current currency.
func (w *Screen) Enter() tea.Cmd { return w.load() }

// Update implements ui.Screen.
func (w *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	if res, done, cmd := w.add.Update(msg); done {
		return w, w.added(res)
	} else if cmd != nil {
		return w, cmd
	}
	if res, done, cmd := w.remove.Update(msg); done {
		return w, w.deleted(res)
	} else if cmd != nil {
		return w, cmd
	}
	switch msg := msg.(type) {
	case entriesArrived:
		return w, w.arrived(msg)
	case ui.RefreshMsg:
		return w, w.load()
	case ui.OpenViewMsg:
		return w, w.openView(msg.View)
	case tea.KeyPressMsg:
		return w, w.handleKey(msg)
	case ui.BodyMouseMsg:
		return w, w.mouse(msg)
	}
	return w, nil
}

func (w *Screen) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case w.picker != nil:
		return w.pickerKey(msg)
	case w.table.Filtering():
		cmd, _ := w.table.FilterKey(msg)
		if !w.table.Filtering() && w.store != nil && w.store.len() >= returnMemoryAfter {
			// The filter line closed: what typing it built is garbage
			// now but the filter in effect.
			return tea.Batch(cmd, settleMemory)
		}
		return cmd
	}
	switch {
	case key.Matches(msg, w.keys.Currency):
		w.picker = newPicker(w.currency)
		return nil
	case key.Matches(msg, w.keys.Add):
		return w.openForm()
	case key.Matches(msg, w.keys.Delete):
		return w.confirmDelete()
	case key.Matches(msg, w.keys.SaveView):
		return w.saveView()
	}
	var cmd tea.Cmd
	w.table, cmd = w.table.Update(msg)
	if w.table.Filtering() && w.store != nil && w.store.len() >= returnMemoryAfter {
		// Typing a filter over a long list builds its index and levels:
		// the limit is lifted until the filter line closes.
		return tea.Batch(cmd, liftMemoryLimit)
	}
	return cmd
}

func (w *Screen) pickerKey(msg tea.KeyPressMsg) tea.Cmd {
	picked, closed := w.picker.key(w.pickerKeys, msg)
	if !closed {
		return nil
	}
	return w.closePicker(picked)
}

// closePicker closes the currency picker and loads the currency picked
// ("" when it was cancelled).
func (w *Screen) closePicker(picked string) tea.Cmd {
	w.picker = nil
	if picked == "" || picked == w.currency {
		return nil
	}
	w.currency = picked
	w.loadErr = nil
	w.setStore(&entryStore{})
	return w.load()
}

// selected is the entry under the cursor, nil when there is none.
func (w *Screen) selected() *apiclient.WhitelistEntry {
	if i, ok := w.table.Cursor(); ok && i < w.store.len() {
		return w.store.at(i)
	}
	return nil
}

// Inspect gives the selected entry exactly as the gateway sent it, for the
// JSON inspector (the i key).
func (w *Screen) Inspect() (title string, raw []byte, ok bool) {
	i, ok := w.table.Cursor()
	if !ok || i >= w.store.len() || w.picker != nil {
		return "", nil, false
	}
	record := w.store.record(i)
	if record == "" {
		return "", nil, false
	}
	return "whitelist entry " + sanitize.Text(w.store.at(i).ID), []byte(record), true
}

// CopyValue implements ui.Copier: the selected entry's name, beneficiary,
// address, memo and id, whole.
func (w *Screen) CopyValue() (label, value string, ok bool) {
	if e := w.selected(); e != nil {
		return "whitelist entry " + sanitize.Text(e.Name), copyText(e), true
	}
	return "", "", false
}

// View implements ui.Screen.
func (w *Screen) View() string {
	width, height := w.Width, w.Height
	st := w.Deps.Styles
	lines := []string{w.head()}
	if w.picker != nil {
		lines = append(append(lines, ""), w.picker.view(st)...)
		return screenkit.Place(strings.Join(lines, "\n"), width, height)
	}
	switch {
	case apiclient.IsStatus(w.loadErr, 403):
		// Wrapped to the screen: cut at its edge it lost the reason.
		lines = append(lines, "", st.Text(theme.ToneWarn).Width(max(width-2, 20)).Render("The gateway does not allow whitelist operations for this account: they need a VERIFIED identity; see "+
			w.Deps.ScreenNamed(screenkit.AccountScreen, "Account")+"."))
		return screenkit.Place(strings.Join(lines, "\n"), width, height)
	case w.loadErr != nil:
		lines = append(lines, "", st.Text(theme.ToneDanger).Render("Could not load the whitelist: "+w.loadErrText), st.Muted.Render("r retries · c picks another currency"))
		return screenkit.Place(strings.Join(lines, "\n"), width, height)
	}
	lines = append(lines, "", w.table.View())
	if w.store.len() == 0 && !w.loading && w.keys.Add.Enabled() {
		lines = append(lines, "", st.Muted.Render("No approved addresses for "+strings.ToUpper(sanitize.Text(w.currency))+" yet: "+
			w.keys.Add.Help().Key+" adds one, "+w.keys.Currency.Help().Key+" shows another currency."))
	}
	if w.detailHeight() > 0 {
		if e := w.selected(); e != nil {
			lines = append(lines, "", detailView(st, e, width))
		}
	}
	// The table is exactly its size already; FitBlock (not lipgloss) keeps
	// a key press cheap at 100,000 rows.
	return ui.FitBlock(strings.Join(lines, "\n"), width, height)
}

// head is the title line; it changes with the currency and the count, not
// with the cursor, so it is drawn again only when its text changes.
func (w *Screen) head() string {
	var state string
	switch {
	case w.loading && w.fresh:
		state = "loading…"
	case w.remove.Running():
		state = "deleting…"
	default:
		state = w.countText()
	}
	st := w.Deps.Styles
	key := headKey{currency: w.currency, state: state, dark: st.IsDark, noColor: st.NoColor}
	if w.drawnHead.text == "" || w.drawnHead.key != key {
		w.drawnHead.key = key
		w.drawnHead.text = st.Title.Render("Whitelist") + "  " + st.Badge(strings.ToUpper(sanitize.Text(w.currency)), theme.ToneInfo) +
			"  " + st.Muted.Render(state)
	}
	return w.drawnHead.text
}

// headKey is what the title line shows.
type headKey struct {
	currency, state string
	dark, noColor   bool
}
