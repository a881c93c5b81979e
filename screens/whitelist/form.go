package whitelist

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
)

// formKeys are the add form's bindings.
type formKeys struct {
	Next, Prev, AddEntry, RemoveEntry, Send, Cancel key.Binding
}

func newFormKeys() formKeys {
	return formKeys{
		Next:        key.NewBinding(key.WithKeys("tab", "down", "enter"), key.WithHelp("tab", "next field")),
		Prev:        key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab", "previous field")),
		AddEntry:    key.NewBinding(key.WithKeys("ctrl+n"), key.WithHelp("ctrl+n", "add another entry")),
		RemoveEntry: key.NewBinding(key.WithKeys("ctrl+x"), key.WithHelp("ctrl+x", "remove this entry")),
		Send:        key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "send all")),
		Cancel:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
}

// ShortHelp implements help.KeyMap.
func (k formKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Next, k.AddEntry, k.RemoveEntry, k.Send, k.Cancel}
}

// FullHelp implements help.KeyMap.
func (k formKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Next, k.Prev}, {k.AddEntry, k.RemoveEntry}, {k.Send, k.Cancel}}
}

// The fields of one entry, in form order, with their wire names.
const (
	fName = iota
	fFirst
	fLast
	fAddress
	fMemo
	numFields
)

var (
	wlLabels = [numFields]string{"Name", "First name", "Last name", "Address", "Memo/tag"}
	wlWire   = [numFields]string{"name", "beneficiaryFirstName", "beneficiaryLastName", "walletAddress", "walletMemo"}
)

// wlEntry is one entry being typed, with its problems by field.
type wlEntry struct {
	in   [numFields]textinput.Model
	errs [numFields]string
	// problem is the gateway's message about this entry.
	problem string
}

// whitelistForm adds several entries in one request; what was typed is
// kept whatever the gateway answers.
type whitelistForm struct {
	st       *theme.Styles
	keys     formKeys
	currency string
	entries  []*wlEntry
	ei, fi   int // focused entry and field
	sending  bool
	problem  string
}

func newWhitelistForm(st *theme.Styles, currency string) *whitelistForm {
	f := &whitelistForm{st: st, keys: newFormKeys(), currency: currency}
	f.addEntry()
	return f
}

func (f *whitelistForm) addEntry() {
	e := &wlEntry{}
	for i := range e.in {
		in := screenkit.NewInput(f.st)
		in.Prompt = ""
		in.CharLimit = 128
		in.SetWidth(40)
		e.in[i] = in
	}
	e.in[fAddress].SetWidth(48)
	e.in[fAddress].Placeholder = addressHint(f.currency)
	if apiclient.CurrencyNeedsMemo(f.currency) {
		e.in[fMemo].Placeholder = "required for " + strings.ToUpper(f.currency)
	} else {
		e.in[fMemo].Placeholder = "optional"
	}
	f.entries = append(f.entries, e)
	f.ei, f.fi = len(f.entries)-1, 0
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

// focusCmd focuses the current field and blurs the others.
func (f *whitelistForm) focusCmd() tea.Cmd {
	var cmd tea.Cmd
	for ei, e := range f.entries {
		for fi := range e.in {
			if ei == f.ei && fi == f.fi {
				cmd = e.in[fi].Focus()
			} else {
				e.in[fi].Blur()
			}
		}
	}
	return cmd
}

// payload is what will be sent.
func (f *whitelistForm) payload() []apiclient.NewWhitelistEntry {
	out := make([]apiclient.NewWhitelistEntry, len(f.entries))
	for i, e := range f.entries {
		v := func(k int) string { return strings.TrimSpace(e.in[k].Value()) }
		out[i] = apiclient.NewWhitelistEntry{Currency: f.currency, Name: v(fName), BeneficiaryFirstName: v(fFirst),
			BeneficiaryLastName: v(fLast), WalletAddress: v(fAddress), WalletMemo: v(fMemo)}
	}
	return out
}

// validate marks every problem; it reports whether all entries may be sent,
// and focuses the first problem otherwise.
func (f *whitelistForm) validate() bool {
	first := -1
	for i, p := range f.payload() {
		e := f.entries[i]
		e.errs = [numFields]string{}
		e.problem = ""
		for _, fe := range apiclient.ValidateWhitelistEntry(p) {
			if k := slices.Index(wlWire[:], fe.Field); k >= 0 && e.errs[k] == "" {
				e.errs[k] = fe.Message
				if first < 0 {
					first = i*numFields + k
				}
			}
		}
	}
	if first >= 0 {
		f.ei, f.fi = first/numFields, first%numFields
		f.problem = "Fix the marked fields; nothing was sent."
		return false
	}
	f.problem = ""
	return true
}

// gatewayFailed shows a refusal on the entry it names; every typed value
// stays.
func (f *whitelistForm) gatewayFailed(err error) {
	f.sending = false
	msg := apiclient.ErrorMessage(err)
	var e *apiclient.Error
	if errors.As(err, &e) {
		for _, fe := range e.Fields {
			idx, ok := apiclient.WhitelistErrorEntry(&apiclient.Error{Message: fe.Field})
			if !ok || idx >= len(f.entries) {
				continue
			}
			_, name, _ := strings.Cut(fe.Field, "].")
			if k := slices.Index(wlWire[:], name); k >= 0 {
				f.entries[idx].errs[k] = fe.Message
			}
			if f.entries[idx].problem == "" {
				f.entries[idx].problem = fe.Message
			}
		}
	}
	if idx, ok := apiclient.WhitelistErrorEntry(err); ok && idx < len(f.entries) {
		if f.entries[idx].problem == "" {
			f.entries[idx].problem = msg
		}
		f.ei = idx
		f.problem = fmt.Sprintf("The gateway refused entry %d: %s. Nothing was added; your entries are kept.", idx+1, msg)
		return
	}
	f.problem = "The gateway refused the entries: " + msg + ". Nothing was added; your entries are kept."
}

// whitelistAddMsg is the confirmation's yes to adding the form's entries.
type whitelistAddMsg struct{}

// confirmAdd shows the request the add will send before sending it.
func (w *Screen) confirmAdd() tea.Cmd {
	entries := w.form.payload()
	lines := make([]string, 0, min(len(entries), 8)+1)
	for i, e := range entries {
		if i == 8 {
			lines = append(lines, fmt.Sprintf("… and %d more", len(entries)-8))
			break
		}
		lines = append(lines, "• "+e.Name+" — "+e.WalletAddress)
	}
	return ui.Confirm(ui.ConfirmSpec{
		Title:        fmt.Sprintf("Add %d whitelist %s?", len(entries), screenkit.Plural(len(entries), "entry", "entries")),
		Request:      []string{"POST /v1/wallet/whitelist", fmt.Sprintf(`{"wallets":[ %d %s entries ]}`, len(entries), w.currency)},
		Lines:        append(lines, "Withdrawals may then be sent to these addresses."),
		ConfirmLabel: "add",
		Tone:         theme.ToneInfo,
		OnConfirm:    whitelistAddMsg{},
	})
}

// sendAdd sends the form's entries once confirmed.
func (w *Screen) sendAdd() tea.Cmd {
	f := w.form
	if f == nil || f.sending {
		return nil
	}
	f.sending = true
	entries := f.payload()
	client := w.deps.Client
	return ui.Start(w.requests, &w.addID, func(ctx context.Context) (whitelistDone, error) {
		return whitelistDone{what: "add", n: len(entries)}, client.AddWhitelist(ctx, entries)
	})
}

// formKey handles a key while the add form is open.
func (w *Screen) formKey(msg tea.KeyPressMsg) tea.Cmd {
	f := w.form
	switch {
	case key.Matches(msg, f.keys.Cancel):
		if f.sending {
			return nil
		}
		w.form = nil
		return nil
	case f.sending:
		return nil // the request is on its way; the entries stay as sent
	case key.Matches(msg, f.keys.Send):
		if !f.validate() {
			return f.focusCmd()
		}
		return w.confirmAdd()
	case key.Matches(msg, f.keys.AddEntry):
		f.addEntry()
		return f.focusCmd()
	case key.Matches(msg, f.keys.RemoveEntry):
		if len(f.entries) == 1 {
			return ui.Notify(theme.ToneInfo, "at least one entry is needed: esc cancels the form")
		}
		f.entries = append(f.entries[:f.ei], f.entries[f.ei+1:]...)
		f.ei = min(f.ei, len(f.entries)-1)
		f.fi = 0
		return f.focusCmd()
	case key.Matches(msg, f.keys.Next):
		f.fi++
		if f.fi == numFields {
			if f.ei == len(f.entries)-1 {
				f.fi = numFields - 1
			} else {
				f.ei, f.fi = f.ei+1, 0
			}
		}
		return f.focusCmd()
	case key.Matches(msg, f.keys.Prev):
		f.fi--
		if f.fi < 0 {
			if f.ei == 0 {
				f.fi = 0
			} else {
				f.ei, f.fi = f.ei-1, numFields-1
			}
		}
		return f.focusCmd()
	}
	e := f.entries[f.ei]
	var cmd tea.Cmd
	before := e.in[f.fi].Value()
	e.in[f.fi], cmd = e.in[f.fi].Update(msg)
	if e.in[f.fi].Value() != before {
		e.errs[f.fi] = ""
	}
	return cmd
}

// view draws the form; the focused entry is always on screen.
func (f *whitelistForm) view(width, height int) string {
	st := f.st
	head := []string{
		st.Title.Render("Add whitelist entries") + "  " + st.Badge(strings.ToUpper(f.currency), theme.ToneInfo) +
			"  " + st.Muted.Render(fmt.Sprintf("%d %s, sent in one request", len(f.entries), screenkit.Plural(len(f.entries), "entry", "entries"))),
		st.Muted.Render("tab next field · ctrl+n another entry · ctrl+x remove entry · ctrl+s send all · esc cancel"),
	}
	if f.sending {
		head = append(head, st.Muted.Render("Sending…"))
	} else if f.problem != "" {
		head = append(head, st.Text(theme.ToneDanger).Render(ansi.Truncate(ui.Sanitize(f.problem), width, "…")))
	}
	head = append(head, "")
	labelW := 12
	var blocks [][]string
	for i, e := range f.entries {
		title := fmt.Sprintf("Entry %d", i+1)
		bad := e.problem != ""
		for _, m := range e.errs {
			bad = bad || m != ""
		}
		var lines []string
		if bad {
			title = st.Text(theme.ToneDanger).Render("✗ " + title)
			if e.problem != "" {
				title += "  " + st.Text(theme.ToneDanger).Render(ui.Sanitize(e.problem))
			}
		} else {
			title = st.Subtitle.Render(title)
		}
		lines = append(lines, ansi.Truncate(title, width, "…"))
		for k := 0; k < numFields; k++ {
			label := wlLabels[k]
			if k == fMemo && apiclient.CurrencyNeedsMemo(f.currency) {
				label = "Memo/tag *"
			}
			marker := "  "
			lst := st.Label
			if i == f.ei && k == f.fi {
				marker = st.Accent.Render("› ")
				lst = st.Accent
			}
			line := marker + lst.Render(screenkit.PadRight(label, labelW)) + " " + e.in[k].View()
			lines = append(lines, ansi.Truncate(line, width, "…"))
			if e.errs[k] != "" {
				lines = append(lines, ansi.Truncate(strings.Repeat(" ", labelW+3)+st.Text(theme.ToneDanger).Render("✗ "+ui.Sanitize(e.errs[k])), width, "…"))
			}
		}
		lines = append(lines, "")
		blocks = append(blocks, lines)
	}
	// Scroll whole entries so the focused one is visible.
	avail := max(height-len(head), 1)
	start := 0
	for {
		used := 0
		for i := start; i <= f.ei && i < len(blocks); i++ {
			used += len(blocks[i])
		}
		if used <= avail || start >= f.ei {
			break
		}
		start++
	}
	out := head
	if start > 0 {
		out = append(out, st.Muted.Render(fmt.Sprintf("↑ %d more %s above", start, screenkit.Plural(start, "entry", "entries"))))
	}
	for _, b := range blocks[start:] {
		out = append(out, b...)
	}
	return strings.Join(out, "\n")
}
