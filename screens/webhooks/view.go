package webhooks

import (
	"cardterm/ui/keymap"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// CopyValue implements ui.Copier: the key in the once-only panel (the
// notice names it, never shows it), else the selected url.
func (w *Screen) CopyValue() (label, value string, ok bool) {
	if w.mode == modeKey && w.panelMasked != "" {
		return "", "", false // a masked key is not a key: nothing to copy
	}
	if w.mode == modeKey && w.panelKey != "" {
		return "the signing key of " + fmt.Sprintf("%q", sanitize.Text(w.panelName)), w.panelKey, true
	}
	if h := w.selected(); h != nil {
		return "url of " + fmt.Sprintf("%q", sanitize.Text(h.Name)), h.URL, true
	}
	return "", "", false
}

// SetSize implements ui.Screen.
func (w *Screen) SetSize(width, height int) {
	w.Width, w.Height = width, height
	w.table.SetSize(width, max(height-2, 3))
}

// View implements ui.Screen.
func (w *Screen) View() string {
	width, height := w.Width, w.Height
	st := w.Deps.Styles
	head := st.Title.Render("Webhooks")
	switch {
	case w.change.Running():
		head += "  " + st.Muted.Render("sending…")
	case w.loading:
		head += "  " + st.Muted.Render("loading…")
	case w.loadErr == nil:
		// "2 of 5" beside the table's "row 1 of 2" read as three hidden.
		head += "  " + st.Muted.Render(fmt.Sprintf("%d %s · limit %d", len(w.hooks), screenkit.Plural(len(w.hooks), "endpoint", "endpoints"), apiclient.WebhookLimit))
	}
	lines := []string{head, ""}
	if page := w.page(width); page != nil {
		return w.pageView(lines, page)
	}
	switch {
	case apiclient.IsStatus(w.loadErr, 503):
		lines = append(lines, st.Text(theme.ToneWarn).Render("The gateway says "+unavailableMeaning+"."),
			st.Muted.Render("Webhooks need the notification service; ask the gateway operator to enable it. r retries."))
		return screenkit.Place(strings.Join(lines, "\n"), width, height)
	case apiclient.IsStatus(w.loadErr, 403):
		lines = append(lines, st.Text(theme.ToneWarn).Render("The gateway does not allow managing webhooks for this account (verification required)."))
		return screenkit.Place(strings.Join(lines, "\n"), width, height)
	case w.loadErr != nil:
		lines = append(lines, st.Text(theme.ToneDanger).Render("Could not load webhooks: "+sanitize.Text(apiclient.ErrorMessage(w.loadErr))), st.Muted.Render("r retries"))
		return screenkit.Place(strings.Join(lines, "\n"), width, height)
	case len(w.hooks) == 0 && !w.loading:
		hint := "No webhook endpoints yet."
		if !w.Deps.ReadOnly {
			hint += " " + w.keys.Add.Help().Key + " adds one."
		}
		return screenkit.Place(strings.Join(append(lines, st.Muted.Render(hint)), "\n"), width, height)
	}
	return ui.FitBlock(strings.Join(lines, "\n")+"\n"+w.table.View(), width, height)
}

// keyPanel shows a signing key once, with the warning that goes with it.
func (w *Screen) keyPanel(width int) []string {
	st := w.Deps.Styles
	inner := max(width-4, 20)
	body := []string{
		st.Subtitle.Render(ansi.Truncate(sanitize.Text(fmt.Sprintf("%s %q", w.panelWhat, w.panelName)), inner, "…")),
		"",
	}
	for _, part := range strings.Split(ansi.Hardwrap(sanitize.Text(w.panelKey), inner, true), "\n") {
		body = append(body, st.Accent.Bold(true).Render(part))
	}
	warn := "This key will not be shown again. Store it now: receivers use it to verify X-Signature " +
		"(hex HMAC-SHA256 of X-Timestamp + \".\" + body) and reject deliveries more than 300 s old."
	body = append(body, "")
	for _, part := range strings.Split(ansi.Wrap(warn, inner, " "), "\n") {
		body = append(body, st.Text(theme.ToneWarn).Render(part))
	}
	body = append(body, "", st.KeyHint.Render(w.keys.CopyKey.Help().Key)+" "+st.KeyDesc.Render("copy the key")+"   "+
		st.KeyHint.Render(w.keys.Close.Help().Key)+" "+st.KeyDesc.Render("close (the key is forgotten)"))
	return strings.Split(st.Panel.Render(strings.Join(body, "\n")), "\n")
}

// maskedKeyPanel says that the gateway answered with a masked key, which
// is not the key: nothing to store or copy, and rotation gets a whole one.
func (w *Screen) maskedKeyPanel(width int) []string {
	st := w.Deps.Styles
	inner := max(width-4, 20)
	answered := w.panelMasked
	if answered == maskedNone {
		answered = "(no key in the answer)"
	}
	body := []string{
		st.Subtitle.Render(ansi.Truncate(sanitize.Text(fmt.Sprintf("%s %q", w.panelWhat, w.panelName)), inner, "…")),
		"",
		st.Muted.Render(ansi.Truncate("As answered: "+sanitize.Text(answered), inner, "…")),
		"",
	}
	warn := "The gateway returned this key masked: it is not the signing key, cannot verify X-Signature and must not be stored. " +
		"Rotate the key to get it whole (shown once); receivers need that one."
	for _, part := range strings.Split(ansi.Wrap(warn, inner, " "), "\n") {
		body = append(body, st.Text(theme.ToneWarn).Render(part))
	}
	rotate := st.KeyHint.Render(w.keys.Rotate.Help().Key) + " " + st.KeyDesc.Render("rotate the key") + "   "
	if w.Deps.ReadOnly {
		rotate = ""
	}
	body = append(body, "", rotate+st.KeyHint.Render(w.keys.Close.Help().Key)+" "+st.KeyDesc.Render("close"))
	return strings.Split(st.Panel.Render(strings.Join(body, "\n")), "\n")
}

// detailView shows one configuration in full (the key as the gateway
// answered it: masked).
func (w *Screen) detailView(h *apiclient.Webhook, width int) []string {
	st := w.Deps.Styles
	active := st.Badge("ACTIVE", theme.ToneOK)
	if !h.IsActive {
		active = st.Badge("INACTIVE", theme.ToneWarn)
	}
	fields := []screenkit.Field{
		{Label: "Name", Value: h.Name},
		{Label: "ID", Value: h.ID},
		{Label: "Tenant", Value: h.Tenant},
		{Label: "URL", Value: h.URL},
		{Label: "Signing key", Value: h.APIKey},
		{Label: "Events", Value: strings.Join(h.EventTypes, ", ")},
		{Label: "Status", Styled: active},
		{Label: "Created", Value: screenkit.FormatTime(h.CreatedAt)},
		{Label: "Updated", Value: screenkit.FormatTime(h.UpdatedAt)},
	}
	fields = append(fields, detailExtraFields(st, h.Extra)...)
	out := []string{screenkit.Section(st, ansi.Truncate("Webhook "+sanitize.Text(h.Name), width, "…"), screenkit.RenderFields(st, fields, width))}
	out = append(out, "")
	meta := metadataLines(h.Metadata)
	if len(meta) == 0 {
		out = append(out, screenkit.Section(st, "Metadata", st.Muted.Render("none")))
	} else {
		var mf []screenkit.Field
		for _, kv := range meta {
			k, v, _ := strings.Cut(kv, "=")
			mf = append(mf, screenkit.Field{Label: k, Value: v})
		}
		out = append(out, screenkit.Section(st, "Metadata", screenkit.RenderFields(st, mf, width)))
	}
	out = append(out, "", w.attemptsSection(h.ID, width))
	out = append(out, "", st.Muted.Render(strings.Join(packHints(w.detailHints(), width), "\n")))
	return strings.Split(strings.Join(out, "\n"), "\n")
}

// detailHints lists the detail's keys that work: in read-only mode no
// edit, toggle, rotate, delete or listener key is offered.
func (w *Screen) detailHints() []string {
	hints := []string{closeKey(w.keys.Close) + " back"}
	for _, b := range []key.Binding{w.keys.Edit, w.keys.Toggle, w.keys.Rotate, w.keys.Delete, w.keys.Listen} {
		if b.Enabled() {
			hints = append(hints, b.Help().Key+" "+b.Help().Desc)
		}
	}
	return append(hints, keymap.Key("global.copy")+" copy url")
}

// packHints lays hints out on lines of width, " · " between them, never
// parting a key from its words; a hint wider than a line is wrapped alone.
func packHints(hints []string, width int) []string {
	var lines []string
	line := ""
	for _, h := range hints {
		switch {
		case line == "":
			line = h
		case ansi.StringWidth(line+" · "+h) <= width:
			line += " · " + h
		default:
			lines, line = append(lines, line), h
		}
	}
	return strings.Split(ansi.Wrap(strings.Join(append(lines, line), "\n"), width, " "), "\n")
}

// closeKey is the first key that closes a view (esc with the built-in
// keys): the hints say "esc back" rather than the help's "enter/esc".
func closeKey(close key.Binding) string {
	if keys := close.Keys(); len(keys) > 0 {
		return keys[0]
	}
	return close.Help().Key
}
