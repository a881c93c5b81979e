package form

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
	"cardterm/ui"
)

// FieldKind says how a form field takes text.
type FieldKind int

const (
	// FieldText is one line of text.
	FieldText FieldKind = iota
	// FieldSecret is one line drawn masked (passwords, keys).
	FieldSecret
	// FieldMultiline is a text area (JSON metadata); enter adds a line.
	FieldMultiline
	// FieldChoice is one of Field.Choices (a policy, a status), changed
	// with space and the arrows; a "" choice is shown as the placeholder.
	FieldChoice
	// FieldChecklist is several of Field.Choices, each ticked or not
	// with space (event types); drawn one line per value. Its Value is
	// the ticked values joined by commas (see Form.Ticked).
	FieldChecklist
)

// Field declares one form field.
type Field struct {
	// Key is the wire name ("backgroundColor"); a gateway's 422 naming it
	// is shown under this field.
	Key         string
	Label       string
	Placeholder string
	Value       string
	Kind        FieldKind
	// CharLimit bounds the text; 0 means 256 (64 KiB for multiline).
	CharLimit int
	// Choices are a FieldChoice's or FieldChecklist's values in order;
	// Value picks the choice shown first (the first when Value is not
	// among them), or the ticked values, comma-separated.
	Choices []string
	// Notes are muted words drawn after a checklist value ("sandbox only").
	Notes map[string]string
	// Check validates the trimmed value before the form submits; it returns
	// the message to show under the field, or "".
	Check func(value string) string
	// Lines is a FieldMultiline's height; 0 means 4.
	Lines int
	// Group names the fields that belong together ("Entry 2"): a heading
	// is drawn above the first of them, marked ✗ while one is wrong.
	Group string
}

// Spec declares a form: a title, lines that say what will be sent, the
// fields and the submit label shown in the help ("send", "save").
type Spec struct {
	Title  string
	Lines  []string
	Submit string
	Fields []Field
	// Note is shown under the fields while nothing went wrong (e.g. "an
	// empty field uses the default").
	Note string
}

// FieldError is a message about one field; Field may carry a prefix such
// as "customCss." or "wallets[1]." which is matched by its last part.
type FieldError struct {
	Field, Message string
}

// Event is what an update did to the form.
type Event int

const (
	Nothing Event = iota
	// Submit: every field passed its check; read the values and send.
	Submit
	// Cancel: esc; the screen closes the form.
	Cancel
)

// KeyMap is the form's bindings, the same on every screen: ctrl+s
// sends from any field, enter sends from the last one-line field and
// otherwise moves on, esc leaves.
type KeyMap struct {
	Next, Prev, Submit, SubmitLast, Cancel key.Binding
	// ChoiceNext and ChoicePrev change a FieldChoice; enabled only while
	// one has focus.
	ChoiceNext, ChoicePrev key.Binding
	// Tick ticks or unticks a checklist's value; enabled only while a
	// checklist has focus.
	Tick key.Binding
}

// Form is the one form every screen uses: labelled fields, a message under
// each field, the gateway's problem under the form, and what was typed kept
// whatever happens.
type Form struct {
	spec    Spec
	st      *theme.Styles
	fields  []formField
	focus   int
	problem string
	busy    bool
	keys    KeyMap
	width   int
	height  int // 0: as tall as the fields need
}

type formField struct {
	spec   Field
	input  textinput.Model
	area   textarea.Model
	choice int // FieldChoice: the index in spec.Choices; FieldChecklist: the value in focus
	ticked []bool
	err    string
}

// New builds a form; call Focus to put the cursor in the first field.
func New(st *theme.Styles, spec Spec) *Form {
	f := &Form{spec: spec, st: st, width: 60}
	if f.spec.Submit == "" {
		f.spec.Submit = "send"
	}
	for _, fs := range spec.Fields {
		field := formField{spec: fs}
		switch fs.Kind {
		case FieldMultiline:
			field.area = textarea.New()
			field.area.ShowLineNumbers = false
			field.area.Prompt = ""
			field.area.Placeholder = fs.Placeholder
			field.area.CharLimit = orDefault(fs.CharLimit, 64<<10)
			field.area.SetHeight(orDefault(fs.Lines, 4))
			field.area.SetValue(fs.Value)
		case FieldChoice:
			field.choice = max(slices.Index(fs.Choices, fs.Value), 0)
		case FieldChecklist:
			field.ticked = make([]bool, len(fs.Choices))
			field.setTicked(fs.Value)
		default:
			in := textinput.New()
			in.Prompt = ""
			in.Placeholder = fs.Placeholder
			in.CharLimit = orDefault(fs.CharLimit, 256)
			if fs.Kind == FieldSecret {
				in.EchoMode = textinput.EchoPassword
				in.EchoCharacter = '•'
			}
			in.SetValue(fs.Value)
			field.input = in
		}
		f.fields = append(f.fields, field)
	}
	f.Restyle(st)
	f.keys = KeyMap{
		Next:       key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab/↓", "next field")),
		Prev:       key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab/↑", "previous field")),
		Submit:     key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", f.spec.Submit)),
		SubmitLast: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "next field")),
		Cancel:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
		ChoiceNext: key.NewBinding(key.WithKeys("space", "right"), key.WithHelp("space/→", "next choice")),
		ChoicePrev: key.NewBinding(key.WithKeys("left"), key.WithHelp("←", "previous choice")),
		Tick:       key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "tick/untick")),
	}
	f.syncKeys()
	return f
}

func orDefault(n, d int) int {
	if n > 0 {
		return n
	}
	return d
}

// Restyle applies the theme's input styles (on start and when the terminal
// background is learnt).
func (f *Form) Restyle(st *theme.Styles) {
	f.st = st
	for i := range f.fields {
		switch f.fields[i].spec.Kind {
		case FieldMultiline:
			f.fields[i].area.SetStyles(ui.AreaStyles(st))
		case FieldChoice, FieldChecklist:
			// drawn with the theme's styles directly
		default:
			f.fields[i].input.SetStyles(ui.InputStyles(st))
		}
	}
}

// Update handles a message. Keys other than the form's own edit the focused
// field; other messages (cursor blinks, pastes) go to it too. While busy
// only esc is taken.
func (f *Form) Update(msg tea.Msg) (Event, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, f.keys.Cancel):
			return Cancel, nil
		case f.busy:
			return Nothing, nil
		case key.Matches(k, f.keys.Submit):
			return f.submit()
		case key.Matches(k, f.keys.SubmitLast):
			if f.focus == f.lastLine() || f.focus == noFocus {
				return f.submit()
			}
			return Nothing, f.setFocusFrom(f.focus+1, 1)
		case key.Matches(k, f.keys.Next):
			if f.stepFocused(1) {
				return Nothing, nil
			}
			return Nothing, f.setFocusFrom(f.focus+1, 1)
		case key.Matches(k, f.keys.Prev):
			if f.stepFocused(-1) {
				return Nothing, nil
			}
			if f.focus == noFocus {
				return Nothing, f.setFocusFrom(len(f.fields)-1, -1)
			}
			return Nothing, f.setFocusFrom(f.focus-1, -1)
		case key.Matches(k, f.keys.Tick):
			f.editFocused(func(fl *formField) tea.Cmd { fl.tick(); return nil })
			return Nothing, nil
		case key.Matches(k, f.keys.ChoiceNext):
			f.editFocused(func(fl *formField) tea.Cmd { fl.cycle(1); return nil })
			return Nothing, nil
		case key.Matches(k, f.keys.ChoicePrev):
			f.editFocused(func(fl *formField) tea.Cmd { fl.cycle(-1); return nil })
			return Nothing, nil
		}
	}
	fl := f.focused()
	if _, isPaste := msg.(tea.PasteMsg); isPaste && fl == nil && !f.busy && len(f.fields) > 0 {
		return Nothing, ui.Notify(theme.ToneInfo, "no field is chosen (tab chooses one): nothing pasted")
	}
	if fl == nil || f.busy {
		return Nothing, nil // no field chosen: a printable key types nowhere
	}
	if p, ok := msg.(tea.PasteMsg); ok {
		return Nothing, f.editFocused(func(*formField) tea.Cmd { return f.paste(p.Content) })
	}
	return Nothing, f.editFocused(func(fl *formField) (cmd tea.Cmd) {
		switch fl.spec.Kind {
		case FieldChoice, FieldChecklist:
			// A choice takes no text: other keys do nothing.
		case FieldMultiline:
			fl.area, cmd = fl.area.Update(msg)
		default:
			fl.input, cmd = fl.input.Update(msg)
		}
		return cmd
	})
}

// editFocused runs edit on the field in focus; when its value changes, the
// message under it goes: it was about what the field held (a refused
// amount, the gateway's word on an address), and left there it would
// still refuse what was typed since.
func (f *Form) editFocused(edit func(fl *formField) tea.Cmd) tea.Cmd {
	fl := &f.fields[f.focus]
	before := fl.text()
	cmd := edit(fl)
	if fl.text() != before {
		fl.err = ""
	}
	return cmd
}

// Value is the trimmed text of the field with that key.
func (f *Form) Value(k string) string {
	for _, fl := range f.fields {
		if fl.spec.Key == k {
			return strings.TrimSpace(fl.text())
		}
	}
	return ""
}

// Typed is every field's text as typed, to refill the form later.
func (f *Form) Typed() map[string]string {
	out := make(map[string]string, len(f.fields))
	for _, fl := range f.fields {
		out[fl.spec.Key] = fl.text()
	}
	return out
}

func (fl formField) text() string {
	switch fl.spec.Kind {
	case FieldChoice:
		if fl.choice < len(fl.spec.Choices) {
			return fl.spec.Choices[fl.choice]
		}
		return ""
	case FieldChecklist:
		return strings.Join(fl.tickedValues(), ",")
	case FieldMultiline:
		return fl.area.Value()
	}
	return fl.input.Value()
}

// SetBusy marks the form as sending: keys but esc are ignored, so a double
// press cannot send twice.
func (f *Form) SetBusy(busy bool) { f.busy = busy }

// Busy reports whether the form is sending.
func (f *Form) Busy() bool { return f.busy }

// KeyMap is the form's bindings for the footer and help.
func (f *Form) KeyMap() help.KeyMap { return f.keys }

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.SubmitLast, k.Submit, k.Next, k.ChoiceNext, k.Tick, k.Cancel}
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.SubmitLast, k.Submit, k.Cancel}, {k.Next, k.Prev}, {k.ChoiceNext, k.ChoicePrev, k.Tick}}
}
