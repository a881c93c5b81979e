package delegation

import (
	"cardterm/ui/keymap"

	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
	"cardterm/ui/table"
)

// chainKeys are the chain browser's bindings beside the table's. In a
// network's tokens enter and n do nothing, so they are not offered there;
// while a table filters, only the filter's keys are.
type chainKeys struct {
	Open, Network, Back key.Binding
	table               table.KeyMap
	detail, filtering   bool
}

// ShortHelp implements help.KeyMap.
func (k chainKeys) ShortHelp() []key.Binding {
	t := k.table
	switch {
	case k.filtering:
		return []key.Binding{t.Accept, t.ClearFilter}
	case k.detail:
		return []key.Binding{k.Back, t.Up, t.Down, t.Filter}
	}
	return []key.Binding{k.Open, k.Network, k.Back, t.Up, t.Down, t.Filter}
}

// FullHelp implements help.KeyMap.
func (k chainKeys) FullHelp() [][]key.Binding {
	t := k.table
	switch {
	case k.filtering:
		return [][]key.Binding{{t.Accept, t.ClearFilter, t.Backspace}}
	case k.detail:
		return [][]key.Binding{{k.Back}, {t.Up, t.Down, t.PageUp, t.PageDown, t.Home, t.End}, {t.Filter}}
	}
	return [][]key.Binding{{k.Open, k.Network, k.Back}, {t.Up, t.Down, t.PageUp, t.PageDown, t.Home, t.End}, {t.Filter}}
}

// chainBrowser browses the chain configuration, a layer over the screen: networks in
// a table, enter shows a network's tokens with decimals and addresses. n
// asks the gateway for one network (its filter); / filters the rows shown.
// Both tables are built once and sized in SetSize.
type chainBrowser struct {
	deps          screenkit.Deps
	requests      ui.Owner
	keys          chainKeys
	width, height int

	networks table.Table
	tokens   table.Table
	config   apiclient.ChainConfig
	network  string // the gateway filter; "" = all networks
	loadID   ui.RequestID
	loading  bool
	err      error
	detail   int // index of the network whose tokens are shown; -1 = the list
	closed   bool
}

func newChainBrowser(deps screenkit.Deps, requests ui.Owner) *chainBrowser {
	c := &chainBrowser{deps: deps, requests: requests, detail: -1}
	c.networks = table.New(deps.Styles, []table.Column{
		{Title: "Network", Width: 10},
		{Title: "Environment", Width: 11},
		{Title: "Chain ID", Min: 8},
		{Title: "Delegation contract", Min: 20},
		{Title: "Tokens", Min: 10},
	})
	c.tokens = table.New(deps.Styles, []table.Column{
		{Title: "Symbol", Width: 8},
		{Title: "Decimals", Width: 8, Right: true},
		{Title: "Address", Min: 20},
	})
	c.keys = chainKeys{
		Open:    keymap.Bind("delegation.open"),
		Network: keymap.Bind("delegation.network"),
		Back:    keymap.Bind("delegation.back"),
		table:   table.Keys(),
	}
	return c
}

// KeyMap implements layer.Layer.
func (c *chainBrowser) KeyMap() help.KeyMap {
	k := c.keys
	k.detail = c.detail >= 0
	k.filtering = c.CapturesKeys()
	return k
}

// CapturesKeys implements layer.Typist: a table's filter takes every key.
func (c *chainBrowser) CapturesKeys() bool { return c.networks.Filtering() || c.tokens.Filtering() }

// load asks the gateway for the configuration of the current filter.
func (c *chainBrowser) load() tea.Cmd {
	client, network := c.deps.Client, c.network
	c.loading = true
	return ui.Start(c.requests, &c.loadID, func(ctx context.Context) (apiclient.ChainConfig, error) {
		return client.ChainConfig(ctx, network)
	})
}

// loaded shows an answer; a 404 (no network matches) is a state, not a
// failure.
func (c *chainBrowser) loaded(msg ui.Result[apiclient.ChainConfig]) tea.Cmd {
	if msg.ID != c.loadID {
		return nil
	}
	c.loading, c.err = false, msg.Err
	c.detail = -1
	if msg.Err != nil {
		c.config = apiclient.ChainConfig{}
		c.networks.SetRows(nil)
		if apiclient.IsNotFound(msg.Err) || apiclient.IsStatus(msg.Err, 403) {
			return nil
		}
		return screenkit.Failed("loading the chain configuration", msg.Err)
	}
	c.config = msg.Value
	rows := make([][]string, len(c.config.Networks))
	for i, n := range c.config.Networks {
		var symbols []string
		for _, t := range n.SortedTokens() {
			symbols = append(symbols, t.Symbol)
		}
		rows[i] = []string{n.Network, n.Environment, n.ChainID, n.DelegationContract, strings.Join(symbols, " ")}
	}
	c.networks.SetRows(rows)
	return nil
}

// Update implements layer.Layer: its answers, keys and clicks; r reads
// the configuration again.
func (c *chainBrowser) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case ui.Result[apiclient.ChainConfig]:
		return c.loaded(msg)
	case ui.RefreshMsg:
		return c.load()
	case ui.BodyMouseMsg:
		c.mouse(msg)
	case tea.KeyPressMsg:
		return c.key(msg)
	}
	return nil
}

// Done implements layer.Layer.
func (c *chainBrowser) Done() bool { return c.closed }

// key moves in, filters or leaves the table in sight; esc clears a
// filter, then leaves a network's tokens, then closes the browser.
func (c *chainBrowser) key(msg tea.KeyPressMsg) tea.Cmd {
	t := &c.networks
	if c.detail >= 0 {
		t = &c.tokens
	}
	if cmd, ok := t.FilterKey(msg); ok {
		return cmd
	}
	var cmd tea.Cmd
	switch {
	case key.Matches(msg, c.keys.Back):
		if t.Filter() != "" {
			*t, cmd = t.Update(msg) // esc clears the filter first
			return cmd
		}
		if c.detail >= 0 {
			c.detail = -1
			return nil
		}
		c.closed = true
		return nil
	case key.Matches(msg, c.keys.Open) && c.detail < 0:
		c.openNetwork()
		return nil
	case key.Matches(msg, c.keys.Network) && c.detail < 0:
		all := append([]string{""}, apiclient.ChainNetworks...)
		c.network = all[(slices.Index(all, c.network)+1)%len(all)]
		return c.load()
	}
	*t, cmd = t.Update(msg)
	return cmd
}

// openNetwork shows the tokens of the network under the cursor.
func (c *chainBrowser) openNetwork() {
	i, ok := c.networks.Cursor()
	if !ok || i >= len(c.config.Networks) {
		return
	}
	c.detail = i
	var rows [][]string
	for _, token := range c.config.Networks[i].SortedTokens() {
		rows = append(rows, []string{token.Symbol, strconv.Itoa(token.Decimals), token.Address})
	}
	c.tokens.SetRows(rows)
	c.layout()
}

// CopyValue implements ui.Copier: the selected network's contract, or
// the selected token's address.
func (c *chainBrowser) CopyValue() (label, value string, ok bool) {
	if c.detail >= 0 && c.detail < len(c.config.Networks) {
		tokens := c.config.Networks[c.detail].SortedTokens()
		if token, ok := screenkit.Selected(&c.tokens, tokens); ok {
			return sanitize.Text(token.Symbol) + " token address", token.Address, true
		}
		return "", "", false
	}
	if network, ok := screenkit.Selected(&c.networks, c.config.Networks); ok {
		return sanitize.Text(network.Network) + " delegation contract", network.DelegationContract, true
	}
	return "", "", false
}

// SetSize implements layer.Layer.
func (c *chainBrowser) SetSize(width, height int) {
	c.width, c.height = width, height
	c.layout()
}

// layout sizes both tables: the list under its heading and hint, the
// tokens under the network's fields (whose number varies by network).
func (c *chainBrowser) layout() {
	c.networks.SetSize(c.width, max(c.height-3, 3))
	c.tokens.SetSize(c.width, max(c.height-lineCount(c.detailHead()), 3))
}

// heading is the browser's first line: the scope and what was found.
func (c *chainBrowser) heading() string {
	st := c.deps.Styles
	scope := "all networks"
	if c.network != "" {
		scope = "network " + c.network
	}
	head := st.Title.Render("Chain configuration") + "  " + st.Badge(strings.ToUpper(scope), theme.ToneInfo)
	switch {
	case c.loading:
		head += "  " + st.Muted.Render("loading…")
	case c.err == nil:
		head += "  " + st.Muted.Render(fmt.Sprintf("%d %s", c.config.Count, screenkit.Plural(c.config.Count, "network", "networks")))
	}
	return head
}

// detailHead is what stands above a network's tokens.
func (c *chainBrowser) detailHead() string {
	if c.detail < 0 || c.detail >= len(c.config.Networks) {
		return ""
	}
	st := c.deps.Styles
	n := c.config.Networks[c.detail]
	fields := []screenkit.Field{
		{Label: "Network", Value: n.Network}, {Label: "Environment", Value: n.Environment},
		{Label: "Chain ID", Value: n.ChainID}, {Label: "Contract", Value: n.DelegationContract},
	}
	// Every other field the gateway sent (Solana's own, in its names).
	fields = append(fields, screenkit.OtherFields(n.Raw, chainNetworkKnown)...)
	return strings.Join([]string{c.heading(), "", screenkit.RenderFields(st, fields, c.width), "",
		st.Subtitle.Render("Tokens") + "  " + st.Muted.Render(keymap.Key("global.copy")+" copies the selected address · "+c.keys.Back.Help().Key+" back")}, "\n")
}

// View implements layer.Layer: the network list or one network's tokens.
func (c *chainBrowser) View() string {
	st, width, height := c.deps.Styles, c.width, c.height
	lines := []string{c.heading()}
	switch {
	case apiclient.IsNotFound(c.err):
		lines = append(lines, "", st.Text(theme.ToneWarn).Render("No network matches: "+sanitize.Text(apiclient.ErrorMessage(c.err))),
			st.Muted.Render(c.keys.Network.Help().Key+" asks for the next network (or all) · "+c.keys.Back.Help().Key+" goes back"))
		return screenkit.Place(strings.Join(lines, "\n"), width, height)
	case apiclient.IsStatus(c.err, 403):
		lines = append(lines, "", st.Text(theme.ToneWarn).Width(max(width-2, 20)).Render("The gateway does not allow delegation for this account (verification required)."))
		return screenkit.Place(strings.Join(lines, "\n"), width, height)
	case c.err != nil:
		lines = append(lines, "", st.Text(theme.ToneDanger).Render("Could not load the configuration: "+sanitize.Text(apiclient.ErrorMessage(c.err))),
			st.Muted.Render(keymap.Key("global.refresh")+" retries · "+c.keys.Back.Help().Key+" goes back"))
		return screenkit.Place(strings.Join(lines, "\n"), width, height)
	}
	if head := c.detailHead(); head != "" {
		return ui.FitBlock(head+"\n"+c.tokens.View(), width, height)
	}
	lines = append(lines, st.Muted.Render(c.keys.Open.Help().Key+" tokens · "+c.keys.Network.Help().Key+" one network (asks the gateway) · "+
		c.keys.table.Filter.Help().Key+" filter · "+keymap.Key("global.copy")+" copies the contract"), "")
	return ui.FitBlock(strings.Join(lines, "\n")+"\n"+c.networks.View(), width, height)
}

// chainNetworkKnown are the network members the interface documents and
// the browser draws itself.
var chainNetworkKnown = []screenkit.KnownField{{Names: []string{"network", "environment", "chainId", "delegationContract", "tokens"}}}

// Inspect implements ui.Inspectable: the network shown or selected, as
// the gateway sent it.
func (c *chainBrowser) Inspect() (string, []byte, bool) {
	i := c.detail
	if i < 0 {
		var ok bool
		if i, ok = c.networks.Cursor(); !ok {
			return screenkit.Inspected("chain configuration", c.config.Raw)
		}
	}
	if i >= len(c.config.Networks) {
		return "", nil, false
	}
	n := c.config.Networks[i]
	return screenkit.Inspected(sanitize.Text(n.Network)+" chain configuration", n.Raw)
}

// lineCount is the number of lines of a rendered block.
func lineCount(s string) int { return strings.Count(s, "\n") + 1 }
