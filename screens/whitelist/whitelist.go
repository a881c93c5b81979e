// Package whitelist is the Whitelist screen: the approved withdrawal
// addresses of one currency at a time, added several at once and deleted
// marked or selected.
package whitelist

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
)

// whitelistKeys are the whitelist screen's bindings; add and delete are
// disabled in read-only mode.
type whitelistKeys struct {
	Currency, Add, Delete key.Binding
	table                 help.KeyMap
	form                  *formKeys // non-nil while the add form is open
	picking               bool
}

func newWhitelistKeys(readOnly bool, table help.KeyMap) whitelistKeys {
	k := whitelistKeys{
		Currency: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "currency")),
		Add:      key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "add entries")),
		Delete:   key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "delete marked/selected")),
		table:    table,
	}
	if readOnly {
		k.Add.SetEnabled(false)
		k.Delete.SetEnabled(false)
	}
	return k
}

// pickerUp and pickerDown move in the currency picker; pickerKeys[0]
// describes both in the help.
var (
	pickerUp   = key.NewBinding(key.WithKeys("up", "k"))
	pickerDown = key.NewBinding(key.WithKeys("down", "j"))
)

var pickerKeys = []key.Binding{
	key.NewBinding(key.WithKeys("up", "k", "down", "j"), key.WithHelp("↑/↓", "choose")),
	key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "select")),
	key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
}

// ShortHelp implements help.KeyMap.
func (k whitelistKeys) ShortHelp() []key.Binding {
	switch {
	case k.form != nil:
		return k.form.ShortHelp()
	case k.picking:
		return pickerKeys
	}
	return append([]key.Binding{k.Currency, k.Add, k.Delete}, k.table.ShortHelp()...)
}

// FullHelp implements help.KeyMap.
func (k whitelistKeys) FullHelp() [][]key.Binding {
	switch {
	case k.form != nil:
		return k.form.FullHelp()
	case k.picking:
		return [][]key.Binding{pickerKeys}
	}
	return append([][]key.Binding{{k.Currency, k.Add, k.Delete}}, k.table.FullHelp()...)
}

// whitelistDone is the answer to an add or delete.
type whitelistDone struct {
	what string
	n    int
}

// whitelistDeleteMsg and whitelistCancelMsg come back from the dialog.
type (
	whitelistDeleteMsg struct{ ids []string }
	whitelistCancelMsg struct{}
)

// Whitelist lists the approved withdrawal addresses of one currency, adds
// several at once and deletes the marked ones.
type Screen struct {
	deps          screenkit.Deps
	requests      ui.Owner
	keys          whitelistKeys
	width, height int

	currency string
	table    ui.Table
	entries  []apiclient.WhitelistEntry
	loadID   ui.RequestID
	loading  bool
	loadErr  error

	picking   bool
	pickerPos int

	form *whitelistForm

	// addID and deleteID are the add and the delete in flight: separate,
	// so that an add sent while a delete runs does not orphan its answer.
	addID, deleteID ui.RequestID
	// deleting holds the ids being confirmed or deleted; while set, x does
	// nothing, so a double press sends one request.
	deleting []string
	running  bool
}

// New builds the whitelist screen, showing usdc first.
func New(deps screenkit.Deps) *Screen {
	w := &Screen{deps: deps, requests: deps.Requests.For(ui.ScreenWhitelist), currency: apiclient.WhitelistCurrencies[0]}
	w.table = ui.NewTable(deps.Styles, wlColumns(2))
	// x deletes the marked entries; read-only mode has no use for marks,
	// so the help does not offer them.
	w.table.SetMarkable(!deps.ReadOnly)
	w.keys = newWhitelistKeys(deps.ReadOnly, w.table.KeyMap())
	return w
}

// wlColumns lays the table out for a level: 2 all columns (93 cells), 1
// without beneficiary and creation date (73), 0 name, address and memo
// (60: the body of an 80-column terminal). The address keeps its full 42 cells in all
// of them: an address cut short on screen is an address misread.
func wlColumns(level int) []ui.Column {
	nameMin := 8
	if level == 0 {
		nameMin = 6
	}
	return []ui.Column{
		{Title: "Name", Min: nameMin},
		{Title: "Beneficiary", Min: 8, Hidden: level < 2},
		{Title: "Address", Width: 42},
		{Title: "Memo/tag", Width: 8},
		{Title: "Last used", Width: 10, Hidden: level < 1},
		{Title: "Created", Width: 10, Hidden: level < 2},
	}
}

func wlLevel(width int) int {
	switch {
	case width >= 93:
		return 2
	case width >= 73:
		return 1
	}
	return 0
}

// SetSize implements ui.Screen: columns are hidden on narrow terminals,
// keeping rows, marks, cursor and quick filter.
func (w *Screen) SetSize(width, height int) {
	w.width, w.height = width, height
	w.table.SetColumns(wlColumns(wlLevel(width)))
	w.table.SetSize(width, max(height-2, 3))
}

// ID implements ui.Screen.
func (w *Screen) ID() ui.ScreenID { return ui.ScreenWhitelist }

// Title implements ui.Screen.
func (w *Screen) Title() string { return "Whitelist" }

// KeyMap implements ui.Screen.
func (w *Screen) KeyMap() help.KeyMap {
	k := w.keys
	k.picking = w.picking
	if w.form != nil {
		fk := w.form.keys
		k.form = &fk
	}
	return k
}

// CapturesKeys implements ui.Screen: the add form's inputs, the currency
// picker and the table filter take every key.
func (w *Screen) CapturesKeys() bool {
	return w.form != nil || w.picking || w.table.Filtering()
}

// Enter loads the entries of the current currency.
func (w *Screen) Enter() tea.Cmd {
	if w.form != nil {
		return nil
	}
	return w.load()
}

func (w *Screen) load() tea.Cmd {
	client, cur := w.deps.Client, w.currency
	w.loading = true
	var cmd tea.Cmd
	w.loadID, cmd = ui.Go(w.requests, func(ctx context.Context) ([]apiclient.WhitelistEntry, error) {
		return client.Whitelist(ctx, cur)
	})
	return cmd
}

// setEntries shows entries; rows are built once, so key presses stay cheap
// at 100,000 entries.
func (w *Screen) setEntries(entries []apiclient.WhitelistEntry) {
	w.entries = entries
	rows := make([][]string, len(entries))
	for i, e := range entries {
		memo, last := "", ""
		if e.WalletMemo != nil {
			memo = *e.WalletMemo
		}
		if e.LastUsedAt != nil {
			last = screenkit.DateOnly(*e.LastUsedAt)
		} else {
			last = "never"
		}
		rows[i] = []string{e.Name, strings.TrimSpace(e.BeneficiaryFirstName + " " + e.BeneficiaryLastName), e.WalletAddress, memo, last, screenkit.DateOnly(e.CreatedAt)}
	}
	w.table.SetRows(rows)
}

// Update implements ui.Screen.
func (w *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case ui.Result[[]apiclient.WhitelistEntry]:
		if msg.ID != w.loadID {
			return w, nil
		}
		w.loading = false
		w.loadErr = msg.Err
		if msg.Err != nil {
			w.setEntries(nil)
			if apiclient.IsStatus(msg.Err, 403) {
				return w, nil
			}
			return w, screenkit.Failed("loading the whitelist", msg.Err)
		}
		w.setEntries(msg.Value)
	case ui.Result[whitelistDone]:
		if (msg.Value.what == "add" && msg.ID != w.addID) || (msg.Value.what == "delete" && msg.ID != w.deleteID) {
			return w, nil
		}
		return w, w.actionDone(msg)
	case whitelistAddMsg:
		return w, w.sendAdd()
	case whitelistDeleteMsg:
		return w, w.runDelete(msg.ids)
	case whitelistCancelMsg:
		w.deleting = nil
	case ui.RefreshMsg:
		return w, w.load()
	case ui.SignedOutMsg, ui.SessionExpiredMsg:
		width, height := w.width, w.height
		*w = *New(w.deps)
		w.SetSize(width, height)
	case tea.KeyPressMsg:
		return w, w.handleKey(msg)
	}
	return w, nil
}

func (w *Screen) actionDone(msg ui.Result[whitelistDone]) tea.Cmd {
	reload := w.load()
	switch msg.Value.what {
	case "delete":
		w.deleting, w.running = nil, false
		if msg.Err != nil {
			return tea.Batch(screenkit.Failed("deleting whitelist entries", msg.Err), reload)
		}
		w.table.ClearMarks()
		return tea.Batch(ui.Notify(theme.ToneOK, fmt.Sprintf("deleted %d whitelist %s", msg.Value.n, screenkit.Plural(msg.Value.n, "entry", "entries"))), reload)
	case "add":
		if w.form == nil {
			return reload
		}
		if msg.Err != nil {
			w.form.gatewayFailed(msg.Err)
			return tea.Batch(screenkit.Failed("adding whitelist entries", msg.Err), reload)
		}
		w.form = nil
		return tea.Batch(ui.Notify(theme.ToneOK, fmt.Sprintf("added %d whitelist %s", msg.Value.n, screenkit.Plural(msg.Value.n, "entry", "entries"))), reload)
	}
	return reload
}

func (w *Screen) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case w.form != nil:
		return w.formKey(msg)
	case w.picking:
		return w.pickerKey(msg)
	case w.table.Filtering():
		var cmd tea.Cmd
		w.table, cmd = w.table.Update(msg)
		return cmd
	}
	switch {
	case key.Matches(msg, w.keys.Currency):
		w.picking = true
		w.pickerPos = max(slices.Index(apiclient.WhitelistCurrencies, w.currency), 0)
		return nil
	case key.Matches(msg, w.keys.Add):
		w.form = newWhitelistForm(w.deps.Styles, w.currency)
		return w.form.focusCmd()
	case key.Matches(msg, w.keys.Delete):
		return w.confirmDelete()
	}
	var cmd tea.Cmd
	w.table, cmd = w.table.Update(msg)
	return cmd
}

func (w *Screen) pickerKey(msg tea.KeyPressMsg) tea.Cmd {
	n := len(apiclient.WhitelistCurrencies)
	switch {
	case key.Matches(msg, pickerUp):
		w.pickerPos = (w.pickerPos + n - 1) % n
	case key.Matches(msg, pickerDown):
		w.pickerPos = (w.pickerPos + 1) % n
	case key.Matches(msg, pickerKeys[2]):
		w.picking = false
	case key.Matches(msg, pickerKeys[1]):
		w.picking = false
		if cur := apiclient.WhitelistCurrencies[w.pickerPos]; cur != w.currency {
			w.currency = cur
			w.setEntries(nil)
			w.loadErr = nil
			return w.load()
		}
	}
	return nil
}

// targets are the entries x acts on: the marked ones, else the selected.
func (w *Screen) targets() []apiclient.WhitelistEntry {
	var out []apiclient.WhitelistEntry
	for _, i := range w.table.Marked() {
		if i < len(w.entries) {
			out = append(out, w.entries[i])
		}
	}
	if len(out) == 0 {
		if i, ok := w.table.Cursor(); ok && i < len(w.entries) {
			out = append(out, w.entries[i])
		}
	}
	return out
}

func (w *Screen) confirmDelete() tea.Cmd {
	if w.deleting != nil || w.running || w.loading {
		return nil
	}
	ts := w.targets()
	if len(ts) == 0 {
		return ui.Notify(theme.ToneInfo, "no entry selected")
	}
	ids := make([]string, len(ts))
	var lines []string
	for i, e := range ts {
		ids[i] = e.ID
		if i < 8 {
			lines = append(lines, "• "+e.Name+" — "+e.WalletAddress)
		}
	}
	if len(ts) > 8 {
		lines = append(lines, fmt.Sprintf("… and %d more", len(ts)-8))
	}
	lines = append(lines, "Withdrawals to these addresses will no longer be possible.")
	w.deleting = ids
	body := `{"walletIds":["` + strings.Join(ids, `","`) + `"]}`
	if len(ids) > 3 {
		body = fmt.Sprintf(`{"walletIds":["%s", … %d ids in all]}`, ids[0], len(ids))
	}
	return ui.Confirm(ui.ConfirmSpec{
		Title:        fmt.Sprintf("Delete %d whitelist %s?", len(ts), screenkit.Plural(len(ts), "entry", "entries")),
		Request:      []string{"DELETE /v1/wallet/whitelist", body},
		Lines:        lines,
		ConfirmLabel: "delete",
		Tone:         theme.ToneDanger,
		OnConfirm:    whitelistDeleteMsg{ids: ids},
		OnCancel:     whitelistCancelMsg{},
	})
}

func (w *Screen) runDelete(ids []string) tea.Cmd {
	if w.running || len(w.deleting) == 0 || len(ids) != len(w.deleting) {
		return nil
	}
	w.running = true
	client := w.deps.Client
	var cmd tea.Cmd
	w.deleteID, cmd = ui.Go(w.requests, func(ctx context.Context) (whitelistDone, error) {
		return whitelistDone{what: "delete", n: len(ids)}, client.DeleteWhitelist(ctx, ids)
	})
	return cmd
}

// CopyValue implements ui.Copier: the selected entry's address.
func (w *Screen) CopyValue() (label, value string, ok bool) {
	if i, ok := w.table.Cursor(); ok && i < len(w.entries) {
		return "address of " + ui.Sanitize(w.entries[i].Name), w.entries[i].WalletAddress, true
	}
	return "", "", false
}

// View implements ui.Screen.
func (w *Screen) View() string {
	width, height := w.width, w.height
	if w.form != nil {
		return screenkit.Place(w.form.view(width, height), width, height)
	}
	st := w.deps.Styles
	head := st.Title.Render("Whitelist") + "  " + st.Badge(strings.ToUpper(w.currency), theme.ToneInfo)
	switch {
	case w.loading:
		head += "  " + st.Muted.Render("loading…")
	case w.running:
		head += "  " + st.Muted.Render("deleting…")
	default:
		head += "  " + st.Muted.Render(ui.FormatCount(len(w.entries))+" approved withdrawal "+screenkit.Plural(len(w.entries), "address", "addresses"))
	}
	lines := []string{head}
	if w.picking {
		lines = append(lines, "", st.Subtitle.Render("Pick a currency (the gateway lists one currency at a time)"))
		for i, c := range apiclient.WhitelistCurrencies {
			item := "  " + strings.ToUpper(c)
			if apiclient.CurrencyNeedsMemo(c) {
				item += st.Muted.Render("  (memo/tag required)")
			}
			if i == w.pickerPos {
				item = st.TableSelected.Render("› " + strings.ToUpper(c))
			}
			lines = append(lines, item)
		}
		return screenkit.Place(strings.Join(lines, "\n"), width, height)
	}
	switch {
	case apiclient.IsStatus(w.loadErr, 403):
		lines = append(lines, "", st.Text(theme.ToneWarn).Render("The gateway does not allow whitelist operations for this account (verification required)."))
		return screenkit.Place(strings.Join(lines, "\n"), width, height)
	case w.loadErr != nil:
		lines = append(lines, "", st.Text(theme.ToneDanger).Render("Could not load the whitelist: "+ui.Sanitize(apiclient.ErrorMessage(w.loadErr))), st.Muted.Render("r retries · c picks another currency"))
		return screenkit.Place(strings.Join(lines, "\n"), width, height)
	}
	lines = append(lines, "")
	// The table is exactly its size already; FitBlock (not lipgloss) keeps
	// a key press cheap at 100,000 rows.
	return ui.FitBlock(strings.Join(lines, "\n")+"\n"+w.table.View(), width, height)
}
