package ui

import (
	"reflect"
	"slices"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/domain/lazy"
	"cardterm/ui/layer"
)

// Everything modal is a layer on the root's one stack (ui/layer): the
// dialog, the help, the notices log, the inspector, the profile switcher,
// the go-to prompt, and every screen's forms, panels and views. The
// order of priority is layer.Rank's; the top layer over the active
// screen gets its keys, clicks and pastes.

// OpenLayerMsg asks the root to open a screen's layer over it. Screens
// return it through OpenLayer; the root fills in Owner.
type OpenLayerMsg struct {
	Layer layer.Layer
	// Owner is the screen the layer shows over; it hides while another
	// screen is shown and closes with the screen's session.
	Owner ScreenID
	// Then runs once the layer is open (its field's focus, its first
	// request).
	Then tea.Cmd
}

// OpenLayer asks the root to open l over the screen that returns it
// (layer.Panel rank): a form, a panel, a detail or a chooser; then runs
// once it is open. Returned as the command itself (not inside a
// tea.Batch), the layer opens before the next key is read, so what is
// typed right after the key that opens a form goes into the form.
func OpenLayer(l layer.Layer, then ...tea.Cmd) tea.Cmd {
	return layerOpening{layer: l, then: then}.message
}

// layerOpening is an OpenLayer command: a method value, whose code the
// root knows (openLayerCode), as IsTimer knows a timer's.
type layerOpening struct {
	layer layer.Layer
	then  []tea.Cmd
}

func (o layerOpening) message() tea.Msg {
	return OpenLayerMsg{Layer: o.layer, Then: tea.Batch(o.then...)}
}

// openLayerCode is layerOpening.message's code, read at first use: the
// method value it is read from is allocated.
var openLayerCode = lazy.Value[uintptr]{New: func() uintptr {
	return reflect.ValueOf(layerOpening{}.message).Pointer()
}}

// openLayerNow opens at once the layer cmd asks for over owner's screen
// when cmd is an OpenLayer command, and returns what runs then; any other
// command is returned as it is. Running it only builds a message.
func (r *Root) openLayerNow(cmd tea.Cmd, owner ScreenID) tea.Cmd {
	if cmd == nil || reflect.ValueOf(cmd).Pointer() != openLayerCode.Get() {
		return cmd
	}
	msg := cmd().(OpenLayerMsg)
	msg.Owner = owner
	return r.openScreenLayer(msg)
}

// owner is whose layers show now: the active screen's.
func (r *Root) owner() string {
	if s := r.Active(); s != nil {
		return string(s.ID())
	}
	return ""
}

// topLayer is the layer over the active screen that gets input now.
func (r *Root) topLayer() (layer.Layer, layer.Rank, bool) { return r.layers.Top(r.owner()) }

// topRank is the top layer's rank, or -1 when none is open.
func (r *Root) topRank() int {
	if _, rank, ok := r.topLayer(); ok {
		return int(rank)
	}
	return -1
}

// openRootLayer opens one of the root's own layers, shown over every screen.
func (r *Root) openRootLayer(l layer.Layer, rank layer.Rank) {
	bw, bh := r.bodySize()
	r.layers.SetSize(bw, bh)
	r.layers.Push(l, rank, "")
}

// closeRootLayers closes the root's own layers of the given ranks (all
// of them when none is given).
func (r *Root) closeRootLayers(ranks ...layer.Rank) {
	r.layers.Close(func(_ layer.Layer, rank layer.Rank, owner string) bool {
		if owner != "" {
			return false
		}
		return len(ranks) == 0 || slices.Contains(ranks, rank)
	})
}

// topDialog is the confirmation on top, if the top layer is one.
func (r *Root) topDialog() *dialog {
	if top, _, ok := r.topLayer(); ok {
		if d, ok := top.(*dialog); ok {
			return d
		}
	}
	return nil
}

// dialogOpen reports whether a confirmation is open over the active screen.
func (r *Root) dialogOpen() bool {
	_, ok := layer.Find[*dialog](&r.layers, r.owner())
	return ok
}

// sheetShown is the help or the notices log when it is on top.
func (r *Root) sheetShown() (*sheet, bool) {
	top, _, ok := r.topLayer()
	if !ok {
		return nil, false
	}
	s, ok := top.(*sheet)
	return s, ok
}

// toggleSheet opens the help or the notices log, or closes it when it is
// on top; either one replaces the other.
func (r *Root) toggleSheet(kind sheetKind) {
	shown, ok := r.sheetShown()
	r.closeRootLayers(layer.Sheet)
	if ok && shown.kind == kind {
		return
	}
	r.openRootLayer(newSheet(r, kind), layer.Sheet)
}

// sheetKind says which sheet: the help or the notices log.
type sheetKind uint8

const (
	helpSheet sheetKind = iota
	logSheet
)

// sheet is the help (?) or the notices log (m), drawn over the whole
// body; its own key, esc closes it and q quits.
type sheet struct {
	r             *Root
	kind          sheetKind
	keys          sheetKeys
	width, height int
	// offset is how far the wheel scrolled the help.
	offset int
	done   bool
}

// sheetKeys are an open sheet's bindings. The scrolling ones are enabled
// only while the help has more to show that way, so the footer offers
// them exactly when a short terminal hides part of the help.
type sheetKeys struct {
	Close, Quit                key.Binding
	Down, Up, PageDown, PageUp key.Binding
}

// newSheet opens the help or the notice log. Either closes with esc or
// with the keys in force that open the help or the log, so a keys file
// that moves them moves what closes them too.
func newSheet(r *Root, kind sheetKind) *sheet {
	opens, other, what := r.keys.Help, r.keys.Notices, "close help"
	if kind == logSheet {
		opens, other, what = r.keys.Notices, r.keys.Help, "close notices"
	}
	closeKey := key.NewBinding(key.WithKeys(slices.Concat(opens.Keys(), []string{"esc"}, other.Keys())...),
		key.WithHelp(opens.Help().Key+"/esc", what))
	scroll := NewScrollKeys()
	scroll.Down.SetHelp(scroll.Down.Help().Key, "more")
	scroll.Up.SetHelp(scroll.Up.Help().Key, "back")
	keys := sheetKeys{Close: closeKey, Quit: r.keys.Quit,
		Down: scroll.Down, Up: scroll.Up, PageDown: scroll.PageDown, PageUp: scroll.PageUp}
	// Off until the sheet is drawn and knows whether it overflows.
	for _, b := range []*key.Binding{&keys.Down, &keys.Up, &keys.PageDown, &keys.PageUp} {
		b.SetEnabled(false)
	}
	return &sheet{r: r, kind: kind, keys: keys}
}

// ShortHelp implements help.KeyMap.
func (k sheetKeys) ShortHelp() []key.Binding { return []key.Binding{k.Close, k.Down, k.Up} }

// FullHelp implements help.KeyMap.
func (k sheetKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Close, k.Quit}, {k.Down, k.Up, k.PageDown, k.PageUp}}
}

// Update implements layer.Layer.
func (s *sheet) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, s.keys.Close):
			s.done = true
		case key.Matches(msg, s.keys.Quit):
			return tea.Quit
		case key.Matches(msg, s.keys.Down):
			s.scroll(1)
		case key.Matches(msg, s.keys.Up):
			s.scroll(-1)
		case key.Matches(msg, s.keys.PageDown):
			s.scroll(max(s.height-1, 1))
		case key.Matches(msg, s.keys.PageUp):
			s.scroll(-max(s.height-1, 1))
		}
	case BodyMouseMsg:
		if s.kind == helpSheet {
			s.scroll(msg.Wheel * wheelLines)
		}
	}
	return nil
}

// SetSize implements layer.Layer.
func (s *sheet) SetSize(width, height int) {
	s.width, s.height = width, height
	if s.kind == helpSheet {
		s.scroll(0)
	}
}

// View implements layer.Layer.
func (s *sheet) View() string {
	if s.kind == logSheet {
		return s.r.renderNoticeLog(s.width, s.height)
	}
	return s.r.renderHelp(s.width, s.height, s.offset)
}

// KeyMap implements layer.Layer.
func (s *sheet) KeyMap() help.KeyMap { return s.keys }

// Done implements layer.Layer.
func (s *sheet) Done() bool { return s.done }

// TopLayer is the layer that gets input over the active screen now, for
// tests that check what is open (a form's field, a panel).
func (r *Root) TopLayer() (layer.Layer, bool) {
	top, _, ok := r.topLayer()
	return top, ok
}

// TopLayerOf is the top layer over the screen id, shown or not.
func (r *Root) TopLayerOf(id ScreenID) (layer.Layer, bool) {
	top, _, ok := r.layers.Top(string(id))
	return top, ok
}
