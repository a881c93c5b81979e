package screens

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/theme"
	"cardterm/ui"
)

// fieldsForm is a small vertical form of text fields with an error next to
// each: the card style forms and the transaction filters use it. Typed
// values stay as they are when the gateway refuses them.
type fieldsForm struct {
	title   string
	lines   []string // what will be sent, shown under the title
	fields  []ffField
	focus   int
	problem string // an error that names no field of the form
	busy    bool
	keys    ffKeys
}

// ffField is one input; key is the wire name ("backgroundColor").
type ffField struct {
	key, label string
	input      textinput.Model
	err        string
}

// ffKeys are the bindings of a fieldsForm.
type ffKeys struct {
	Next, Prev, Submit, Cancel key.Binding
}

func newFFKeys(submit string) ffKeys {
	return ffKeys{
		Next:   key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab/↓", "next field")),
		Prev:   key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab/↑", "previous field")),
		Submit: key.NewBinding(key.WithKeys("enter", "ctrl+s"), key.WithHelp("enter", submit)),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
	}
}

func (k ffKeys) ShortHelp() []key.Binding { return []key.Binding{k.Next, k.Submit, k.Cancel} }
func (k ffKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Next, k.Prev}, {k.Submit, k.Cancel}}
}

// ffSpec declares a form field: wire name, label, placeholder, value.
type ffSpec struct{ key, label, placeholder, value string }

func newFieldsForm(st *theme.Styles, title, submit string, lines []string, specs []ffSpec) *fieldsForm {
	f := &fieldsForm{title: title, lines: lines, keys: newFFKeys(submit)}
	for _, s := range specs {
		in := newInput(st)
		in.Prompt = ""
		in.Placeholder = s.placeholder
		in.CharLimit = 64
		// A steady cursor: no blink timers while a form is open.
		sty := in.Styles()
		sty.Cursor.Blink = false
		in.SetStyles(sty)
		in.SetValue(s.value)
		f.fields = append(f.fields, ffField{key: s.key, label: s.label, input: in})
	}
	return f
}

// start focuses the first field and returns the cursor blink command.
func (f *fieldsForm) start() tea.Cmd { return f.setFocus(0) }

func (f *fieldsForm) setFocus(i int) tea.Cmd {
	n := len(f.fields)
	if n == 0 {
		return nil
	}
	f.focus = (i%n + n) % n
	var cmd tea.Cmd
	for j := range f.fields {
		if j == f.focus {
			cmd = f.fields[j].input.Focus()
		} else {
			f.fields[j].input.Blur()
		}
	}
	return cmd
}

// ffEvent is what a key did to the form.
type ffEvent int

const (
	ffNothing ffEvent = iota
	ffSubmit
	ffCancel
)

// update handles a key press; while busy only esc is taken.
func (f *fieldsForm) update(msg tea.KeyPressMsg) (ffEvent, tea.Cmd) {
	switch {
	case key.Matches(msg, f.keys.Cancel):
		return ffCancel, nil
	case f.busy:
		return ffNothing, nil
	case key.Matches(msg, f.keys.Submit):
		return ffSubmit, nil
	case key.Matches(msg, f.keys.Next):
		return ffNothing, f.setFocus(f.focus + 1)
	case key.Matches(msg, f.keys.Prev):
		return ffNothing, f.setFocus(f.focus - 1)
	}
	var cmd tea.Cmd
	f.fields[f.focus].input, cmd = f.fields[f.focus].input.Update(msg)
	return ffNothing, cmd
}

// value is the trimmed text of the field named k.
func (f *fieldsForm) value(k string) string {
	for _, fl := range f.fields {
		if fl.key == k {
			return strings.TrimSpace(fl.input.Value())
		}
	}
	return ""
}

// setErrors puts each error next to the field it names ("customCss." and
// other prefixes are ignored); errors for no field of the form, and the
// gateway's message, go to the form's problem line. It focuses the first
// field in error.
func (f *fieldsForm) setErrors(message string, errs []apiclient.FieldError) tea.Cmd {
	for i := range f.fields {
		f.fields[i].err = ""
	}
	f.problem = ""
	var extra []string
	first := -1
	for _, e := range errs {
		name := e.Field
		if i := strings.LastIndex(name, "."); i >= 0 {
			name = name[i+1:]
		}
		found := false
		for i := range f.fields {
			if f.fields[i].key == name && name != "" {
				if f.fields[i].err == "" {
					f.fields[i].err = e.Message
				}
				found = true
				if first < 0 || i < first {
					first = i
				}
			}
		}
		if !found {
			extra = append(extra, strings.TrimSpace(e.Field+" "+e.Message))
		}
	}
	if message != "" || len(extra) > 0 {
		f.problem = strings.TrimSpace(message + " " + strings.Join(extra, "; "))
	}
	if first >= 0 {
		return f.setFocus(first)
	}
	return nil
}

// view draws the form in width cells.
func (f *fieldsForm) view(st *theme.Styles, width int) string {
	labelW := 0
	for _, fl := range f.fields {
		labelW = max(labelW, ansi.StringWidth(fl.label))
	}
	inputW := min(max(width-labelW-4, 10), 24)
	var b strings.Builder
	b.WriteString(st.Subtitle.Render(f.title))
	for _, l := range f.lines {
		// Lines may quote gateway text (the categories seen so far).
		b.WriteString("\n" + st.Muted.Render(ansi.Truncate(ui.Sanitize(l), width, "…")))
	}
	b.WriteString("\n")
	for i, fl := range f.fields {
		in := fl.input
		in.SetWidth(inputW)
		mark := "  "
		if i == f.focus {
			mark = st.Accent.Render("› ")
		}
		b.WriteString("\n" + mark + st.Label.Render(padRight(fl.label, labelW)) + "  " + in.View())
		if fl.err != "" {
			// The whole message, wrapped under the field it is about.
			indent := min(labelW+4, max(width/3, 2))
			msg := ansi.Wrap("✗ "+ui.Sanitize(fl.err), max(width-indent, 10), " ")
			for _, part := range strings.Split(msg, "\n") {
				b.WriteString("\n" + strings.Repeat(" ", indent) + st.Text(theme.ToneDanger).Render(part))
			}
		}
	}
	b.WriteString("\n\n")
	switch {
	case f.busy:
		b.WriteString(st.Text(theme.ToneInfo).Render("sending… (esc cancels)"))
	case f.problem != "":
		b.WriteString(st.Text(theme.ToneDanger).Width(max(width, 10)).Render(ui.Sanitize(f.problem)))
	default:
		b.WriteString(st.Muted.Render("enter sends · tab next field · esc closes") + "\n" +
			st.Muted.Render("an empty field uses the default"))
	}
	return b.String()
}

// Which form the card screen shows.
type cardFormKind int

const (
	formNone cardFormKind = iota
	formPINStyle
	formViewPIN
	formDetails
)

// pinStyleSpecs are the seven set-PIN customCss fields with the interface's
// defaults as placeholders; values are what the user typed last.
func pinStyleSpecs(typed map[string]string) []ffSpec {
	return []ffSpec{
		{"backgroundColor", "Background", apiclient.DefaultPINBackgroundColor, typed["backgroundColor"]},
		{"textColor", "Text", apiclient.DefaultPINTextColor, typed["textColor"]},
		{"backgroundColorPrimary", "Primary background", apiclient.DefaultPINBackgroundColorPrimary, typed["backgroundColorPrimary"]},
		{"textColorPrimary", "Primary text", apiclient.DefaultPINTextColorPrimary, typed["textColorPrimary"]},
		{"buttonBorderRadius", "Button radius (px)", strconv.Itoa(apiclient.DefaultPINButtonBorderRadius), typed["buttonBorderRadius"]},
		{"pinBorderRadius", "PIN radius (px)", strconv.Itoa(apiclient.DefaultPINPinBorderRadius), typed["pinBorderRadius"]},
		{"pinBorderColor", "PIN border", "= primary background", typed["pinBorderColor"]},
	}
}

// pinStyleFromForm reads and checks the set-PIN style form: radii must be
// numbers, colours hex, text colours differ from their backgrounds.
func pinStyleFromForm(f *fieldsForm) (apiclient.SetPINStyle, []apiclient.FieldError) {
	s := apiclient.SetPINStyle{
		BackgroundColor:        f.value("backgroundColor"),
		TextColor:              f.value("textColor"),
		BackgroundColorPrimary: f.value("backgroundColorPrimary"),
		TextColorPrimary:       f.value("textColorPrimary"),
		PinBorderColor:         f.value("pinBorderColor"),
	}
	var errs []apiclient.FieldError
	for _, name := range []string{"buttonBorderRadius", "pinBorderRadius"} {
		v := f.value(name)
		if v == "" {
			continue
		}
		r, ok := apiclient.ParseRadius(v)
		if !ok {
			errs = append(errs, apiclient.FieldError{Field: "customCss." + name, Message: "must be a number of pixels from 0 to 999"})
			continue
		}
		if name == "buttonBorderRadius" {
			s.ButtonBorderRadius = &r
		} else {
			s.PinBorderRadius = &r
		}
	}
	return s, append(errs, s.Validate()...)
}

// viewPINSpecs are the view-PIN image's two optional colours.
func viewPINSpecs(s apiclient.PINImageStyle) []ffSpec {
	return []ffSpec{
		{"backgroundColor", "Background", "default", s.BackgroundColor},
		{"textColor", "Text", "default", s.TextColor},
	}
}

// detailsSpecs are the card-details image's four optional colours.
func detailsSpecs(s apiclient.CardDetailsStyle) []ffSpec {
	return []ffSpec{
		{"cardBackgroundColor", "Card background", "default", s.CardBackgroundColor},
		{"cardTextColor", "Card text", "default", s.CardTextColor},
		{"panBackgroundColor", "Number background", "default", s.PanBackgroundColor},
		{"panTextColor", "Number text", "default", s.PanTextColor},
	}
}

// ffTypedValues keeps what the user typed in a form, to refill it later.
func ffTypedValues(f *fieldsForm) map[string]string {
	out := map[string]string{}
	for _, fl := range f.fields {
		out[fl.key] = fl.input.Value()
	}
	return out
}
