// Package queue is the support desk's queue: every case of the cases
// folder a desk shares, with its ticket, customer, owner, status,
// priority, age, last action and due time; filters (mine, unassigned,
// overdue, waiting), sorted by due; enter opens a case in the console,
// and taking, handing over, changing the status or the priority are
// written to the case (merged with what other agents wrote) and to the
// action log.
//
// It is a component of the support console, not a screen: the console
// sizes it, routes messages and keys to it, draws it, and opens the
// case an OpenCaseMsg names.
package queue

import (
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/domain/casefile"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/keymap"
	"cardterm/ui/table"
)

// Options are where the desk is and who works it.
type Options struct {
	// Dir is the cases folder.
	Dir string
	// Agent is who the agent is (the owner "mine" means).
	Agent string
	// ResponseTimes per priority (nil: casefile.DefaultResponseTimes).
	ResponseTimes map[string]time.Duration
	// Now is the time now.
	Now func() time.Time
	// Log writes a queue action to the action log; the console fills in
	// the tenant and the agent. nil logs nothing.
	Log func(action, ticket, userID, outcome string) error
	// Write writes a changed case (the console's, so that quitting waits
	// for it); nil is casefile's Case.Write.
	Write func(c *casefile.Case, path, agent string, now time.Time) (casefile.Written, error)
}

// OpenCaseMsg asks the console to open a case of the queue.
type OpenCaseMsg struct{ Path string }

// filter is which cases the queue shows.
type filter int

const (
	filterAll filter = iota
	filterMine
	filterUnassigned
	filterOverdue
	filterWaiting
	filterCount
)

func (f filter) String() string {
	return [...]string{"all cases not solved", "mine", "unassigned", "overdue", "waiting"}[f]
}

// Queue is the desk's queue.
type Queue struct {
	opts     Options
	styles   *theme.Styles
	requests ui.Owner
	keys     Keys
	table    table.Table
	width    int
	height   int

	cases    []casefile.Filed // as read, oldest first
	shown    []casefile.Filed // after the filter, in the table's order
	problems []string         // files left out
	filter   filter
	byAge    bool // sorted by age instead of due
	loaded   bool
	err      error
	loadID   ui.RequestID

	handover *form.Form // the hand-over form, if open
	handFor  string     // the case it hands over
}

// New builds the queue; Init reads the desk.
func New(styles *theme.Styles, requests ui.Owner, opts Options) *Queue {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Write == nil {
		opts.Write = func(c *casefile.Case, path, agent string, now time.Time) (casefile.Written, error) {
			return c.Write(path, agent, now)
		}
	}
	if opts.ResponseTimes == nil {
		opts.ResponseTimes = casefile.DefaultResponseTimes()
	}
	return &Queue{opts: opts, styles: styles, requests: requests, keys: newKeys(), table: table.New(styles, columns)}
}

// Init reads the cases folder.
func (q *Queue) Init() tea.Cmd { return q.load() }

// SetSize lays the queue out.
func (q *Queue) SetSize(width, height int) {
	q.width, q.height = width, height
	q.table.SetSize(width, max(height-q.chromeHeight(), 3))
	if q.handover != nil {
		q.handover.SetWidth(min(width, 72))
	}
}

// CapturesKeys reports a text field or the table's search has the keys.
func (q *Queue) CapturesKeys() bool { return q.handover != nil || q.table.Filtering() }

// Keys are the queue's bindings, which its help lists.
type Keys struct {
	Open, Take, HandOver, Status, Priority, Filter, Sort key.Binding
}

// newKeys binds the queue's actions from the key registry, so a keys
// file rebinds them as it does every screen's.
func newKeys() Keys {
	return Keys{
		Open:     keymap.Bind("queue.open"),
		Take:     keymap.Bind("queue.take"),
		HandOver: keymap.Bind("queue.hand-over"),
		Status:   keymap.Bind("queue.status"),
		Priority: keymap.Bind("queue.priority"),
		Filter:   keymap.Bind("queue.filter"),
		Sort:     keymap.Bind("queue.sort"),
	}
}

// KeyMap is what the footer and the help list: the form's keys while
// handing over, else the queue's and the table's.
func (q *Queue) KeyMap() help.KeyMap {
	if q.handover != nil {
		return q.handover.KeyMap()
	}
	k := q.keys
	_, selected := q.selected()
	for _, b := range []*key.Binding{&k.Open, &k.Take, &k.HandOver, &k.Status, &k.Priority} {
		b.SetEnabled(selected)
	}
	return ui.KeyMapFunc{
		Short: func() []key.Binding {
			return []key.Binding{k.Open, k.Take, k.Status, k.Priority, k.HandOver, k.Filter, k.Sort}
		},
		Full: func() [][]key.Binding {
			return append([][]key.Binding{{k.Open, k.Take, k.HandOver, k.Status, k.Priority}, {k.Filter, k.Sort}},
				q.table.KeyMap().FullHelp()...)
		},
	}
}

// selected is the case under the cursor.
func (q *Queue) selected() (casefile.Filed, bool) {
	if i, ok := q.table.Cursor(); ok && i < len(q.shown) {
		return q.shown[i], true
	}
	return casefile.Filed{}, false
}

// Update takes the desk's answers and the keys.
func (q *Queue) Update(msg tea.Msg) (*Queue, tea.Cmd) {
	switch msg := msg.(type) {
	case ui.Result[desk]:
		if msg.ID == q.loadID {
			q.gotDesk(msg)
		}
		return q, nil
	case ui.Result[changed]:
		return q, q.gotChange(msg)
	case ui.RefreshMsg:
		return q, q.load()
	case tea.KeyPressMsg:
		return q, q.key(msg)
	}
	if q.handover != nil {
		_, cmd := q.handover.Update(msg)
		return q, cmd
	}
	var cmd tea.Cmd
	q.table, cmd = q.table.Update(msg)
	return q, cmd
}

func (q *Queue) key(msg tea.KeyPressMsg) tea.Cmd {
	if q.handover != nil {
		return q.handoverKey(msg)
	}
	if cmd, ok := q.table.FilterKey(msg); ok {
		return cmd
	}
	c, selected := q.selected()
	switch {
	case key.Matches(msg, q.keys.Filter):
		q.filter = (q.filter + 1) % filterCount
		q.refilter()
		return nil
	case key.Matches(msg, q.keys.Sort):
		q.byAge = !q.byAge
		q.refilter()
		return nil
	case !selected:
	case key.Matches(msg, q.keys.Open):
		path := c.Path
		return func() tea.Msg { return OpenCaseMsg{Path: path} }
	case key.Matches(msg, q.keys.Take):
		return q.change(c, take(q.opts.Agent))
	case key.Matches(msg, q.keys.Status):
		return q.change(c, nextStatus(c.Case.Status(), q.opts.Agent))
	case key.Matches(msg, q.keys.Priority):
		return q.change(c, nextPriority(c.Case.Priority(), q.opts.Agent))
	case key.Matches(msg, q.keys.HandOver):
		return q.openHandover(c)
	}
	var cmd tea.Cmd
	q.table, cmd = q.table.Update(msg)
	return cmd
}
