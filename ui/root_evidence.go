package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// Evidence from a customer-approved session: ctrl+k on any of the
// customer's screens hands the support console what the agent sees (the
// selected record when the screen has one, else the whole screen) so that
// it keeps it in the open case with the request it came from. The
// console keeps it; the root only knows which screen is shown.

// KeepEvidenceMsg carries what the agent asked to keep.
type KeepEvidenceMsg struct {
	Screen ScreenID
	Title  string
	// RecordTitle and Record are the selected record (the inspector's
	// title and the gateway's text of it); Record is nil when the screen
	// has none selected.
	RecordTitle string
	Record      []byte
	// View is the screen's body as drawn, without styling.
	View string
	// Personal is the agent's answer, once asked, on keeping the
	// customer's personal data (Account's name, date of birth, phone,
	// address): the console asks, and the answer comes back in this
	// message.
	Personal PersonalChoice
}

// PersonalChoice is whether a customer's personal data may be kept.
type PersonalChoice int

const (
	// PersonalNotAsked: the console asks before keeping any.
	PersonalNotAsked PersonalChoice = iota
	// PersonalMasked: kept with the personal values masked.
	PersonalMasked
	// PersonalKept: the agent chose to keep them as shown.
	PersonalKept
)

// keepKey sends the active customer screen to the console on the keep
// key, while an approved session is shown; ok is false otherwise.
func (r *Root) keepKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if r.approved == nil || r.support == nil || !key.Matches(msg, r.keys.Keep) || r.dialogOpen() {
		return nil, false
	}
	s := r.Active()
	if s == nil {
		return nil, false
	}
	m := KeepEvidenceMsg{Screen: s.ID(), Title: s.Title(), View: ansi.Strip(s.View())}
	if in, ok := s.(Inspectable); ok {
		if title, raw, ok := in.Inspect(); ok {
			m.RecordTitle, m.Record = title, raw
		}
	}
	var cmd tea.Cmd
	r.support, cmd = r.support.Update(m)
	// What the console says about it is said on the screen kept.
	return stampNotices(cmd, s.ID()), true
}
