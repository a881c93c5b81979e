package webhooks

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
)

// whFormKeys are the add/edit form's bindings. Outside the metadata text
// area ↓ and enter move on and ↑ back; inside it they edit, so the
// bindings follow the focus (syncKeys) and the help says which work.
type whFormKeys struct {
	Next, Prev, Toggle, Save, Cancel key.Binding
}

func newWhFormKeys() whFormKeys {
	return whFormKeys{
		Toggle: key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "tick/untick")),
		Save:   key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "save")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
}

// syncKeys sets the moving keys for the field in focus: tab and shift+tab
// everywhere, ↓/enter and ↑ too outside the text area; space ticks only on
// the checklist and the active switch.
func (f *whForm) syncKeys() {
	if f.focus == whFMeta {
		f.keys.Next = key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next field"))
		f.keys.Prev = key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous field"))
	} else {
		f.keys.Next = key.NewBinding(key.WithKeys("tab", "down", "enter"), key.WithHelp("tab/↓", "next field"))
		f.keys.Prev = key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab/↑", "previous field"))
	}
	f.keys.Toggle.SetEnabled(f.focus >= whFEvent && f.focus < whFOther || f.focus == whFActive)
}

// ShortHelp implements help.KeyMap.
func (k whFormKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Next, k.Prev, k.Toggle, k.Save, k.Cancel}
}

// FullHelp implements help.KeyMap.
func (k whFormKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// whKnownEvents are the checklist: the interface's types, then the
// sandbox's (marked as such).
var whKnownEvents = append(slices.Clone(apiclient.WebhookEventTypes), apiclient.SandboxWebhookEventTypes...)

// Focus positions of the form: name, url, one per known event, other
// events, active, metadata.
const (
	whFName  = 0
	whFURL   = 1
	whFEvent = 2 // first checklist item
)

var (
	whFOther  = whFEvent + len(whKnownEvents)
	whFActive = whFOther + 1
	whFMeta   = whFActive + 1
	whFCount  = whFMeta + 1
)

// whForm adds a webhook or edits one; what was typed stays whatever the
// gateway answers.
type whForm struct {
	st   *theme.Styles
	keys whFormKeys
	orig *apiclient.Webhook // nil when adding

	name, url, other textinput.Model
	meta             textarea.Model
	events           []bool
	active           bool

	focus   int
	errs    map[int]string
	problem string
	sending bool
}

func newWhForm(st *theme.Styles, orig *apiclient.Webhook) *whForm {
	f := &whForm{st: st, keys: newWhFormKeys(), events: make([]bool, len(whKnownEvents)), active: true, errs: map[int]string{}}
	f.syncKeys()
	mk := func(ph string, limit int) textinput.Model {
		in := screenkit.NewInput(st)
		in.Prompt = ""
		in.Placeholder = ph
		in.CharLimit = limit
		in.SetWidth(48)
		return in
	}
	f.name = mk("e.g. Ledger sync", apiclient.WebhookNameMax)
	f.url = mk("https://example.com/hooks", 2048)
	f.other = mk("more types, comma-separated", 512)
	f.meta = textarea.New()
	f.meta.ShowLineNumbers = false
	f.meta.Prompt = "│ "
	f.meta.Placeholder = "key=value, one a line"
	f.meta.SetWidth(50)
	f.meta.SetHeight(3)
	if orig != nil {
		cp := *orig
		f.orig = &cp
		f.name.SetValue(orig.Name)
		f.url.SetValue(orig.URL)
		var others []string
		for _, e := range orig.EventTypes {
			if i := slices.Index(whKnownEvents, e); i >= 0 {
				f.events[i] = true
			} else {
				others = append(others, e)
			}
		}
		f.other.SetValue(strings.Join(others, ", "))
		f.active = orig.IsActive
		f.meta.SetValue(strings.Join(whMetadataLines(orig.Metadata), "\n"))
	}
	return f
}

// focusCmd focuses the current input and blurs the others.
func (f *whForm) focusCmd() tea.Cmd {
	f.syncKeys()
	f.name.Blur()
	f.url.Blur()
	f.other.Blur()
	f.meta.Blur()
	switch f.focus {
	case whFName:
		return f.name.Focus()
	case whFURL:
		return f.url.Focus()
	case whFOther:
		return f.other.Focus()
	case whFMeta:
		return f.meta.Focus()
	}
	return nil
}

// eventTypes are the ticked types, then the typed ones, without repeats.
func (f *whForm) eventTypes() []string {
	var out []string
	for i, on := range f.events {
		if on {
			out = append(out, whKnownEvents[i])
		}
	}
	for _, e := range strings.Split(f.other.Value(), ",") {
		if e = strings.TrimSpace(e); e != "" && !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

// whFieldPos maps a wire field name to a focus position.
func whFieldPos(name string) int {
	switch name {
	case "name":
		return whFName
	case "url":
		return whFURL
	case "event_types":
		return whFEvent
	case "metadata":
		return whFMeta
	}
	return -1
}

// mark shows field errors and focuses the first; it reports whether any.
func (f *whForm) mark(fe []apiclient.FieldError) bool {
	f.errs = map[int]string{}
	first := -1
	for _, e := range fe {
		if p := whFieldPos(e.Field); p >= 0 {
			if _, seen := f.errs[p]; !seen {
				f.errs[p] = e.Message
			}
			if first < 0 || p < first {
				first = p
			}
		}
	}
	if first < 0 {
		return false
	}
	f.focus = first
	f.problem = "Fix the marked fields; nothing was sent."
	return true
}

// build checks the form and makes the create body, or for an edit the
// update with only the fields that changed.
func (f *whForm) build() (apiclient.WebhookCreate, apiclient.WebhookUpdate, bool) {
	meta, err := whParseMetadata(f.meta.Value())
	name, url, events := strings.TrimSpace(f.name.Value()), strings.TrimSpace(f.url.Value()), f.eventTypes()
	var fe []apiclient.FieldError
	if err != nil {
		fe = append(fe, apiclient.FieldError{Field: "metadata", Message: err.Error()})
	}
	if f.orig == nil {
		in := apiclient.WebhookCreate{Name: name, URL: url, EventTypes: events, IsActive: f.active, Metadata: meta}
		return in, apiclient.WebhookUpdate{}, !f.mark(append(apiclient.ValidateWebhookCreate(in), fe...))
	}
	var u apiclient.WebhookUpdate
	if name != f.orig.Name {
		u.Name = &name
	}
	if url != f.orig.URL {
		u.URL = &url
	}
	if !whSameSet(events, f.orig.EventTypes) {
		u.EventTypes = events
		if events == nil {
			u.EventTypes = []string{}
		}
	}
	if f.active != f.orig.IsActive {
		a := f.active
		u.IsActive = &a
	}
	if err == nil && !whSameMeta(meta, f.orig.Metadata) {
		u.Metadata = meta
		if meta == nil {
			u.Metadata = map[string]json.RawMessage{}
		}
	}
	return apiclient.WebhookCreate{}, u, !f.mark(append(apiclient.ValidateWebhookUpdate(u), fe...))
}

// gatewayFailed shows a refusal on the field its message names; every
// value stays.
func (f *whForm) gatewayFailed(err error) {
	f.sending = false
	msg := apiclient.ErrorMessage(err)
	lower := strings.ToLower(msg)
	for _, c := range []struct {
		prefix string
		pos    int
	}{{"name", whFName}, {"url", whFURL}, {"event_types", whFEvent}, {"invalid event type", whFEvent}, {"metadata", whFMeta}} {
		if strings.HasPrefix(lower, c.prefix) {
			f.errs = map[int]string{c.pos: msg}
			f.focus = c.pos
			break
		}
	}
	f.problem = "The gateway refused: " + msg + ". Your values are kept."
}

// formKey handles a key while the form is open.
func (w *Screen) formKey(msg tea.KeyPressMsg) tea.Cmd {
	f := w.form
	switch {
	case key.Matches(msg, f.keys.Cancel):
		if !f.sending && !w.busy {
			w.form = nil
		}
		return nil
	case f.sending || w.busy:
		return nil
	case key.Matches(msg, f.keys.Save):
		return w.saveForm()
	case key.Matches(msg, f.keys.Next):
		f.focus = min(f.focus+1, whFCount-1)
		return f.focusCmd()
	case key.Matches(msg, f.keys.Prev):
		f.focus = max(f.focus-1, 0)
		return f.focusCmd()
	case key.Matches(msg, f.keys.Toggle) && f.focus == whFActive:
		f.active = !f.active
		return nil
	case key.Matches(msg, f.keys.Toggle):
		f.events[f.focus-whFEvent] = !f.events[f.focus-whFEvent]
		delete(f.errs, whFEvent)
		return nil
	}
	var cmd tea.Cmd
	switch f.focus {
	case whFName:
		f.name, cmd = f.name.Update(msg)
	case whFURL:
		f.url, cmd = f.url.Update(msg)
	case whFOther:
		f.other, cmd = f.other.Update(msg)
	case whFMeta:
		f.meta, cmd = f.meta.Update(msg)
	default:
		return nil
	}
	delete(f.errs, f.focus)
	if f.focus == whFOther {
		delete(f.errs, whFEvent)
	}
	return cmd
}

// saveForm validates, then adds at once or confirms the exact PUT body.
func (w *Screen) saveForm() tea.Cmd {
	f := w.form
	in, u, ok := f.build()
	if !ok {
		return f.focusCmd()
	}
	f.problem = ""
	if f.orig != nil {
		if u.Empty() {
			return ui.Notify(theme.ToneInfo, "nothing changed: nothing to send")
		}
		return w.confirmEdit(f.orig.ID, f.orig.Name, u)
	}
	body, _ := json.Marshal(in)
	return w.ask(ui.ConfirmSpec{
		Title:        fmt.Sprintf("Add webhook %q?", in.Name),
		Request:      []string{"POST /v1/webhooks", string(body)},
		Lines:        []string{"The gateway answers with the signing key, shown once."},
		ConfirmLabel: "add",
		Tone:         theme.ToneInfo,
		OnConfirm:    whAddMsg{in: in},
	})
}

// whAddMsg is the confirmation's yes to creating a configuration.
type whAddMsg struct{ in apiclient.WebhookCreate }

// sendAdd creates the configuration once confirmed.
func (w *Screen) sendAdd(in apiclient.WebhookCreate) tea.Cmd {
	if w.running || w.form == nil {
		return nil
	}
	w.form.sending = true
	w.busy, w.running = true, true
	client, receiver := w.deps.Client, w.deps.Events
	return ui.Start(w.requests, &w.actionID, func(ctx context.Context) (whDone, error) {
		h, err := client.CreateWebhook(ctx, in)
		if err != nil {
			return whDone{what: "add", name: in.Name}, err
		}
		return keyAnswer(whDone{what: "add", id: h.ID, name: in.Name}, h.APIKey, receiver), nil
	})
}

// view draws the form.
func (f *whForm) view(width, height int) string {
	st := f.st
	title := "Add webhook"
	if f.orig != nil {
		title = "Edit webhook " + fmt.Sprintf("%q", ui.Sanitize(f.orig.Name))
	}
	lines := []string{
		st.Title.Render(ansi.Truncate(title, width, "…")),
		st.Muted.Render(ansi.Truncate(f.hint(), width, "…")),
	}
	switch {
	case f.sending:
		lines = append(lines, st.Muted.Render("Sending…"))
	case f.problem != "":
		lines = append(lines, st.Text(theme.ToneDanger).Render(ansi.Truncate(ui.Sanitize(f.problem), width, "…")))
	default:
		lines = append(lines, "")
	}
	const labelW = 13
	inW := max(min(48, width-labelW-6), 10)
	f.name.SetWidth(inW)
	f.url.SetWidth(inW)
	f.other.SetWidth(inW)
	f.meta.SetWidth(inW + 2)
	row := func(pos int, label, content string) {
		marker, lst := "  ", st.Label
		if pos == f.focus {
			marker, lst = st.Accent.Render("› "), st.Accent
		}
		lines = append(lines, ansi.Truncate(marker+lst.Render(screenkit.PadRight(label, labelW))+" "+content, width, "…"))
		if msg := f.errs[pos]; msg != "" {
			lines = append(lines, ansi.Truncate(strings.Repeat(" ", labelW+3)+st.Text(theme.ToneDanger).Render("✗ "+ui.Sanitize(msg)), width, "…"))
		}
	}
	box := func(on bool) string {
		if on {
			return "[x]"
		}
		return "[ ]"
	}
	row(whFName, "Name", f.name.View())
	row(whFURL, "URL", f.url.View()+st.Muted.Render("  https only"))
	for i, e := range whKnownEvents {
		label := ""
		if i == 0 {
			label = "Events"
		}
		text := box(f.events[i]) + " " + e
		if slices.Contains(apiclient.SandboxWebhookEventTypes, e) {
			text += st.Muted.Render("  sandbox only")
		}
		row(whFEvent+i, label, text)
	}
	row(whFOther, "Other events", f.other.View())
	activeText := box(f.active) + " deliveries on"
	if !f.active {
		activeText += st.Muted.Render("  (inactive: nothing is delivered)")
	}
	row(whFActive, "Active", activeText)
	row(whFMeta, "Metadata", st.Muted.Render("key=value, one a line; JSON values (3, true, {…}) kept as such, \"quote\" for text"))
	for _, l := range strings.Split(f.meta.View(), "\n") {
		lines = append(lines, ansi.Truncate(strings.Repeat(" ", labelW+3)+l, width, ""))
	}
	// Keep the focused field on screen on short terminals.
	if len(lines) > height && f.focus >= whFOther {
		lines = append(lines[:3], lines[len(lines)-(height-3):]...)
	}
	return strings.Join(lines, "\n")
}

// hint names the keys that work in the field in focus, from the bindings
// themselves.
func (f *whForm) hint() string {
	var parts []string
	for _, b := range f.keys.ShortHelp() {
		if b.Enabled() {
			parts = append(parts, b.Help().Key+" "+b.Help().Desc)
		}
	}
	return strings.Join(parts, " · ")
}
