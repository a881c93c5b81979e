// Package consent is the Consent screen: a user's consent status and sets,
// each set's consents, the audit trail, and linking, revoking and creating
// consent sets.
package consent

import (
	"context"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/ui"
)

// The consent screen is the support agents' tool: look up a user's (or an
// onboarding's) consent sets, read the audit trail, revoke a consent, link
// a set to a user, create a set.

// cnsKeys are the consent screen's bindings; x, L and N are disabled in
// read-only mode.
type cnsKeys struct {
	User, Onboarding, Open, Audit, Revoke, Link, New key.Binding
	Next, Prev, Back                                 key.Binding
	table                                            help.KeyMap
	mode                                             cnsMode
	form                                             help.KeyMap // non-nil while a form is open
}

func newCnsKeys(readOnly bool, table help.KeyMap) cnsKeys {
	k := cnsKeys{
		User:       key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "look up user")),
		Onboarding: key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "look up onboarding")),
		Open:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open set")),
		Audit:      key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "audit trail")),
		Revoke:     key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "revoke consent")),
		Link:       key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "link set to user")),
		New:        key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "new consent set")),
		Next:       key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next page")),
		Prev:       key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "previous page")),
		Back:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		table:      table,
	}
	if readOnly {
		k.Revoke.SetEnabled(false)
		k.Link.SetEnabled(false)
		k.New.SetEnabled(false)
	}
	return k
}

// ShortHelp implements help.KeyMap.
func (k cnsKeys) ShortHelp() []key.Binding {
	switch {
	case k.form != nil:
		return k.form.ShortHelp()
	case k.mode == cnsAudit:
		return []key.Binding{k.Next, k.Prev, k.Back}
	case k.mode == cnsDetail:
		return []key.Binding{k.Audit, k.Link, k.Back}
	}
	return []key.Binding{k.User, k.Onboarding, k.Open, k.Audit, k.Revoke, k.Link, k.New}
}

// FullHelp implements help.KeyMap: the keys of the view shown, only.
func (k cnsKeys) FullHelp() [][]key.Binding {
	switch {
	case k.form != nil:
		return k.form.FullHelp()
	case k.mode == cnsAudit:
		return append([][]key.Binding{{k.Next, k.Prev, k.Back}}, k.table.FullHelp()...)
	case k.mode == cnsDetail:
		return [][]key.Binding{{k.User, k.Onboarding, k.Audit}, {k.Link, k.New, k.Back}}
	}
	return append([][]key.Binding{{k.User, k.Onboarding, k.Open, k.Audit}, {k.Revoke, k.Link, k.New}}, k.table.FullHelp()...)
}

// cnsMode is which view of the screen is showing.
type cnsMode int

const (
	cnsMain   cnsMode = iota // the sets and their consents
	cnsDetail                // one set, all its records, metadata and links
	cnsAudit                 // the audit trail, a page at a time
)

// cnsSubject is what was looked up: a user or an onboarding.
type cnsSubject struct {
	userID, onboardingID string
}

// cnsLoaded is the answer to a look-up.
type cnsLoaded struct {
	subject cnsSubject
	selfID  string // the signed-in user's id, learnt on the first load
	status  string // aggregate status (users); "" for onboardings
	// notFound is the gateway's 404: no consent set for this user id. It
	// is not the status "none" (a mistyped id answers the same).
	notFound bool
	sets     []apiclient.ConsentSet
}

// cnsRow is a table row: one consent in force of one set.
type cnsRow struct {
	set     int
	consent apiclient.Consent
}

// Consent is screen 8.
type Screen struct {
	deps          screenkit.Deps
	requests      ui.Owner
	keys          cnsKeys
	width, height int
	mode          cnsMode

	selfID   string
	subject  cnsSubject
	status   string
	notFound bool   // the user look-up answered 404 (cnsLoaded.notFound)
	summary  string // the line under the header (summarize)
	sets     []apiclient.ConsentSet
	rows     []cnsRow
	table    ui.Table
	level    int // table layout: 0 narrow, 1 medium, 2 wide (cnsColumns)

	loadID  ui.RequestID
	loading bool
	loadErr error

	detail       string // id of the set open in the detail view
	detailScroll int

	audit cnsAuditView

	prompt *cnsPrompt
	link   *cnsLinkForm
	create *cnsCreateForm

	actionID ui.RequestID
	busy     bool // a confirmation is open or a mutation is running
	inFlight bool // a mutation request is on its way
}

// New builds the consent screen; it looks up the signed-in user
// first.
func New(deps screenkit.Deps) *Screen {
	c := &Screen{deps: deps, requests: deps.Requests.For(ui.ScreenConsent)}
	c.table = ui.NewTable(deps.Styles, cnsColumns(0))
	c.keys = newCnsKeys(deps.ReadOnly, c.table.KeyMap())
	c.audit = newCnsAuditView(deps.Styles)
	return c
}

// ID implements ui.Screen.
func (c *Screen) ID() ui.ScreenID { return ui.ScreenConsent }

// Title implements ui.Screen.
func (c *Screen) Title() string { return "Consent" }

// KeyMap implements ui.Screen.
func (c *Screen) KeyMap() help.KeyMap {
	k := c.keys
	k.mode = c.mode
	switch {
	case c.prompt != nil:
		k.form = c.prompt.keys
	case c.link != nil:
		k.form = c.link.keys
	case c.create != nil:
		k.form = c.create.keys
	case c.mode == cnsAudit:
		k.table = c.audit.table.KeyMap()
	}
	return k
}

// CapturesKeys implements ui.Screen: forms and table filters take every key.
func (c *Screen) CapturesKeys() bool {
	return c.prompt != nil || c.link != nil || c.create != nil || c.table.Filtering() ||
		(c.mode == cnsAudit && c.audit.table.Filtering())
}

// Enter loads the current subject (the signed-in user the first time).
func (c *Screen) Enter() tea.Cmd {
	if c.prompt != nil || c.link != nil || c.create != nil {
		return nil
	}
	if c.mode == cnsAudit {
		return c.loadAudit(c.audit.offset)
	}
	return c.load(c.subject)
}

// load looks up subject; an empty subject means the signed-in user, whose
// id comes from GET /v1/user.
func (c *Screen) load(subject cnsSubject) tea.Cmd {
	client, self := c.deps.Client, c.selfID
	c.loading = true
	var cmd tea.Cmd
	c.loadID, cmd = ui.Go(c.requests, func(ctx context.Context) (cnsLoaded, error) {
		return cnsLookup(ctx, client, subject, self)
	})
	return cmd
}

// cnsLookup reads a subject: a user's full status (a 404 is kept as such:
// no consent set for this id, not a status) or an onboarding's sets.
func cnsLookup(ctx context.Context, client *apiclient.Client, subject cnsSubject, self string) (cnsLoaded, error) {
	out := cnsLoaded{subject: subject, selfID: self}
	if subject.onboardingID != "" {
		ob, err := client.OnboardingConsents(ctx, subject.onboardingID)
		if apiclient.IsNotFound(err) {
			out.notFound = true
			return out, nil
		}
		out.sets = ob.ConsentSets
		return out, err
	}
	if subject.userID == "" {
		if self == "" {
			u, err := client.User(ctx)
			if err != nil {
				return out, err
			}
			out.selfID = u.ID
		}
		out.subject.userID = out.selfID
	}
	st, err := client.UserConsent(ctx, out.subject.userID, true)
	if apiclient.IsNotFound(err) {
		out.notFound = true
		return out, nil
	}
	out.status, out.sets = st.ConsentStatus, st.ConsentSets
	return out, err
}

// setData shows what a look-up found; rows are built once.
func (c *Screen) setData(d cnsLoaded) {
	c.subject, c.status, c.sets, c.notFound = d.subject, d.status, d.sets, d.notFound
	if d.selfID != "" {
		c.selfID = d.selfID
	}
	c.summary = c.summarize()
	c.rebuildRows()
}

// selected is the row under the cursor.
func (c *Screen) selected() (cnsRow, bool) {
	if i, ok := c.table.Cursor(); ok && i < len(c.rows) {
		return c.rows[i], true
	}
	return cnsRow{}, false
}

// selectedSet is the set the keys act on: the open one, else the selected
// row's.
func (c *Screen) selectedSet() (apiclient.ConsentSet, bool) {
	if c.mode == cnsDetail {
		for _, s := range c.sets {
			if s.ConsentSetID == c.detail {
				return s, true
			}
		}
		return apiclient.ConsentSet{}, false
	}
	if r, ok := c.selected(); ok {
		return c.sets[r.set], true
	}
	return apiclient.ConsentSet{}, false
}

// Update implements ui.Screen.
func (c *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case ui.Result[cnsLoaded]:
		if msg.ID != c.loadID {
			return c, nil
		}
		c.loading = false
		c.loadErr = msg.Err
		if msg.Err != nil {
			return c, screenkit.Failed("looking up consents", msg.Err)
		}
		c.setData(msg.Value)
	case ui.Result[apiclient.ConsentAuditPage]:
		return c, c.auditLoaded(msg)
	case ui.Result[cnsDone]:
		if msg.ID != c.actionID {
			return c, nil
		}
		return c, c.actionDone(msg)
	case cnsRevokeMsg:
		return c, c.runRevoke(msg)
	case cnsLinkMsg:
		return c, c.runLink(msg)
	case cnsCreateMsg:
		return c, c.runCreate(msg)
	case cnsCancelMsg:
		c.busy = false
		if c.link != nil {
			c.link.confirming = false
		}
		if c.create != nil {
			c.create.confirming = false
		}
	case ui.RefreshMsg:
		return c, c.Enter()
	case ui.SignedOutMsg, ui.SessionExpiredMsg:
		w, h := c.width, c.height
		*c = *New(c.deps)
		c.SetSize(w, h)
	case tea.KeyPressMsg:
		return c, c.handleKey(msg)
	}
	return c, nil
}

func (c *Screen) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case c.prompt != nil:
		return c.promptKey(msg)
	case c.link != nil:
		return c.linkKey(msg)
	case c.create != nil:
		return c.createKey(msg)
	case c.mode == cnsAudit:
		return c.auditKey(msg)
	case c.table.Filtering():
		var cmd tea.Cmd
		c.table, cmd = c.table.Update(msg)
		return cmd
	}
	switch {
	case key.Matches(msg, c.keys.User):
		c.prompt = newCnsPrompt(c.deps.Styles, false, c.promptValue(false))
		return c.prompt.in.Focus()
	case key.Matches(msg, c.keys.Onboarding):
		c.prompt = newCnsPrompt(c.deps.Styles, true, c.promptValue(true))
		return c.prompt.in.Focus()
	case key.Matches(msg, c.keys.Audit):
		return c.openAudit()
	case key.Matches(msg, c.keys.Link):
		return c.openLink()
	case key.Matches(msg, c.keys.New):
		c.create = newCnsCreateForm(c.deps.Styles, c.subject.onboardingID)
		return c.create.focus()
	case c.mode == cnsDetail:
		return c.detailKey(msg)
	case key.Matches(msg, c.keys.Open):
		if s, ok := c.selectedSet(); ok {
			c.mode, c.detail, c.detailScroll = cnsDetail, s.ConsentSetID, 0
		}
		return nil
	case key.Matches(msg, c.keys.Revoke):
		return c.confirmRevoke()
	}
	var cmd tea.Cmd
	c.table, cmd = c.table.Update(msg)
	return cmd
}

// promptValue prefills a look-up: the current subject's id.
func (c *Screen) promptValue(onboarding bool) string {
	if onboarding {
		return c.subject.onboardingID
	}
	if c.subject.userID != "" {
		return c.subject.userID
	}
	return c.selfID
}

// CopyValue implements ui.Copier: the selected audit record, the open set
// or the selected consent's id.
func (c *Screen) CopyValue() (label, value string, ok bool) {
	switch c.mode {
	case cnsAudit:
		if r, ok := c.audit.selected(); ok {
			return "audit id", r.AuditID, true
		}
	case cnsDetail:
		return "consent set id", c.detail, c.detail != ""
	default:
		if r, ok := c.selected(); ok {
			return "consent id of " + ui.Sanitize(r.consent.ConsentType), r.consent.ConsentID, true
		}
	}
	return "", "", false
}
