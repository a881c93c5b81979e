package ui_test

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"cardterm/ui"
)

// SequenceCommands finds tea.Sequence's commands in order (a bubbletea
// upgrade that changes the message's shape fails here, not in a driver
// that silently drops a sequence) and nothing in any other message.
func TestSequenceCommands(t *testing.T) {
	first := func() tea.Msg { return "first" }
	second := func() tea.Msg { return "second" }
	cmds, ok := ui.SequenceCommands(tea.Sequence(first, second)())
	if !ok || len(cmds) != 2 || cmds[0]() != "first" || cmds[1]() != "second" {
		t.Fatalf("tea.Sequence: %d commands, %v", len(cmds), ok)
	}
	for name, msg := range map[string]tea.Msg{
		"nil":            nil,
		"a batch":        tea.Batch(first, second)(),
		"a string":       "first",
		"a slice of any": []any{first},
	} {
		if _, ok := ui.SequenceCommands(msg); ok {
			t.Errorf("%s counts as a sequence", name)
		}
	}
}
