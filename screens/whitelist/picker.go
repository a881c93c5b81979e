package whitelist

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/domain/lazy"
	"cardterm/theme"
	"cardterm/ui/keymap"
	"cardterm/ui/sanitize"
)

// The currency picker: typing filters the known currencies, and a code
// the list does not know is offered as it is, since a gateway may support
// more currencies than this client knows (it answers 422 for the ones it
// does not).

// pickerKeys are the picker's bindings; Type is every letter and digit,
// which filter the list.
type pickerKeys struct {
	Up, Down, Select, Erase, Cancel, Type key.Binding
}

func newPickerKeys() pickerKeys {
	return pickerKeys{
		Up:     keymap.Bind("whitelist.up"),
		Down:   key.NewBinding(key.WithKeys("down")),
		Select: keymap.Bind("whitelist.select"),
		Erase:  keymap.Bind("whitelist.erase"),
		Cancel: keymap.Bind("whitelist.cancel"),
		Type:   key.NewBinding(key.WithKeys(codeKeys()...), key.WithHelp("a-z 0-9", "filter")),
	}
}

// codeKeys are the keys a currency code is typed with: letters (either
// case) and digits.
func codeKeys() []string {
	var keys []string
	for c := 'a'; c <= 'z'; c++ {
		keys = append(keys, string(c), string(c-'a'+'A'))
	}
	for c := '0'; c <= '9'; c++ {
		keys = append(keys, string(c))
	}
	return keys
}

// ShortHelp implements help.KeyMap.
func (k pickerKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Type, k.Up, k.Select, k.Erase, k.Cancel}
}

// FullHelp implements help.KeyMap: the same keys.
func (k pickerKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// currencyCode is what a currency code may look like: lower-case letters
// and digits, as the gateway writes them.
var currencyCode = lazy.Regexp{Pattern: `^[a-z][a-z0-9]{1,11}$`}

// picker is the currency picker's state while it is open.
type picker struct {
	query   string
	choices []string // what the query lets through, known currencies first
	pos     int
}

// newPicker opens the picker on the current currency.
func newPicker(current string) *picker {
	p := &picker{}
	p.filter()
	p.pos = max(slices.Index(p.choices, current), 0)
	return p
}

// filter lists the known currencies starting with the query, then those
// containing it, then the query itself when it is a code the list does
// not know.
func (p *picker) filter() {
	p.choices = p.choices[:0]
	for _, c := range apiclient.WhitelistCurrencies {
		if strings.HasPrefix(c, p.query) {
			p.choices = append(p.choices, c)
		}
	}
	for _, c := range apiclient.WhitelistCurrencies {
		if !strings.HasPrefix(c, p.query) && strings.Contains(c, p.query) {
			p.choices = append(p.choices, c)
		}
	}
	if currencyCode.Get().MatchString(p.query) && !slices.Contains(apiclient.WhitelistCurrencies, p.query) {
		p.choices = append(p.choices, p.query)
	}
	p.pos = 0
}

// key handles a key; picked is the currency chosen with enter, closed is
// set when the picker closes (picked or cancelled).
func (p *picker) key(k pickerKeys, msg tea.KeyPressMsg) (picked string, closed bool) {
	n := len(p.choices)
	switch {
	case key.Matches(msg, k.Cancel):
		return "", true
	case key.Matches(msg, k.Select):
		if n == 0 {
			return "", false
		}
		return p.choices[p.pos], true
	case key.Matches(msg, k.Up):
		if n > 0 {
			p.pos = (p.pos + n - 1) % n
		}
	case key.Matches(msg, k.Down):
		if n > 0 {
			p.pos = (p.pos + 1) % n
		}
	case key.Matches(msg, k.Erase):
		if p.query != "" {
			p.query = p.query[:len(p.query)-1]
			p.filter()
		}
	case key.Matches(msg, k.Type):
		if len(p.query) < 12 {
			p.query += strings.ToLower(msg.String())
			p.filter()
		}
	}
	return "", false
}

// view draws the picker's lines.
func (p *picker) view(st *theme.Styles) []string {
	lines := []string{
		st.Subtitle.Render("Pick a currency (the gateway lists one currency at a time)"),
		st.Label.Render("Currency ") + st.Value.Render(p.query) + st.Muted.Render("▏ type to filter"),
	}
	if len(p.choices) == 0 {
		return append(lines, st.Muted.Render("  no currency matches; a code is letters and digits, such as usdc"))
	}
	for i, c := range p.choices {
		note := ""
		switch {
		case !slices.Contains(apiclient.WhitelistCurrencies, c):
			note = "  (not in this client's list: the gateway decides)"
		case apiclient.CurrencyNeedsMemo(c):
			note = "  (memo/tag required)"
		}
		item := "  " + strings.ToUpper(c)
		if i == p.pos {
			item = st.TableSelected.Render("› " + strings.ToUpper(c))
		}
		lines = append(lines, item+st.Muted.Render(sanitize.Text(note)))
	}
	return lines
}
