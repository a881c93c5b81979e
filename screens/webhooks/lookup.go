package webhooks

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/sanitize"
)

// openLookup asks for a configuration's id (GET /v1/webhooks/{id}): a
// support agent opens the one a ticket names.
func (w *Screen) openLookup() tea.Cmd {
	w.lookupForm = form.New(w.Deps.Styles, form.Spec{
		Title:  "Open a webhook by id",
		Lines:  []string{"GET /v1/webhooks/{id}: shown with every field the gateway sends"},
		Submit: "open",
		Fields: []form.Field{{Key: "id", Label: "Webhook id", Placeholder: "e.g. 3f0c…", CharLimit: 128,
			Check: func(v string) string {
				if v == "" {
					return "an id is required"
				}
				return ""
			}}},
	})
	w.lookupForm.SetWidth(min(w.Width-2, 70))
	return w.lookupForm.Focus()
}

// lookupKey handles a key while the id form is open.
func (w *Screen) lookupKey(msg tea.KeyPressMsg) tea.Cmd {
	cmd, closed := w.lookupForm.HandleKey(msg, w.Requests, w.lookUp)
	if closed {
		w.lookupForm = nil
	}
	return cmd
}

// lookUp reads the configuration the id form names.
func (w *Screen) lookUp() tea.Cmd {
	id, client := strings.TrimSpace(w.lookupForm.Value("id")), w.Deps.Client
	return form.SubmitRequest(w.lookupForm, w.Requests, &w.lookupID, func(ctx context.Context) (apiclient.Webhook, error) {
		return client.Webhook(ctx, id)
	})
}

// lookedUp shows the configuration, or keeps the form with the reason: a
// 404 is "no such webhook", never an empty record.
func (w *Screen) lookedUp(res ui.Result[apiclient.Webhook]) tea.Cmd {
	if w.lookupForm == nil {
		return nil
	}
	w.lookupForm.SetBusy(false)
	switch {
	case apiclient.IsNotFound(res.Err):
		w.lookupForm.SetProblem("No webhook with this id (404)")
		return nil
	case res.Err != nil:
		return screenkit.FormFailed(w.lookupForm, "opening the webhook", res.Err)
	}
	hook := res.Value
	w.lookupForm, w.looked, w.mode = nil, &hook, modeLookup
	return nil
}

// lookupView lists every field of the configuration as the gateway sent
// it, labelled; a signing key is shown masked whatever the answer held.
func (w *Screen) lookupView(width int) []string {
	st := w.Deps.Styles
	h := w.looked
	var fields []screenkit.Field
	for _, f := range h.Raw.Fields() {
		value := f.Value
		if isKeyField(f.Path) && !apiclient.IsMaskedKey(value) {
			value = maskKey(value)
		}
		fields = append(fields, screenkit.Field{Label: screenkit.Label(f.Path), Value: value})
	}
	if len(fields) == 0 {
		fields = []screenkit.Field{{Label: "ID", Value: h.ID}, {Label: "Name", Value: h.Name}, {Label: "URL", Value: h.URL}}
	}
	out := []string{screenkit.Section(st, "Webhook "+sanitize.Text(h.ID)+st.Muted.Render("  as the gateway sent it"),
		screenkit.RenderFields(st, fields, width)), "", st.Muted.Render("esc back")}
	return strings.Split(strings.Join(out, "\n"), "\n")
}

// isKeyField names the members that carry a signing key.
func isKeyField(path string) bool {
	last := path[strings.LastIndex(path, ".")+1:]
	switch strings.ToLower(last) {
	case "apikey", "api_key", "secret", "signingkey", "signing_key":
		return true
	}
	return false
}

// maskKey keeps a key's prefix and last four characters.
func maskKey(key string) string {
	if len(key) <= 10 {
		return "********"
	}
	prefix := ""
	if i := strings.Index(key, "_"); i >= 0 && i < 8 {
		prefix = key[:i+1]
	}
	return prefix + "********" + key[len(key)-4:]
}
