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
// sandbox's (marked as such).
var knownEvents = append(slices.Clone(apiclient.WebhookEventTypes), apiclient.SandboxWebhookEventTypes...)

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

// webhookForm adds a webhook (orig nil) or edits one; what was typed stays
// whatever the gateway answers.
type webhookForm struct {
	form *form.Form
	orig *apiclient.Webhook
}

func newWebhookForm(st *theme.Styles, orig *apiclient.Webhook) *webhookForm {
	title, active, events, other, meta := "Add webhook", deliveriesOn, "", "", ""
	f := &webhookForm{}
	if orig != nil {
		cp := *orig
		f.orig = &cp
		title = fmt.Sprintf("Edit webhook %q", orig.Name)
		var known, others []string
		for _, e := range orig.EventTypes {
			if slices.Contains(knownEvents, e) {
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
	f.form = form.New(st, form.Spec{
		Title:  title,
		Lines:  []string{`https only · metadata: key=value, one a line; JSON values (3, true, {…}) stay JSON, "quote" for text`},
		Submit: "save",
		Fields: []form.Field{
			// The input takes more than the interface allows, so a name
			// pasted too long is kept and refused with the count, never
			// cut silently.
			{Key: keyName, Label: "Name", Placeholder: "e.g. Ledger sync", CharLimit: 4 * apiclient.WebhookNameMax, Value: f.origName()},
			{Key: keyURL, Label: "URL", Placeholder: "https://example.com/hooks", CharLimit: 2048, Value: f.origURL()},
			{Key: keyEvents, Label: "Events", Kind: form.FieldChecklist, Choices: knownEvents, Notes: notes, Value: events},
			{Key: keyOther, Label: "Other events", Placeholder: "more types, comma-separated", CharLimit: 512, Value: other},
			{Key: keyActive, Label: "Active", Kind: form.FieldChecklist, Choices: []string{deliveriesOn}, Value: active,
				Notes: map[string]string{deliveriesOn: "untick: nothing is delivered"}},
			{Key: keyMeta, Label: "Metadata", Kind: form.FieldMultiline, Placeholder: "key=value, one a line", Value: meta},
		},
	})
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
	out := f.form.Ticked(keyEvents)
	for _, e := range strings.Split(f.form.Value(keyOther), ",") {
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
	meta, err := parseMetadata(f.form.Value(keyMeta))
	name, url, events := f.form.Value(keyName), f.form.Value(keyURL), f.eventTypes()
	active := len(f.form.Ticked(keyActive)) > 0
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
	return f.form.SetErrors("The gateway refused: "+msg+". Your values are kept.", errs)
}

// openForm opens the add form (orig nil) or the edit form of orig.
func (w *Screen) openForm(orig *apiclient.Webhook) tea.Cmd {
	w.form = newWebhookForm(w.Deps.Styles, orig)
	w.sizeForm()
	return w.form.form.Focus()
}

// sizeForm gives the form the body's width and height.
func (w *Screen) sizeForm() {
	if w.form != nil {
		w.form.form.SetSize(w.Width, w.Height)
	}
}

// formKey handles a key while the form is open: esc closes it (while a
// change is being confirmed or sent, the form stays for its answer).
func (w *Screen) formKey(msg tea.KeyPressMsg) tea.Cmd {
	event, cmd := w.form.form.Update(msg)
	switch event {
	case form.Cancel:
		if !w.change.Busy() {
			w.form = nil
		}
		return nil
	case form.Submit:
		return w.saveForm()
	}
	return cmd
}

// saveForm validates, then confirms the exact POST or PUT body.
func (w *Screen) saveForm() tea.Cmd {
	f := w.form
	in, u, errs := f.build()
	if len(errs) > 0 {
		return f.form.SetErrors("Fix the marked fields; nothing was sent.", screenkit.FieldErrors(errs))
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
