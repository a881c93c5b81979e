package screens

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/theme"
	"cardterm/ui"
)

// dlgChainKeys are the chain browser's bindings, beside the table's.
type dlgChainKeys struct {
	Open, Network, Back key.Binding
	table               help.KeyMap
}

// ShortHelp implements help.KeyMap.
func (k dlgChainKeys) ShortHelp() []key.Binding {
	return append([]key.Binding{k.Open, k.Network, k.Back}, k.table.ShortHelp()...)
}

// FullHelp implements help.KeyMap.
func (k dlgChainKeys) FullHelp() [][]key.Binding {
	return append([][]key.Binding{{k.Open, k.Network, k.Back}}, k.table.FullHelp()...)
}

// dlgChain browses the chain configuration: networks in a table, enter
// shows a network's tokens with decimals and addresses. n asks the gateway
// for one network (its filter); / filters the rows shown.
type dlgChain struct {
	st      *theme.Styles
	keys    dlgChainKeys
	nets    ui.Table
	toks    ui.Table
	cfg     apiclient.ChainConfig
	network string // the gateway filter; "" = all networks
	loadID  ui.RequestID
	loading bool
	err     error
	detail  int // index of the network whose tokens are shown; -1 = the list
}

func newDlgChain(st *theme.Styles) *dlgChain {
	c := &dlgChain{st: st, detail: -1}
	c.nets = ui.NewTable(st, []ui.Column{
		{Title: "Network", Width: 10},
		{Title: "Environment", Width: 11},
		{Title: "Chain ID", Min: 8},
		{Title: "Delegation contract", Min: 20},
		{Title: "Tokens", Min: 10},
	})
	c.toks = ui.NewTable(st, []ui.Column{
		{Title: "Symbol", Width: 8},
		{Title: "Decimals", Width: 8, Right: true},
		{Title: "Address", Min: 20},
	})
	c.keys = dlgChainKeys{
		Open:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "tokens")),
		Network: key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "ask for one network")),
		Back:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		table:   c.nets.KeyMap(),
	}
	return c
}

// keyMap is the browser's keys; in a network's tokens enter and n do
// nothing, so they are not offered there.
func (c *dlgChain) keyMap() help.KeyMap {
	k := c.keys
	if c.detail >= 0 {
		k.Open.SetEnabled(false)
		k.Network.SetEnabled(false)
		k.table = c.toks.KeyMap()
	}
	return k
}

func (c *dlgChain) capturing() bool { return c.nets.Filtering() || c.toks.Filtering() }

// load asks the gateway for the configuration of the current filter.
func (c *dlgChain) load(deps Deps) tea.Cmd {
	client, network := deps.Client, c.network
	c.loading = true
	var cmd tea.Cmd
	c.loadID, cmd = ui.Go(deps.Requests, func(ctx context.Context) (apiclient.ChainConfig, error) {
		return client.ChainConfig(ctx, network)
	})
	return cmd
}

// loaded shows an answer; a 404 (no network matches) is a state, not a
// failure.
func (c *dlgChain) loaded(msg ui.Result[apiclient.ChainConfig]) tea.Cmd {
	if msg.ID != c.loadID {
		return nil
	}
	c.loading, c.err = false, msg.Err
	c.detail = -1
	if msg.Err != nil {
		c.cfg = apiclient.ChainConfig{}
		c.nets.SetRows(nil)
		if apiclient.IsNotFound(msg.Err) || apiclient.IsStatus(msg.Err, 403) {
			return nil
		}
		return failed("loading the chain configuration", msg.Err)
	}
	c.cfg = msg.Value
	rows := make([][]string, len(c.cfg.Networks))
	for i, n := range c.cfg.Networks {
		var syms []string
		for _, t := range n.SortedTokens() {
			syms = append(syms, t.Symbol)
		}
		rows[i] = []string{n.Network, n.Environment, n.ChainID, n.DelegationContract, strings.Join(syms, " ")}
	}
	c.nets.SetRows(rows)
	return nil
}

// key handles a key; leave reports that esc left the browser.
func (c *dlgChain) key(msg tea.KeyPressMsg, deps Deps) (cmd tea.Cmd, leave bool) {
	t := &c.nets
	if c.detail >= 0 {
		t = &c.toks
	}
	if t.Filtering() {
		*t, cmd = t.Update(msg)
		return cmd, false
	}
	switch {
	case key.Matches(msg, c.keys.Back):
		if t.Filter() != "" {
			*t, cmd = t.Update(msg) // esc clears the filter first
			return cmd, false
		}
		if c.detail >= 0 {
			c.detail = -1
			return nil, false
		}
		return nil, true
	case key.Matches(msg, c.keys.Open) && c.detail < 0:
		if i, ok := c.nets.Cursor(); ok && i < len(c.cfg.Networks) {
			c.detail = i
			var rows [][]string
			for _, tk := range c.cfg.Networks[i].SortedTokens() {
				rows = append(rows, []string{tk.Symbol, strconv.Itoa(tk.Decimals), tk.Address})
			}
			c.toks.SetRows(rows)
		}
		return nil, false
	case key.Matches(msg, c.keys.Network) && c.detail < 0:
		all := append([]string{""}, apiclient.ChainNetworks...)
		c.network = all[(indexOf(all, c.network)+1)%len(all)]
		return c.load(deps), false
	}
	*t, cmd = t.Update(msg)
	return cmd, false
}

// copyValue is the selected network's contract, or the selected token's
// address.
func (c *dlgChain) copyValue() (label, value string, ok bool) {
	if c.detail >= 0 && c.detail < len(c.cfg.Networks) {
		toks := c.cfg.Networks[c.detail].SortedTokens()
		if i, ok := c.toks.Cursor(); ok && i < len(toks) {
			return ui.Sanitize(toks[i].Symbol) + " token address", toks[i].Address, true
		}
		return "", "", false
	}
	if i, ok := c.nets.Cursor(); ok && i < len(c.cfg.Networks) {
		return ui.Sanitize(c.cfg.Networks[i].Network) + " delegation contract", c.cfg.Networks[i].DelegationContract, true
	}
	return "", "", false
}

// view draws the network list or one network's tokens.
func (c *dlgChain) view(width, height int) string {
	st := c.st
	scope := "all networks"
	if c.network != "" {
		scope = "network " + c.network
	}
	head := st.Title.Render("Chain configuration") + "  " + st.Badge(strings.ToUpper(scope), theme.ToneInfo)
	switch {
	case c.loading:
		head += "  " + st.Muted.Render("loading…")
	case c.err == nil:
		head += "  " + st.Muted.Render(fmt.Sprintf("%d %s", c.cfg.Count, plural(c.cfg.Count, "network", "networks")))
	}
	lines := []string{head}
	switch {
	case apiclient.IsNotFound(c.err):
		lines = append(lines, "", st.Text(theme.ToneWarn).Render("No network matches: "+ui.Sanitize(apiclient.ErrorMessage(c.err))),
			st.Muted.Render("n asks for the next network (or all) · esc goes back"))
		return place(strings.Join(lines, "\n"), width, height)
	case apiclient.IsStatus(c.err, 403):
		lines = append(lines, "", st.Text(theme.ToneWarn).Render("The gateway does not allow delegation for this account (verification required)."))
		return place(strings.Join(lines, "\n"), width, height)
	case c.err != nil:
		lines = append(lines, "", st.Text(theme.ToneDanger).Render("Could not load the configuration: "+ui.Sanitize(apiclient.ErrorMessage(c.err))),
			st.Muted.Render("r retries · esc goes back"))
		return place(strings.Join(lines, "\n"), width, height)
	}
	if c.detail >= 0 && c.detail < len(c.cfg.Networks) {
		n := c.cfg.Networks[c.detail]
		fields := []field{
			{label: "Network", value: n.Network}, {label: "Environment", value: n.Environment},
			{label: "Chain ID", value: n.ChainID}, {label: "Contract", value: n.DelegationContract},
		}
		fields = append(fields, extraFields(n.Extra)...)
		lines = append(lines, "", renderFields(st, fields, width), "", st.Subtitle.Render("Tokens")+"  "+st.Muted.Render("y copies the selected address · esc back"))
		body := strings.Join(lines, "\n")
		c.toks.SetSize(width, max(height-strings.Count(body, "\n")-1, 3))
		return ui.FitBlock(body+"\n"+c.toks.View(), width, height)
	}
	lines = append(lines, st.Muted.Render("enter tokens · n one network (asks the gateway) · / filter · y copies the contract"), "")
	c.nets.SetSize(width, max(height-len(lines), 3))
	return ui.FitBlock(strings.Join(lines, "\n")+"\n"+c.nets.View(), width, height)
}
