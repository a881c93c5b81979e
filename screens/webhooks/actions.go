package webhooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/apiclient/webhookreceiver"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
)

// whWhat names each mutation in notices.
var whWhat = map[string]string{
	"add": "adding the webhook", "edit": "saving the webhook", "toggle": "changing is_active",
	"rotate": "rotating the signing key", "delete": "deleting the webhook",
}

// actionDone shows a mutation's outcome and re-reads the list.
func (w *Screen) actionDone(msg ui.Result[whDone]) tea.Cmd {
	w.busy, w.running = false, false
	reload := w.load()
	d := msg.Value
	if msg.Err != nil {
		if w.form != nil && (d.what == "add" || d.what == "edit") {
			w.form.gatewayFailed(msg.Err)
		}
		if apiclient.IsStatus(msg.Err, 503) {
			return tea.Batch(ui.Notify(theme.ToneWarn, whUnavailable), reload)
		}
		return tea.Batch(screenkit.Failed(whWhat[d.what], msg.Err), reload)
	}
	if d.key != "" && w.deps.Events != nil {
		w.keyed[d.id] = true // the listener got it in the request's command
	}
	var note string
	switch d.what {
	case "add":
		w.form = nil
		w.showKey(d, "Signing key of the new webhook")
		note = fmt.Sprintf("webhook %q added", d.name)
		if d.masked != "" {
			note += "; the gateway returned its key masked"
		}
	case "edit":
		w.form = nil
		note = fmt.Sprintf("webhook %q saved: PUT %s", d.name, d.body)
	case "toggle":
		note = fmt.Sprintf("webhook %q updated: PUT %s", d.name, d.body)
	case "rotate":
		w.showKey(d, "New signing key of")
		note = fmt.Sprintf("signing key of %q rotated; the old key no longer signs", d.name)
		if d.masked != "" {
			note += ", but the gateway returned the new one masked"
		}
	case "delete":
		w.mode = whModeList
		note = fmt.Sprintf("webhook %q deleted", d.name)
	}
	return tea.Batch(ui.Notify(theme.ToneOK, note), reload)
}

// maskedNone stands for a create or rotate answer that carried no key.
const maskedNone = "\x00none"

// showKey opens the once-only key panel: the key when the answer carried
// it whole, else what the gateway sent, said to be masked. The key lives
// only in the screen until the panel closes.
func (w *Screen) showKey(d whDone, what string) {
	w.panelKey, w.panelMasked, w.panelName, w.panelWhat, w.panelID = d.key, d.masked, d.name, what, d.id
	w.mode = whModeKey
}

// keyAnswer sorts a create or rotate answer's key into done: whole (and
// then handed to the in-app listener, which verifies with every key seen
// whole) or masked.
func keyAnswer(done whDone, key string, receiver *webhookreceiver.Receiver) whDone {
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
	if cmd, ok := w.canAsk(h); !ok {
		return cmd
	}
	next := !h.IsActive
	u := apiclient.WebhookUpdate{IsActive: &next}
	body, _ := json.Marshal(u)
	means := "Events are delivered to " + h.URL + " again."
	title := fmt.Sprintf("Turn deliveries to %q on?", h.Name)
	tone := theme.ToneInfo
	if !next {
		means = "Events are no longer delivered to " + h.URL + " until it is turned on again."
		title = fmt.Sprintf("Turn deliveries to %q off?", h.Name)
		tone = theme.ToneWarn
	}
	return w.ask(ui.ConfirmSpec{
		Title:        title,
		Request:      []string{"PUT /v1/webhooks/" + h.ID, string(body)},
		Lines:        []string{means},
		ConfirmLabel: map[bool]string{true: "turn on", false: "turn off"}[next],
		Tone:         tone,
		OnConfirm:    whConfirmMsg{what: "toggle", id: h.ID, update: u},
	})
}

func (w *Screen) confirmRotate() tea.Cmd {
	h := w.selected()
	if w.mode == whModeKey { // the masked-key panel offers rotation
		h = w.find(w.panelID)
		if h == nil {
			h = &apiclient.Webhook{ID: w.panelID, Name: w.panelName}
		}
		w.closeKeyPanel()
	}
	if cmd, ok := w.canAsk(h); !ok {
		return cmd
	}
	return w.ask(ui.ConfirmSpec{
		Title:   fmt.Sprintf("Rotate the signing key of %q?", h.Name),
		Request: []string{"POST /v1/webhooks/" + h.ID + "/rotate-key"},
		Lines: []string{
			"The current key stops signing at once: receivers at " + h.URL + " must switch to the new key.",
			"The new key is shown once, right after this.",
		},
		ConfirmLabel: "rotate key",
		Tone:         theme.ToneWarn,
		OnConfirm:    whConfirmMsg{what: "rotate", id: h.ID},
	})
}

func (w *Screen) confirmDelete() tea.Cmd {
	h := w.selected()
	if cmd, ok := w.canAsk(h); !ok {
		return cmd
	}
	return w.ask(ui.ConfirmSpec{
		Title:   fmt.Sprintf("Delete webhook %q?", h.Name),
		Request: []string{"DELETE /v1/webhooks/" + h.ID},
		Lines: []string{
			"Name: " + h.Name,
			"URL:  " + h.URL,
			"Events will no longer be delivered to this endpoint.",
		},
		ConfirmLabel: "delete",
		Tone:         theme.ToneDanger,
		OnConfirm:    whConfirmMsg{what: "delete", id: h.ID},
	})
}

// canAsk says whether a change of h may be asked for now: a webhook is
// selected (else the notice to show) and no confirmation or change of this
// screen is on its way, so a second press asks nothing more.
func (w *Screen) canAsk(h *apiclient.Webhook) (tea.Cmd, bool) {
	if h == nil {
		return ui.Notify(theme.ToneInfo, "no webhook selected"), false
	}
	return nil, !w.busy
}

// ask shows the confirmation of one change; the screen is busy until it is
// answered.
func (w *Screen) ask(spec ui.ConfirmSpec) tea.Cmd {
	w.busy = true
	spec.OnCancel = whCancelMsg{}
	return ui.Confirm(spec)
}

// confirmEdit shows the exact PUT body before sending it.
func (w *Screen) confirmEdit(id, name string, u apiclient.WebhookUpdate) tea.Cmd {
	body, _ := json.Marshal(u)
	return w.ask(ui.ConfirmSpec{
		Title:        fmt.Sprintf("Save changes to %q?", name),
		Request:      []string{"PUT /v1/webhooks/" + id, string(body)},
		ConfirmLabel: "save",
		Tone:         theme.ToneInfo,
		OnConfirm:    whConfirmMsg{what: "edit", id: id, update: u},
	})
}

// run sends a confirmed mutation.
func (w *Screen) run(m whConfirmMsg) tea.Cmd {
	if w.running {
		return nil
	}
	w.busy = true
	client, receiver := w.deps.Client, w.deps.Events
	name := ""
	if h := w.find(m.id); h != nil {
		name = h.Name
	}
	var cmd tea.Cmd
	w.actionID, cmd = ui.Go(w.requests, func(ctx context.Context) (whDone, error) {
		done := whDone{what: m.what, id: m.id, name: name}
		switch m.what {
		case "rotate":
			k, err := client.RotateWebhookKey(ctx, m.id)
			if masked := (*apiclient.MaskedKeyError)(nil); errors.As(err, &masked) {
				return keyAnswer(done, masked.Answered, receiver), nil
			}
			if err != nil {
				return done, err
			}
			return keyAnswer(done, k, receiver), nil
		case "delete":
			return done, client.DeleteWebhook(ctx, m.id)
		}
		b, _ := json.Marshal(m.update)
		done.body = string(b)
		_, err := client.UpdateWebhook(ctx, m.id, m.update)
		return done, err
	})
	w.running = true
	return cmd
}
