package ui

import (
	"strings"
	"testing"

	"cardterm/domain/recordcommand"
	"cardterm/theme"
	"github.com/charmbracelet/x/ansi"
)

// nounedScreen is a screen that names its records.
type nounedScreen struct {
	Screen
	noun string
}

func (s nounedScreen) RecordNoun() string { return s.noun }

// The chooser's title calls the record what its screen calls it, in the
// singular; a screen that says nothing has "<its ID> record".
func TestCommandChooserTitleNamesTheRecord(t *testing.T) {
	st := theme.New(true, false)
	commands := []recordcommand.Command{{Name: "first"}, {Name: "second"}}
	for _, tc := range []struct {
		screen Screen
		kind   string
		title  string
	}{
		{nounedScreen{noun: "transaction"}, "transactions", "Run on this transaction"},
		{nounedScreen{noun: "consent set"}, "consent", "Run on this consent set"},
		{nounedScreen{}, "support", "Run on this support record"},
		{nil, "support", "Run on this support record"},
	} {
		chooser := newCommandChooser(&st, recordNoun(tc.screen, tc.kind), commands, nil)
		chooser.SetSize(100, 30)
		view := ansi.Strip(chooser.View())
		if !strings.Contains(view, tc.title+" ") || strings.Contains(view, tc.title+"s") {
			t.Errorf("%s: the chooser's title is not %q:\n%s", tc.kind, tc.title, view)
		}
	}
}
