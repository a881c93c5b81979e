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
// support agent opens the one a ticket names. The form is a layer
// (screenkit.FormLayer); esc abandons the read and closes it.
func (w *Screen) openLookup() tea.Cmd {
	f := form.New(w.Deps.Styles, form.Spec{
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
	l := &screenkit.FormLayer{Form: f, Requests: w.Requests,
		Width:  func(width int) int { return min(width-2, 70) },
		Submit: func(f *form.Form) (tea.Cmd, bool) { return w.lookUp(f), false },
		Answer: w.lookedUp,
		Draw: func(f *form.Form) string {
			return screenkit.Place(w.Deps.Styles.Title.Render("Webhooks")+"\n\n"+f.View(), w.Width, w.Height)
		},
	}
	return l.Open(f.Focus())
}

// lookUp reads the configuration the id form names.
func (w *Screen) lookUp(f *form.Form) tea.Cmd {
	id, client := strings.TrimSpace(f.Value("id")), w.Deps.Client
	return form.SubmitRequest(f, w.Requests, &w.lookupID, func(ctx context.Context) (apiclient.Webhook, error) {
		return client.Webhook(ctx, id)
	})
}

// lookedUp shows the configuration and closes the form, or keeps the
// form with the reason: a 404 is "no such webhook", never an empty
// record.
func (w *Screen) lookedUp(f *form.Form, msg tea.Msg) (tea.Cmd, bool) {
	res, ok := msg.(ui.Result[apiclient.Webhook])
	if !ok || res.ID != w.lookupID {
		return nil, false
	}
	f.SetBusy(false)
	switch {
	case apiclient.IsNotFound(res.Err):
		f.SetProblem("No webhook with this id (404)")
		return nil, false
	case res.Err != nil:
		return screenkit.FormFailed(f, "opening the webhook", res.Err), false
	}
	hook := res.Value
	w.looked, w.mode = &hook, modeLookup
	return nil, true
}

// lookupView lists every field of the configuration as the gateway sent
// it, labelled, dates as every date; a signing key is shown masked
// whatever the answer held.
func (w *Screen) lookupView(width int) []string {
	st := w.Deps.Styles
	h := w.looked
	var fields []screenkit.Field
	for _, f := range h.Raw.Fields() {
		value := screenkit.FormatTime(f.Value)
		if isKeyField(f.Path) && !apiclient.IsMaskedKey(value) {
			value = maskKey(value)
		}
		fields = append(fields, screenkit.Field{Label: screenkit.Label(f.Path), Value: value})
	}
	if len(fields) == 0 {
		fields = []screenkit.Field{{Label: "ID", Value: h.ID}, {Label: "Name", Value: h.Name}, {Label: "URL", Value: h.URL}}
	}
	out := []string{screenkit.Section(st, "Webhook "+sanitize.Text(h.ID)+st.Muted.Render("  as the gateway sent it"),
		screenkit.RenderFields(st, fields, width)), "", st.Muted.Render(closeKey(w.keys.Close) + " back")}
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
