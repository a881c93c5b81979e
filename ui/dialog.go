package ui

import (
	"bytes"
	"encoding/json"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/theme"
	"cardterm/ui/sanitize"
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
	// Send is the request exactly, for copy as curl, when Request only
	// describes it (a summary of the body); nil: Request is the request.
	Send *SentRequest
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
	curlKeys
}

// DialogKeys builds the dialog key map: y/enter confirm, n/esc cancel.
func DialogKeys() DialogKeyMap {
	return DialogKeyMap{
		Confirm:  key.NewBinding(key.WithKeys("y", "enter"), key.WithHelp("y/enter", "confirm")),
		Cancel:   key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n/esc", "cancel")),
		curlKeys: newCurlKeys(),
	}
}

// ShortHelp implements help.KeyMap.
func (k DialogKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Confirm, k.Cancel, k.Copy}
}

// FullHelp implements help.KeyMap.
func (k DialogKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Confirm, k.Cancel, k.Copy, k.CopyRevealed}}
}

// dialog is the open confirmation, owned by the root.
type dialog struct {
	spec ConfirmSpec
	keys DialogKeyMap
	// curlOf writes the request as curl (RootOptions.CurlOf); curl is the
	// command copied last, shown in the box.
	curlOf CurlOf
	curl   string

	st            *theme.Styles
	width, height int
	done          bool
}

// newDialog is the confirmation of spec. Copy as curl is offered only
// when spec holds the whole request: a confirmation that only describes
// it (a summary, a masked secret, a local command) has no c in its footer.
func newDialog(spec ConfirmSpec, curlOf CurlOf, st *theme.Styles) *dialog {
	keys := DialogKeys()
	if _, ok := sentRequestOf(spec); !ok {
		keys.Copy.SetEnabled(false)
		keys.CopyRevealed.SetEnabled(false)
	}
	return &dialog{spec: spec, keys: keys, curlOf: curlOf, st: st}
}

// Update implements layer.Layer: y/enter and n/esc answer and close it.
func (d *dialog) Update(msg tea.Msg) tea.Cmd {
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	done, cmd := d.update(press)
	d.done = d.done || done
	return cmd
}

// SetSize implements layer.Layer.
func (d *dialog) SetSize(width, height int) { d.width, d.height = width, height }

// View implements layer.Layer: the box, set over the body by the root.
func (d *dialog) View() string { return d.view(d.st, d.width-2, d.height) }

// KeyMap implements layer.Layer.
func (d *dialog) KeyMap() help.KeyMap { return d.keys }

// Done implements layer.Layer.
func (d *dialog) Done() bool { return d.done }

// Floats implements layer.Floater.
func (d *dialog) Floats() {}

// update handles a key press; done reports that the dialog closed.
func (d *dialog) update(msg tea.KeyPressMsg) (done bool, cmd tea.Cmd) {
	switch {
	case key.Matches(msg, d.keys.Confirm):
		return true, msgCmd(d.spec.OnConfirm)
	case key.Matches(msg, d.keys.Cancel):
		return true, msgCmd(d.spec.OnCancel)
	case key.Matches(msg, d.keys.Copy), key.Matches(msg, d.keys.CopyRevealed):
		req, ok := sentRequestOf(d.spec)
		if !ok {
			return false, nil // newDialog offers no c then
		}
		var cmd tea.Cmd
		if command, c := copyAsCurl(d.curlOf, req, key.Matches(msg, d.keys.CopyRevealed)); command != "" {
			d.curl, cmd = command, c
		} else {
			cmd = c
		}
		return false, cmd
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
// be sent is never cut off. A wide JSON body is shown one member a line
// when the box still fits in maxH lines, else wrapped as it is.
func (d *dialog) view(st *theme.Styles, maxW, maxH int) string {
	box := d.render(st, maxW, true)
	if lipgloss.Height(box) > maxH {
		box = d.render(st, maxW, false)
	}
	return box
}

// repeatsDropped leaves out a request line that is the same as the one
// before it (requests sent in a row to one endpoint, each with its body):
// the line is drawn once with every body under it, so the box keeps its
// buttons on the screen.
func repeatsDropped(request []string) []string {
	out := make([]string, 0, len(request))
	last := ""
	for _, l := range request {
		if isRequestLine(l) {
			if l == last {
				continue
			}
			last = l
		}
		out = append(out, l)
	}
	return out
}

// isRequestLine reports a line that starts with an HTTP method and a path.
func isRequestLine(l string) bool {
	method, rest, ok := strings.Cut(l, " ")
	return ok && strings.HasPrefix(rest, "/") && method != "" && strings.ToUpper(method) == method
}

// render draws the box; indentBodies shows a wide JSON body one member a
// line.
func (d *dialog) render(st *theme.Styles, maxW int, indentBodies bool) string {
	frameW := st.Dialog.GetHorizontalFrameSize()
	inner := maxW - frameW
	if inner > 72 {
		inner = 72
	}
	if inner < 10 {
		inner = 10
	}
	var body []string
	title := sanitize.Text(d.spec.Title)
	if title == "" {
		title = "Confirm"
	}
	body = append(body, st.Title.Render(ansi.Truncate(title, inner, "…")), "")
	for i, l := range repeatsDropped(d.spec.Request) {
		prefix := "  "
		if i == 0 {
			prefix = "→ "
		}
		lines := bodyLines(sanitize.Text(l), inner-len(prefix), indentBodies)
		if len(lines) == 1 {
			for _, part := range strings.Split(ansi.Wrap(prefix+lines[0], inner, " "), "\n") {
				body = append(body, st.Value.Render(part))
			}
			continue
		}
		for _, line := range lines {
			// A body member that wraps goes on under its own text, not at
			// the box's edge.
			hang := strings.Repeat(" ", len(prefix)+len(line)-len(strings.TrimLeft(line, " "))+2)
			for j, part := range strings.Split(ansi.Wrap(line, inner-len(hang), " "), "\n") {
				if j == 0 {
					part = prefix + part
				} else {
					part = hang + strings.TrimLeft(part, " ")
				}
				body = append(body, st.Value.Render(part))
			}
			prefix = "  "
		}
	}
	if len(d.spec.Request) > 0 && len(d.spec.Lines) > 0 {
		body = append(body, "")
	}
	for _, l := range d.spec.Lines {
		w := ansi.Wrap(sanitize.Text(l), inner, " ")
		for _, part := range strings.Split(w, "\n") {
			body = append(body, st.DialogText.Render(part))
		}
	}
	if d.curl != "" {
		body = append(body, "", st.KeyDesc.Render("Copied as curl:"))
		for _, part := range wrapCommand(d.curl, inner) {
			body = append(body, st.Value.Render(part))
		}
	}
	label := sanitize.Text(d.spec.ConfirmLabel)
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

// bodyLines is a request line as the dialog shows it. A JSON body too wide
// for the box gets a space after its commas, so it wraps between elements;
// with indent, an object is shown one member a line, so wrapping never
// parts a value from its name. Anything else is the line itself.
func bodyLines(line string, width int, indent bool) []string {
	trimmed := strings.TrimSpace(line)
	if ansi.StringWidth(line) <= width || !json.Valid([]byte(trimmed)) {
		return []string{line}
	}
	if !indent || !strings.HasPrefix(trimmed, "{") {
		return []string{spaceAfterCommas(json.RawMessage(trimmed))}
	}
	dec := json.NewDecoder(strings.NewReader(trimmed))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return []string{line}
	}
	var members []string
	for dec.More() {
		name, err := dec.Token()
		var value json.RawMessage
		if err != nil || dec.Decode(&value) != nil {
			return []string{line}
		}
		quoted, _ := json.Marshal(name)
		members = append(members, "  "+string(quoted)+": "+spaceAfterCommas(value))
	}
	if _, err := dec.Token(); err != nil || dec.More() {
		return []string{line}
	}
	for i := range len(members) - 1 {
		members[i] += ","
	}
	return append(append([]string{"{"}, members...), "}")
}

// spaceAfterCommas is a JSON value compacted, with a space after each comma
// between elements (not inside strings).
func spaceAfterCommas(value json.RawMessage) string {
	var compact bytes.Buffer
	if json.Compact(&compact, value) != nil {
		return string(value)
	}
	var b strings.Builder
	inString, escaped := false, false
	for _, c := range compact.Bytes() {
		b.WriteByte(c)
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && c == ',':
			b.WriteByte(' ')
		}
	}
	return b.String()
}
