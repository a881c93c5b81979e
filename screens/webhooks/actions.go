package webhooks

import (
	"context"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/sandbox/webhookreceiver"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
)

// action is which change of a configuration an answer (changed) is for.
type action int

const (
	actionAdd action = iota
	actionEdit
	actionToggle
	actionRotate
	actionDelete
)

// changeDone shows a change's outcome and re-reads the list.
func (w *Screen) changeDone(res ui.ChangeResult[changed]) tea.Cmd {
	reload := w.load()
	d := res.Value
	var toForm tea.Cmd
	if d.action == actionAdd || d.action == actionEdit {
		answered := formAnswered{err: res.Err}
		toForm = func() tea.Msg { return answered }
	}
	if res.Err != nil {
		if apiclient.IsStatus(res.Err, 503) {
			return tea.Batch(toForm, ui.Notify(theme.ToneWarn, unavailableMeaning), reload)
		}
		return tea.Batch(toForm, screenkit.Failed(res.Spec.What, res.Err), reload)
	}
	if d.key != "" && w.Deps.Events != nil {
		w.keyed[d.id] = true // the listener got it in the request's command
	}
	var note string
	switch d.action {
	case actionAdd:
		w.showKey(d, "Signing key of the new webhook")
		note = fmt.Sprintf("webhook %q added", d.name)
		if d.masked != "" {
			note += "; the gateway returned its key masked"
		}
	case actionEdit:
		note = fmt.Sprintf("webhook %q saved: PUT %s", d.name, d.body)
	case actionToggle:
		note = fmt.Sprintf("webhook %q updated: PUT %s", d.name, d.body)
	case actionRotate:
		w.showKey(d, "New signing key of")
		note = fmt.Sprintf("signing key of %q rotated; the old key no longer signs", d.name)
		if d.masked != "" {
			note += ", but the gateway returned the new one masked"
		}
	case actionDelete:
		w.mode = modeList
		note = fmt.Sprintf("webhook %q deleted", d.name)
	}
	return tea.Batch(toForm, ui.Notify(theme.ToneOK, note), reload)
}

// maskedNone stands for a create or rotate answer that carried no key.
const maskedNone = "\x00none"

// showKey opens the once-only key panel: the key when the answer carried
// it whole, else what the gateway sent, said to be masked. The key lives
// only in the screen until the panel closes.
func (w *Screen) showKey(d changed, what string) {
	w.panelKey, w.panelMasked, w.panelName, w.panelWhat, w.panelID = d.key, d.masked, d.name, what, d.id
	w.mode = modeKey
}

// keyAnswer sorts a create or rotate answer's key into done: whole (and
// then handed to the in-app listener, which verifies with every key seen
// whole) or masked.
func keyAnswer(done changed, key string, receiver *webhookreceiver.Receiver) changed {
	if !apiclient.WebhookKeyWhole(key) {
		done.masked = key
		if key == "" {
			done.masked = maskedNone
		}
		return done
	}
	done.key = key
	if receiver != nil {
		_ = receiver.AddKey(key)
	}
	return done
}

// toggle flips is_active of the selected configuration (PUT {is_active}).
func (w *Screen) toggle() tea.Cmd {
	h := w.selected()
	if h == nil {
		return noneSelected()
	}
	next := !h.IsActive
	means := "Events are delivered to " + h.URL + " again."
	title := fmt.Sprintf("Turn deliveries to %q on?", h.Name)
	tone := theme.ToneInfo
	if !next {
		means = "Events are no longer delivered to " + h.URL + " until it is turned on again."
		title = fmt.Sprintf("Turn deliveries to %q off?", h.Name)
		tone = theme.ToneWarn
	}
	return w.askUpdate(actionToggle, h.ID, h.Name, apiclient.WebhookUpdate{IsActive: &next}, ui.ChangeSpec[changed]{
		Title:        title,
		Lines:        []string{means},
		ConfirmLabel: map[bool]string{true: "turn on", false: "turn off"}[next],
		Tone:         tone,
		What:         "changing is_active",
	})
}

// confirmEdit shows the exact PUT body of the form's changes before
// sending it.
func (w *Screen) confirmEdit(id, name string, u apiclient.WebhookUpdate) tea.Cmd {
	return w.askUpdate(actionEdit, id, name, u, ui.ChangeSpec[changed]{
		Title:        fmt.Sprintf("Save changes to %q?", name),
		ConfirmLabel: "save",
		Tone:         theme.ToneInfo,
		What:         "saving the webhook",
	})
}

// askUpdate confirms a PUT of u, showing its body, and sends it.
func (w *Screen) askUpdate(act action, id, name string, u apiclient.WebhookUpdate, spec ui.ChangeSpec[changed]) tea.Cmd {
	call, client := apiclient.UpdateWebhookCall(id, u), w.Deps.Client
	body := string(call.Body())
	spec.Request = call.Lines()
	spec.Run = func(ctx context.Context) (changed, error) {
		_, err := client.UpdateWebhook(ctx, id, u)
		return changed{action: act, id: id, name: name, body: body}, err
	}
	return w.change.Ask(spec)
}

func (w *Screen) confirmRotate() tea.Cmd {
	h := w.selected()
	if w.mode == modeKey { // the masked-key panel offers rotation
		h = w.find(w.panelID)
		if h == nil {
			h = &apiclient.Webhook{ID: w.panelID, Name: w.panelName}
		}
		w.closeKeyPanel()
	}
	if h == nil {
		return noneSelected()
	}
	id, name, client, receiver := h.ID, h.Name, w.Deps.Client, w.Deps.Events
	return w.change.Ask(ui.ChangeSpec[changed]{
		Title:   fmt.Sprintf("Rotate the signing key of %q?", name),
		Request: apiclient.RotateWebhookKeyCall(id).Lines(),
		Lines: []string{
			"The current key stops signing at once: receivers at " + h.URL + " must switch to the new key.",
			"The new key is shown once, right after this.",
		},
		ConfirmLabel: "rotate key",
		Tone:         theme.ToneWarn,
		What:         "rotating the signing key",
		Run: func(ctx context.Context) (changed, error) {
			done := changed{action: actionRotate, id: id, name: name}
			k, err := client.RotateWebhookKey(ctx, id)
			if masked := (*apiclient.MaskedKeyError)(nil); errors.As(err, &masked) {
				return keyAnswer(done, masked.Answered, receiver), nil
			}
			if err != nil {
				return done, err
			}
			return keyAnswer(done, k, receiver), nil
		},
	})
}

func (w *Screen) confirmDelete() tea.Cmd {
	h := w.selected()
	if h == nil {
		return noneSelected()
	}
	id, name, client := h.ID, h.Name, w.Deps.Client
	return w.change.Ask(ui.ChangeSpec[changed]{
		Title:   fmt.Sprintf("Delete webhook %q?", name),
		Request: apiclient.DeleteWebhookCall(id).Lines(),
		Lines: []string{
			"Name: " + name,
			"URL:  " + h.URL,
			"Events will no longer be delivered to this endpoint.",
		},
		ConfirmLabel: "delete",
		Tone:         theme.ToneDanger,
		What:         "deleting the webhook",
		Run: func(ctx context.Context) (changed, error) {
			return changed{action: actionDelete, id: id, name: name}, client.DeleteWebhook(ctx, id)
		},
	})
}

// noneSelected is the notice for a change key with no configuration.
func noneSelected() tea.Cmd { return ui.Notify(theme.ToneInfo, "no webhook selected") }
