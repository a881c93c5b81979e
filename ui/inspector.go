package ui

import (
	"bytes"
	"encoding/json"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/domain/lazy"
	"cardterm/theme"
	"cardterm/ui/sanitize"
)

// Inspectable is implemented by screens that can show the JSON the gateway
// sent for the selected record or the screen's main resource. ok is false
// when there is nothing to inspect now; the i key then says so and the help
// does not offer it. raw is the gateway's text exactly as received.
type Inspectable interface {
	Inspect() (title string, raw []byte, ok bool)
}

// inspector is the overlay the i key opens: the record's JSON, pretty-printed,
// sanitized and with secrets masked, scrollable, y copying it.
type inspector struct {
	title  string
	lines  []string
	offset int
	keys   inspectorKeys
	// request is the record's request, when the screen knows it (copy as
	// curl); curlOf writes it (RootOptions.CurlOf).
	request *SentRequest
	curlOf  CurlOf
	// json is the record's lines alone, what y copies once a curl
	// command is shown above them.
	json []string

	st            *theme.Styles
	width, height int
	done          bool
}

// Update implements layer.Layer: keys scroll, copy and close it; the
// wheel scrolls it.
func (in *inspector) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		closed, cmd := in.update(msg, in.height)
		in.done = in.done || closed
		return cmd
	case BodyMouseMsg:
		last := max(len(in.lines)-inspectorRows(in.height), 0)
		in.offset = min(max(in.offset+msg.Wheel*wheelLines, 0), last)
	}
	return nil
}

// SetSize implements layer.Layer.
func (in *inspector) SetSize(width, height int) { in.width, in.height = width, height }

// View implements layer.Layer.
func (in *inspector) View() string { return in.view(in.st, in.width, in.height) }

// KeyMap implements layer.Layer.
func (in *inspector) KeyMap() help.KeyMap { return in.keys }

// Done implements layer.Layer.
func (in *inspector) Done() bool { return in.done }

// inspectorKeys are the overlay's bindings; the footer lists them.
type inspectorKeys struct {
	ScrollKeyMap
	Copy, Close key.Binding
	Curl        curlKeys
}

func newInspectorKeys() inspectorKeys {
	return inspectorKeys{
		ScrollKeyMap: NewScrollKeys(),
		Copy:         key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy JSON")),
		Close:        key.NewBinding(key.WithKeys("esc", "i", "q"), key.WithHelp("esc/i", "close")),
		Curl:         newCurlKeys(),
	}
}

// ShortHelp implements help.KeyMap.
func (k inspectorKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Close, k.Copy, k.Up, k.Down, k.PageDown}
}

// FullHelp implements help.KeyMap.
func (k inspectorKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Close, k.Copy, k.Curl.Copy, k.Curl.CopyRevealed}, {k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End}}
}

// newInspector prepares raw for showing: indented when it is JSON (as it
// is otherwise), secrets masked, every line sanitized.
func newInspector(title string, raw []byte) *inspector {
	lines := strings.Split(InspectText(raw), "\n")
	return &inspector{title: title, lines: lines, json: lines, keys: newInspectorKeys()}
}

// InspectText is what the inspector shows and y copies for raw: the JSON
// indented by two spaces, the values of secret members masked, and the
// text sanitized.
func InspectText(raw []byte) string {
	var b bytes.Buffer
	text := string(raw)
	if json.Indent(&b, bytes.TrimSpace(raw), "", "  ") == nil {
		text = b.String()
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = sanitize.Text(maskSecretLine(l))
	}
	return strings.Join(lines, "\n")
}

// secretMember matches an indented member line with a string value.
var secretMember = lazy.Regexp{Pattern: `^(\s*"([^"\\]*)":\s*)"((?:[^"\\]|\\.)*)"(,?)$`}

// maskSecretLine masks the value of a member whose name says it is a
// secret (a token, a key, a password, a PIN, an image or hosted-page URL),
// keeping its last four characters so two values can be told apart.
func maskSecretLine(line string) string {
	m := secretMember.Get().FindStringSubmatch(line)
	if m == nil || !secretName(m[2]) || m[3] == "" {
		return line
	}
	value := m[3]
	tail := ""
	if len(value) > 12 {
		tail = value[len(value)-4:]
	}
	return m[1] + `"****` + tail + ` (masked)"` + m[4]
}

// secretName reports a member name that holds a secret.
func secretName(name string) bool {
	n := strings.ToLower(strings.ReplaceAll(name, "_", ""))
	switch n {
	case "pin", "ssn", "imageurl", "secretkey", "apikey", "secret", "password", "signature", "pageurl", "hostedurl", "codeverifier":
		return true
	}
	return strings.HasSuffix(n, "token") || strings.HasSuffix(n, "secret") || strings.HasSuffix(n, "password") || strings.HasSuffix(n, "apikey")
}

// height is the rows of JSON the overlay shows in a body of bodyHeight.
func inspectorRows(bodyHeight int) int { return max(bodyHeight-2, 1) }

// update handles a key while the overlay is open; closed reports esc.
func (in *inspector) update(msg tea.KeyPressMsg, bodyHeight int) (closed bool, cmd tea.Cmd) {
	rows := inspectorRows(bodyHeight)
	last := max(len(in.lines)-rows, 0)
	switch {
	case key.Matches(msg, in.keys.Close):
		return true, nil
	case key.Matches(msg, in.keys.Copy):
		return false, tea.Batch(tea.SetClipboard(strings.Join(in.json, "\n")), Notify(theme.ToneOK, "copied the JSON of "+in.title))
	case key.Matches(msg, in.keys.Curl.Copy), key.Matches(msg, in.keys.Curl.CopyRevealed):
		if in.request == nil {
			return false, Notify(theme.ToneInfo, "this screen does not say which request gave "+in.title+": nothing to copy as curl")
		}
		command, cmd := copyAsCurl(in.curlOf, *in.request, key.Matches(msg, in.keys.Curl.CopyRevealed))
		if command != "" {
			// Shown above the JSON, from the top.
			shown := strings.Split(command, "\n")
			for i, l := range shown {
				shown[i] = sanitize.Text(l)
			}
			shown = append(shown, "")
			in.lines, in.offset = append(shown, in.json...), 0
		}
		return false, cmd
	}
	offset, _ := in.keys.Move(msg, in.offset, rows, last)
	in.offset = min(max(offset, 0), last)
	return false, nil
}

// view draws the overlay in width x height: a title line with the position,
// then the visible lines of JSON.
func (in *inspector) view(st *theme.Styles, width, height int) string {
	rows := inspectorRows(height)
	end := min(in.offset+rows, len(in.lines))
	where := "all " + FormatCount(len(in.lines)) + " lines"
	if len(in.lines) > rows {
		where = "lines " + FormatCount(in.offset+1) + "–" + FormatCount(end) + " of " + FormatCount(len(in.lines))
	}
	const heading = "JSON as the gateway sent it"
	// The title (an id) loses its middle, never its end, when the line is short.
	room := max(width-ansi.StringWidth(heading)-2-ansi.StringWidth(where)-3, 8)
	head := st.Title.Render(heading) + "  " + st.Muted.Render(shortenTitle(sanitize.Text(in.title), room)+" · "+where)
	var b strings.Builder
	b.WriteString(head + "\n\n")
	for _, l := range in.lines[in.offset:end] {
		b.WriteString(st.Value.Render(FitLine(l, width)) + "\n")
	}
	return FitBlock(b.String(), width, height)
}

// shortenTitle fits a title such as "order 2728…8b90" into w cells: the
// words before the last stay, the last (an id) loses its middle.
func shortenTitle(title string, w int) string {
	i := strings.LastIndexByte(title, ' ')
	if i < 0 || ansi.StringWidth(title) <= w {
		return Shorten(title, w)
	}
	prefix := title[:i+1]
	if room := w - ansi.StringWidth(prefix); room >= 9 {
		return prefix + Shorten(title[i+1:], room)
	}
	return Shorten(title, w)
}
