package webhooks

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/sandbox/webhookreceiver"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// listenerWebhookName names the configuration L adds for the listener.
const listenerWebhookName = "cardterm in-app listener"

// listenDone is the outcome of pointing a configuration at the in-app
// listener. The signing key went from the answer to the listener inside
// the request's command; it never reaches the screen.
type listenDone struct {
	id, name string
	created  bool
	// keyed: the listener holds the configuration's whole key.
	keyed bool
	// masked is the key as answered when it came masked (or "" when keyed).
	masked string
}

// pointAtListener asks to point h (nil: a new configuration) at the
// in-app listener. On a gateway that needs public HTTPS URLs it explains
// how to receive deliveries with `cardterm listen` instead.
func (w *Screen) pointAtListener(h *apiclient.Webhook) tea.Cmd {
	switch {
	case w.unavailable():
		return ui.Notify(theme.ToneWarn, unavailableMeaning)
	case w.Deps.Events == nil:
		return ui.Notify(theme.ToneWarn, "no in-app listener runs in this session: cardterm listen receives deliveries in a terminal of its own")
	case !w.Deps.LocalSandbox():
		w.mode = modeListenerHelp
		return nil
	}
	url, receiver, client := w.Deps.EventsURL, w.Deps.Events, w.Deps.Client
	if h == nil {
		in := apiclient.WebhookCreate{Name: listenerWebhookName, URL: url, EventTypes: append(slices.Clone(apiclient.SandboxEmittedEventTypes), apiclient.SandboxSimulatedEventTypes...), IsActive: true}
		return w.listen.Ask(ui.ChangeSpec[listenDone]{
			Title:   "Add a webhook for the in-app listener?",
			Request: apiclient.CreateWebhookCall(in).Lines(),
			Lines: []string{
				"Every event the sandbox emits is delivered to " + url + " and shown on " + w.Deps.ScreenNamed(screenkit.EventsScreen, "Events") + ".",
				"The signing key in the answer goes to the listener, which verifies each delivery with it.",
			},
			ConfirmLabel: "add", Tone: theme.ToneInfo, What: "adding the listener's webhook",
			Run: func(ctx context.Context) (listenDone, error) {
				hook, err := client.CreateWebhook(ctx, in)
				if err != nil {
					return listenDone{}, err
				}
				return handOver(receiver, listenDone{id: hook.ID, name: in.Name, created: true}, hook.APIKey), nil
			},
		})
	}
	id, name, keyed := h.ID, h.Name, w.keyed[h.ID]
	update := apiclient.WebhookUpdate{}
	if h.URL != url {
		update.URL = &url
	}
	if !h.IsActive {
		on := true
		update.IsActive = &on
	}
	if update.Empty() && keyed {
		return ui.Notify(theme.ToneInfo, fmt.Sprintf("%q already delivers to the in-app listener, which holds its key", sanitize.Text(name)))
	}
	var request []string
	if !update.Empty() {
		request = append(request, apiclient.UpdateWebhookCall(id, update).Lines()...)
	}
	lines := []string{"Its events (" + strings.Join(h.EventTypes, ", ") + ") are delivered to " + url + " and shown on " + w.Deps.ScreenNamed(screenkit.EventsScreen, "Events") + "."}
	if !keyed {
		request = append(request, apiclient.RotateWebhookKeyCall(id).Lines()...)
		lines = append(lines, "The listener needs the signing key, which the gateway shows whole only when it is created or rotated:",
			"the key is rotated and handed to the listener; receivers using the old key stop verifying.")
	}
	return w.listen.Ask(ui.ChangeSpec[listenDone]{
		Title:   fmt.Sprintf("Point %q at the in-app listener?", name),
		Request: request, Lines: lines,
		ConfirmLabel: "point here", Tone: theme.ToneWarn, What: "pointing the webhook at the listener",
		Run: func(ctx context.Context) (listenDone, error) {
			done := listenDone{id: id, name: name, keyed: keyed}
			if !update.Empty() {
				if _, err := client.UpdateWebhook(ctx, id, update); err != nil {
					return done, err
				}
			}
			if keyed {
				return done, nil
			}
			key, err := client.RotateWebhookKey(ctx, id)
			if err != nil {
				return done, err
			}
			return handOver(receiver, done, key), nil
		},
	})
}

// handOver gives the listener a whole key; a masked one is only reported.
func handOver(receiver *webhookreceiver.Receiver, done listenDone, key string) listenDone {
	if !apiclient.WebhookKeyWhole(key) || receiver.AddKey(key) != nil {
		done.masked = key
		return done
	}
	done.keyed = true
	return done
}

// listenDone re-reads the list and says where deliveries now go.
func (w *Screen) listenDone(res ui.ChangeResult[listenDone]) tea.Cmd {
	reload := w.load()
	if res.Err != nil {
		return tea.Batch(screenkit.Failed(res.Spec.What, res.Err), reload)
	}
	d := res.Value
	name := fmt.Sprintf("%q", sanitize.Text(d.name))
	if !d.keyed {
		return tea.Batch(reload, ui.Notify(theme.ToneWarn, "webhook "+name+" delivers to the in-app listener, but the gateway returned its key masked: "+
			"deliveries will show as rejected until R rotates it whole"))
	}
	w.keyed[d.id] = true
	text := "webhook " + name + " now delivers to the in-app listener, shown on " + w.Deps.ScreenNamed(screenkit.EventsScreen, "Events") + "; the listener verifies with its key"
	if d.created {
		text = "webhook " + name + " added: deliveries show on " + w.Deps.ScreenNamed(screenkit.EventsScreen, "Events") + ", verified with its key"
	}
	return tea.Batch(reload, ui.Notify(theme.ToneOK, text))
}

// listenerHelp explains, on a gateway that needs public HTTPS URLs, how
// to watch deliveries with `cardterm listen --forward-to`.
func (w *Screen) listenerHelp(width int) []string {
	st := w.Deps.Styles
	inner := max(width-4, 20)
	// item wraps text under a marker, continuation lines indented past it.
	item := func(marker, text string) []string {
		pad := strings.Repeat(" ", ansi.StringWidth(marker))
		lines := strings.Split(ansi.Wrap(text, inner-len(pad), " "), "\n")
		for i := range lines {
			if i == 0 {
				lines[i] = marker + lines[i]
			} else {
				lines[i] = pad + lines[i]
			}
		}
		return lines
	}
	body := []string{st.Subtitle.Render("The in-app listener cannot receive from this gateway"), ""}
	body = append(body, item("", "This gateway delivers only to public HTTPS addresses; the in-app listener ("+
		w.Deps.EventsURL+") is on this machine only. To watch deliveries:")...)
	body = append(body, item("1. ", "Open an HTTPS tunnel to a local port (it gives an https:// address).")...)
	body = append(body, item("2. ", "Run there, with the webhook's signing key in $CARDTERM_WEBHOOK_KEY:")...)
	body = append(body, "   "+st.Accent.Render("cardterm listen --addr 127.0.0.1:8787 \\"),
		"     "+st.Accent.Render("--forward-to http://localhost:3000/webhooks"))
	body = append(body, item("   ", "It checks each signature, lists every delivery and re-posts the verified ones, "+
		"headers and body unchanged, to your own server.")...)
	body = append(body, item("3. ", "Set the webhook's URL to the tunnel's address ("+w.keys.Edit.Help().Key+" edits it).")...)
	body = append(body, "", st.KeyHint.Render(w.keys.Close.Help().Key)+" "+st.KeyDesc.Render("close"))
	for i, l := range body {
		body[i] = ansi.Truncate(l, inner, "…")
	}
	return strings.Split(st.Panel.Render(strings.Join(body, "\n")), "\n")
}
