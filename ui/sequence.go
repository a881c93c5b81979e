package ui

import (
	"reflect"

	tea "charm.land/bubbletea/v2"
)

// commandsType is the type under tea's unexported sequenceMsg. (A
// function: a package value is computed before main on every start.)
func commandsType() reflect.Type { return reflect.TypeFor[[]tea.Cmd]() }

// SequenceCommands reports whether msg is what tea.Sequence's command
// returns and, if so, the commands to run in order. tea.Program expands it
// itself; whatever else runs commands (the accessible mode's runtime, the
// test drivers in ui/uitest) must too, and its type is unexported, a
// []tea.Cmd underneath: this is the one place it is reached, by reflection.
// A tea.BatchMsg, exported and also a []tea.Cmd, is not a sequence.
func SequenceCommands(msg tea.Msg) ([]tea.Cmd, bool) {
	if msg == nil {
		return nil, false
	}
	if _, batch := msg.(tea.BatchMsg); batch {
		return nil, false
	}
	v := reflect.ValueOf(msg)
	if v.Kind() != reflect.Slice || !v.Type().ConvertibleTo(commandsType()) {
		return nil, false
	}
	return v.Convert(commandsType()).Interface().([]tea.Cmd), true
}
