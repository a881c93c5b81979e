// Package webhooks is the Webhooks screen: the partner's webhook
// configurations, added, edited, toggled, re-keyed and deleted, each
// change confirmed with the request it sends.
package webhooks

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/table"
)

// viewMode is what the screen shows besides the form.
type viewMode int

const (
	modeList         viewMode = iota
	modeDetail                // the selected configuration in full
	modeKey                   // a signing key shown once
	modeListenerHelp          // why the in-app listener cannot receive from this gateway
	modeLookup                // one configuration read by its id
)

// changed is the answer to a mutation. key is a full signing key (create,
// rotate): it goes to the key panel only, never to a notice or a log.
type changed struct {
	action action
	id     string
	name   string
	key    string
	// masked is the key as answered when the gateway sent it masked (it
	// cannot verify); key is then "".
	masked string
	body   string // the PUT body sent, for the notice
}

// unavailableMeaning is what a 503 means on these endpoints.
const unavailableMeaning = "notifications are not configured for this environment"

// Webhooks manages the partner's webhook endpoints: list, details, add,
// edit, toggle, rotate the signing key and delete.
type Screen struct {
	screenkit.Base
	keys keyMap

	table   table.Table
	hooks   []apiclient.Webhook
	loadID  ui.RequestID
	loading bool
	loadErr error

	mode   viewMode
	detail string // id of the configuration shown in modeDetail
	// scroll is how far the page shown instead of the list is scrolled.
	scroll pageScroll

	// panelKey is a signing key shown once; it is dropped when the panel
	// closes. panelMasked is set instead when the gateway answered it masked.
	panelKey, panelName, panelWhat, panelID, panelMasked string

	// listen points configurations at the in-app listener; keyed lists the
	// ids whose whole key the listener got in this session.
	listen ui.Change[listenDone]
	keyed  map[string]bool

	// attempts are the delivery attempts of the configuration in the
	// detail view (sandbox gateway only).
	attempts    []apiclient.WebhookDelivery
	attemptsFor string
	attemptsErr error
	attemptsID  ui.RequestID

	// lookupID is the id form's read (a layer); looked is the
	// configuration it found.
	lookupID ui.RequestID
	looked   *apiclient.Webhook

	// change adds, edits, toggles, re-keys and deletes configurations, one
	// at a time: a second press while one is confirmed or sent asks nothing.
	change ui.Change[changed]
}

// New builds the webhooks screen.
func New(deps screenkit.Deps) *Screen {
	w := &Screen{Base: screenkit.NewBase(deps, screenkit.WebhooksScreen, "Webhooks"), keyed: map[string]bool{}}
	w.listen = ui.NewChange[listenDone](w.Requests)
	w.change = ui.NewChange[changed](w.Requests)
	w.table = table.New(deps.Styles, []table.Column{
		{Title: "Name", Width: 14},
		{Title: "URL", Min: 10},
		{Title: "Events", Min: 10},
		{Title: "Active", Width: 10},
		{Title: "Updated", Width: 10},
	})
	w.keys = newWhKeys(deps.ReadOnly, w.table.KeyMap())
	return w
}

// KeyMap implements ui.Screen: the keys of what is shown (the forms are
// layers).
func (w *Screen) KeyMap() help.KeyMap {
	k := w.keys
	k.mode = w.mode
	k.masked = w.panelMasked != ""
	k.CopyKey.SetEnabled(!k.masked)
	k.scrolls = w.mode != modeList && w.pageOverflows()
	return k
}

// CapturesKeys implements ui.Screen: the table filter takes every key.
func (w *Screen) CapturesKeys() bool { return w.table.Filtering() }

// Enter implements ui.Screen: it loads the configurations.
func (w *Screen) Enter() tea.Cmd { return w.load() }

func (w *Screen) load() tea.Cmd {
	w.loading = true
	return ui.Start(w.Requests, &w.loadID, w.Deps.Client.Webhooks)
}

func (w *Screen) setHooks(hooks []apiclient.Webhook) {
	w.hooks = hooks
	rows := make([][]string, len(hooks))
	for i, h := range hooks {
		active := "○ inactive"
		if h.IsActive {
			active = "● active"
		}
		// Every url is https (the gateway refuses others): the scheme is
		// left out so narrow terminals show the host.
		rows[i] = []string{h.Name, strings.TrimPrefix(h.URL, "https://"), strings.Join(h.EventTypes, ", "), active, screenkit.DateOnly(h.UpdatedAt)}
	}
	w.table.SetRows(rows)
	if w.mode == modeDetail && w.find(w.detail) == nil {
		w.mode = modeList
	}
}

func (w *Screen) find(id string) *apiclient.Webhook {
	for i := range w.hooks {
		if w.hooks[i].ID == id {
			return &w.hooks[i]
		}
	}
	return nil
}

// selected is the configuration the actions apply to: the one in the
// details view, else the table's cursor row.
func (w *Screen) selected() *apiclient.Webhook {
	if w.mode == modeDetail {
		return w.find(w.detail)
	}
	if i, ok := w.table.Cursor(); ok && i < len(w.hooks) {
		return &w.hooks[i]
	}
	return nil
}

// Update implements ui.Screen.
func (w *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	if res, done, cmd := w.listen.Update(msg); done {
		return w, w.listenDone(res)
	} else if cmd != nil {
		return w, cmd
	}
	if res, done, cmd := w.change.Update(msg); done {
		return w, w.changeDone(res)
	} else if cmd != nil {
		return w, cmd
	}
	switch msg := msg.(type) {
	case ui.Result[[]apiclient.WebhookDelivery]:
		if msg.ID == w.attemptsID {
			w.attempts, w.attemptsErr = msg.Value, msg.Err
		}
	case ui.Result[[]apiclient.Webhook]:
		if msg.ID != w.loadID {
			return w, nil
		}
		w.loading = false
		w.loadErr = msg.Err
		if msg.Err != nil {
			w.setHooks(nil)
			return w, screenkit.ReadFailed("loading webhooks", msg.Err, 403, 503)
		}
		w.setHooks(msg.Value)
	case ui.RefreshMsg:
		if w.mode == modeDetail {
			return w, tea.Batch(w.load(), w.loadAttempts(w.detail))
		}
		return w, w.load()
	case tea.KeyPressMsg:
		return w, w.handleKey(msg)
	case ui.BodyMouseMsg:
		return w, w.mouse(msg)
	}
	return w, nil
}

func (w *Screen) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if w.mode == modeList {
		w.scroll = pageScroll{} // a page opened from the list starts at its top
	} else if w.scrollPageKey(msg) {
		return nil
	}
	switch {
	case w.mode == modeKey:
		switch {
		case key.Matches(msg, w.keys.Close):
			w.closeKeyPanel()
		case w.panelMasked != "" && key.Matches(msg, w.keys.Rotate):
			return w.confirmRotate()
		}
		return nil
	case w.mode == modeListenerHelp || w.mode == modeLookup:
		if key.Matches(msg, w.keys.Close) {
			w.mode, w.looked = modeList, nil
		}
		return nil
	case w.table.Filtering():
		cmd, _ := w.table.FilterKey(msg)
		return cmd
	}
	switch {
	case w.mode == modeDetail && key.Matches(msg, w.keys.Close):
		w.mode = modeList
		return nil
	case w.mode == modeList && key.Matches(msg, w.keys.Details):
		if h := w.selected(); h != nil {
			w.mode, w.detail = modeDetail, h.ID
			return w.loadAttempts(h.ID)
		}
		return nil
	case key.Matches(msg, w.keys.Listen):
		return w.pointAtListener(w.selected())
	case w.mode == modeList && key.Matches(msg, w.keys.ListenNew):
		return w.pointAtListener(nil)
	case w.mode == modeList && key.Matches(msg, w.keys.OpenByID):
		return w.openLookup()
	case key.Matches(msg, w.keys.Add):
		if w.unavailable() {
			return ui.Notify(theme.ToneWarn, unavailableMeaning)
		}
		return w.openForm(nil)
	case key.Matches(msg, w.keys.Edit):
		h := w.selected()
		if h == nil {
			return ui.Notify(theme.ToneInfo, "no webhook selected")
		}
		return w.openForm(h)
	case key.Matches(msg, w.keys.Toggle):
		return w.toggle()
	case key.Matches(msg, w.keys.Rotate):
		return w.confirmRotate()
	case key.Matches(msg, w.keys.Delete):
		return w.confirmDelete()
	}
	if w.mode != modeList {
		return nil
	}
	var cmd tea.Cmd
	w.table, cmd = w.table.Update(msg)
	return cmd
}

func (w *Screen) unavailable() bool { return apiclient.IsStatus(w.loadErr, 503) }

func (w *Screen) closeKeyPanel() {
	w.panelKey, w.panelName, w.panelWhat, w.panelID, w.panelMasked = "", "", "", "", ""
	w.mode = modeList
}
