package webhooks

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
)

// knownEvents are the checklist: the interface's types, then the
// sandbox's (marked as such). Joined when asked for, not before main.
func knownEvents() []string {
	return slices.Concat(apiclient.WebhookEventTypes, apiclient.SandboxWebhookEventTypes)
}

// deliveriesOn is the one value of the Active checklist.
const deliveriesOn = "deliveries on"

// The form's field keys: the wire names, so a refusal naming one lands on
// it; the typed event types and the metadata lines are read by the screen.
const (
	keyName   = "name"
	keyURL    = "url"
	keyEvents = "event_types"
	keyOther  = "other_event_types"
	keyActive = "is_active"
	keyMeta   = "metadata"
)

// webhookForm adds a webhook (orig nil) or edits one, a layer on the
// root's stack; what was typed stays whatever the gateway answers.
type webhookForm struct {
	*screenkit.FormLayer
	w    *Screen
	orig *apiclient.Webhook
	// asked is set once the form asked for its add or edit: the change
	// running then is its own.
	asked bool
}

// formAnswered tells the open form how its add or edit ended.
type formAnswered struct{ err error }

func newWebhookForm(w *Screen, orig *apiclient.Webhook) *webhookForm {
	title, active, events, other, meta := "Add webhook", deliveriesOn, "", "", ""
	f := &webhookForm{w: w}
	choices := knownEvents()
	if orig != nil {
		cp := *orig
		f.orig = &cp
		title = fmt.Sprintf("Edit webhook %q", orig.Name)
		var known, others []string
		for _, e := range orig.EventTypes {
			if slices.Contains(choices, e) {
				known = append(known, e)
			} else {
				others = append(others, e)
			}
		}
		events, other = strings.Join(known, ","), strings.Join(others, ", ")
		if !orig.IsActive {
			active = ""
		}
		meta = strings.Join(metadataLines(orig.Metadata), "\n")
	}
	notes := map[string]string{}
	for _, e := range apiclient.SandboxWebhookEventTypes {
		notes[e] = "sandbox only"
	}
	spec := form.Spec{
		Title:  title,
		Lines:  []string{`https only · metadata: key=value, one a line; JSON values (3, true, {…}) stay JSON, "quote" for text`},
		Submit: "save",
		Fields: []form.Field{
			// The input takes more than the interface allows, so a name
			// pasted too long is kept and refused with the count, never
			// cut silently.
			{Key: keyName, Label: "Name", Placeholder: "e.g. Ledger sync", CharLimit: 4 * apiclient.WebhookNameMax, Value: f.origName()},
			{Key: keyURL, Label: "URL", Placeholder: "https://example.com/hooks", CharLimit: 2048, Value: f.origURL()},
			{Key: keyEvents, Label: "Events", Kind: form.FieldChecklist, Choices: choices, Notes: notes, Value: events},
			{Key: keyOther, Label: "Other events", Placeholder: "more types, comma-separated", CharLimit: 512, Value: other},
			{Key: keyActive, Label: "Active", Kind: form.FieldChecklist, Choices: []string{deliveriesOn}, Value: active,
				Notes: map[string]string{deliveriesOn: "untick: nothing is delivered"}},
			{Key: keyMeta, Label: "Metadata", Kind: form.FieldMultiline, Placeholder: "key=value, one a line", Value: meta},
		},
	}
	f.FormLayer = &screenkit.FormLayer{Form: form.New(w.Deps.Styles, spec), Requests: w.Requests, Scroll: true,
		Width: func(width int) int { return width }, Submit: f.submit, Answer: f.answer}
	return f
}

func (f *webhookForm) origName() string {
	if f.orig == nil {
		return ""
	}
	return f.orig.Name
}

func (f *webhookForm) origURL() string {
	if f.orig == nil {
		return ""
	}
	return f.orig.URL
}

// eventTypes are the ticked types, then the typed ones, without repeats.
func (f *webhookForm) eventTypes() []string {
	out := f.Form.Ticked(keyEvents)
	for _, e := range strings.Split(f.Form.Value(keyOther), ",") {
		if e = strings.TrimSpace(e); e != "" && !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

// build checks the form and makes the create body, or for an edit the
// update with only the fields that changed; the field errors go under
// their fields.
func (f *webhookForm) build() (apiclient.WebhookCreate, apiclient.WebhookUpdate, []apiclient.FieldError) {
	meta, err := parseMetadata(f.Form.Value(keyMeta))
	name, url, events := f.Form.Value(keyName), f.Form.Value(keyURL), f.eventTypes()
	active := len(f.Form.Ticked(keyActive)) > 0
	var fe []apiclient.FieldError
	if err != nil {
		fe = append(fe, apiclient.FieldError{Field: keyMeta, Message: err.Error()})
	}
	if f.orig == nil {
		in := apiclient.WebhookCreate{Name: name, URL: url, EventTypes: events, IsActive: active, Metadata: meta}
		return in, apiclient.WebhookUpdate{}, append(apiclient.ValidateWebhookCreate(in), fe...)
	}
	var u apiclient.WebhookUpdate
	if name != f.orig.Name {
		u.Name = &name
	}
	if url != f.orig.URL {
		u.URL = &url
	}
	if !sameSet(events, f.orig.EventTypes) {
		u.EventTypes = events
		if events == nil {
			u.EventTypes = []string{}
		}
	}
	if active != f.orig.IsActive {
		u.IsActive = &active
	}
	if err == nil && !sameMetadata(meta, f.orig.Metadata) {
		u.Metadata = meta
		if meta == nil {
			u.Metadata = map[string]json.RawMessage{}
		}
	}
	return apiclient.WebhookCreate{}, u, append(apiclient.ValidateWebhookUpdate(u), fe...)
}

// refused shows a refusal on the field its message names; every value
// stays.
func (f *webhookForm) refused(err error) tea.Cmd {
	msg := apiclient.ErrorMessage(err)
	lower := strings.ToLower(msg)
	var errs []form.FieldError
	for _, c := range []struct{ prefix, field string }{
		{"name", keyName}, {"url", keyURL}, {"event_types", keyEvents}, {"invalid event type", keyEvents}, {"metadata", keyMeta},
	} {
		if strings.HasPrefix(lower, c.prefix) {
			errs = []form.FieldError{{Field: c.field, Message: msg}}
			break
		}
	}
	return f.Form.SetErrors("The gateway refused: "+msg+". Your values are kept.", errs)
}

// openForm opens the add form (orig nil) or the edit form of orig.
func (w *Screen) openForm(orig *apiclient.Webhook) tea.Cmd {
	f := newWebhookForm(w, orig)
	return ui.OpenLayer(f, f.Form.Focus())
}

// Update implements layer.Layer: while the add or edit is on its way no
// key does anything, esc included: its outcome is told, never abandoned.
func (f *webhookForm) Update(msg tea.Msg) tea.Cmd {
	if _, ok := msg.(tea.KeyPressMsg); ok && f.Form.Busy() {
		return nil
	}
	return f.FormLayer.Update(msg)
}

// submit checks the form, then asks for the add or edit.
func (f *webhookForm) submit(*form.Form) (tea.Cmd, bool) {
	before := f.w.change.Busy()
	cmd := f.w.saveForm(f)
	f.asked = f.asked || (!before && f.w.change.Busy())
	return cmd, false
}

// answer follows the change this form asked for: busy from the moment it
// runs (the confirmation reaches the screen first, then the layers); a
// refusal shown on the form, what was typed kept; a success closes it.
func (f *webhookForm) answer(typed *form.Form, msg tea.Msg) (tea.Cmd, bool) {
	if f.asked && f.w.change.Running() && !typed.Busy() {
		typed.SetBusy(true)
	}
	answered, ok := msg.(formAnswered)
	if !ok || !f.asked {
		return nil, false
	}
	f.asked = false
	typed.SetBusy(false)
	if answered.err == nil {
		return nil, true
	}
	return f.refused(answered.err), false
}

// saveForm validates, then confirms the exact POST or PUT body.
func (w *Screen) saveForm(f *webhookForm) tea.Cmd {
	in, u, errs := f.build()
	if len(errs) > 0 {
		return f.Form.SetErrors("Fix the marked fields; nothing was sent.", screenkit.FieldErrors(errs))
	}
	if f.orig != nil {
		if u.Empty() {
			return ui.Notify(theme.ToneInfo, "nothing changed: nothing to send")
		}
		return w.confirmEdit(f.orig.ID, f.orig.Name, u)
	}
	client, receiver := w.Deps.Client, w.Deps.Events
	return w.change.Ask(ui.ChangeSpec[changed]{
		Title:        fmt.Sprintf("Add webhook %q?", in.Name),
		Request:      apiclient.CreateWebhookCall(in).Lines(),
		Lines:        []string{"The gateway answers with the signing key, shown once."},
		ConfirmLabel: "add",
		Tone:         theme.ToneInfo,
		What:         "adding the webhook",
		Run: func(ctx context.Context) (changed, error) {
			h, err := client.CreateWebhook(ctx, in)
			if err != nil {
				return changed{action: actionAdd, name: in.Name}, err
			}
			return keyAnswer(changed{action: actionAdd, id: h.ID, name: in.Name}, h.APIKey, receiver), nil
		},
	})
}
