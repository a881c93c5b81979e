package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/theme"
)

// ConfirmSpec describes a confirmation asked before a destructive or
// money-moving action. Lines say exactly what will be sent or will happen.
type ConfirmSpec struct {
	Title string
	// Request is the request that will be sent ("POST /v1/card/freeze" and
	// its body), drawn first so the user sees exactly what goes out.
	Request      []string
	Lines        []string // sanitized when drawn
	ConfirmLabel string   // "Freeze", "Withdraw"; "Confirm" when empty
	Tone         theme.Tone
	OnConfirm    tea.Msg // sent on y/enter; the root handles or forwards it
	OnCancel     tea.Msg // sent on n/esc; may be nil
}

// OpenDialogMsg asks the root to show a confirmation dialog. While one is
// open a second one is ignored, so a stray key cannot replace what the user
// is reading.
type OpenDialogMsg struct{ Spec ConfirmSpec }

// Confirm asks the root to show a confirmation dialog.
func Confirm(spec ConfirmSpec) tea.Cmd {
	return func() tea.Msg { return OpenDialogMsg{Spec: spec} }
}

// DialogKeyMap is the keys of the confirmation dialog.
type DialogKeyMap struct {
	Confirm key.Binding
	Cancel  key.Binding
}

// DialogKeys builds the dialog key map: y/enter confirm, n/esc cancel.
func DialogKeys() DialogKeyMap {
	return DialogKeyMap{
		Confirm: key.NewBinding(key.WithKeys("y", "enter"), key.WithHelp("y/enter", "confirm")),
		Cancel:  key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n/esc", "cancel")),
	}
}

// ShortHelp implements help.KeyMap.
func (k DialogKeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Confirm, k.Cancel} }

// FullHelp implements help.KeyMap.
func (k DialogKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// dialog is the open confirmation, owned by the root.
type dialog struct {
	spec ConfirmSpec
	keys DialogKeyMap
}

// update handles a key press; done reports that the dialog closed.
func (d *dialog) update(msg tea.KeyPressMsg) (done bool, cmd tea.Cmd) {
	switch {
	case key.Matches(msg, d.keys.Confirm):
		return true, msgCmd(d.spec.OnConfirm)
	case key.Matches(msg, d.keys.Cancel):
		return true, msgCmd(d.spec.OnCancel)
	}
	return false, nil
}

func msgCmd(m tea.Msg) tea.Cmd {
	if m == nil {
		return nil
	}
	return func() tea.Msg { return m }
}

// view renders the dialog box, at most maxW wide. Long lines wrap: what will
// be sent is never cut off.
func (d *dialog) view(st *theme.Styles, maxW int) string {
	frameW := st.Dialog.GetHorizontalFrameSize()
	inner := maxW - frameW
	if inner > 72 {
		inner = 72
	}
	if inner < 10 {
		inner = 10
	}
	var body []string
	title := Sanitize(d.spec.Title)
	if title == "" {
		title = "Confirm"
	}
	body = append(body, st.Title.Render(ansi.Truncate(title, inner, "…")), "")
	for i, l := range d.spec.Request {
		prefix := "  "
		if i == 0 {
			prefix = "→ "
		}
		w := ansi.Wrap(prefix+Sanitize(l), inner, " ")
		for _, part := range strings.Split(w, "\n") {
			body = append(body, st.Value.Render(part))
		}
	}
	if len(d.spec.Request) > 0 && len(d.spec.Lines) > 0 {
		body = append(body, "")
	}
	for _, l := range d.spec.Lines {
		w := ansi.Wrap(Sanitize(l), inner, " ")
		for _, part := range strings.Split(w, "\n") {
			body = append(body, st.DialogText.Render(part))
		}
	}
	label := Sanitize(d.spec.ConfirmLabel)
	if label == "" {
		label = "Confirm"
	}
	buttons := st.KeyHint.Render("y") + " " + st.Text(d.spec.Tone).Bold(true).Render(label) +
		"   " + st.KeyHint.Render("n") + " " + st.KeyDesc.Render("cancel")
	body = append(body, "", ansi.Truncate(buttons, inner, "…"))
	w := 0
	for _, l := range body {
		if lw := lipgloss.Width(l); lw > w {
			w = lw
		}
	}
	return st.Dialog.Width(w + frameW).Render(strings.Join(body, "\n"))
}
