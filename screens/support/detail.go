package support

import (
	"cardterm/ui/keymap"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/screens/screenkit"
	"cardterm/ui"
)

// The consent detail (d on a case): every field of the selected row's
// consent and of its set, the ids whole where the table shortens them,
// and who recorded the consent. i shows the gateway's JSON; esc closes.

// detailLayer is the open consent detail, a layer over the case.
type detailLayer struct {
	caseLayer
	row  caseRow
	keys detailKeys
}

type detailKeys struct{ Back key.Binding }

func (k detailKeys) ShortHelp() []key.Binding  { return []key.Binding{k.Back} }
func (k detailKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

var _ ui.Inspectable = (*detailLayer)(nil)

// openDetail opens the selected row's detail.
func (s *Screen) openDetail() tea.Cmd {
	row, ok := s.selected()
	if !ok {
		return notify("no consent selected")
	}
	return ui.OpenLayer(&detailLayer{caseLayer: s.newCaseLayer(), row: row, keys: detailKeys{
		Back: keymap.Bind("support.back"),
	}})
}

// Update implements layer.Layer.
func (l *detailLayer) Update(msg tea.Msg) tea.Cmd {
	if press, ok := msg.(tea.KeyPressMsg); ok && key.Matches(press, l.keys.Back) {
		l.closed = true
	}
	return nil
}

// View implements layer.Layer.
func (l *detailLayer) View() string {
	st := l.s.Deps.Styles
	title := "Consent set"
	if l.row.consent.ConsentID != "" {
		title = "Consent " + l.row.consent.ConsentType
	}
	body := st.Title.Render(title) + "\n\n" + screenkit.RenderFields(st, l.fields(), l.width)
	return screenkit.Place(body, l.width, l.height)
}

// fields are the set's, then the consent's (a user's case).
func (l *detailLayer) fields() []screenkit.Field {
	set, consent := l.row.set, l.row.consent
	user := "waiting to be linked"
	if set.Linked() {
		user = *set.UserID
	}
	completed := "not completed"
	if set.CompletedAt != nil {
		completed = screenkit.FormatTime(*set.CompletedAt)
	}
	fields := []screenkit.Field{
		{Label: "Set", Value: set.ConsentSetID}, {Label: "Policy", Value: set.PolicyType},
		{Label: "Onboarding", Value: set.OnboardingID}, {Label: "User", Value: user},
		{Label: "Created", Value: screenkit.FormatTime(set.CreatedAt)}, {Label: "Completed", Value: completed},
	}
	if consent.ConsentID == "" {
		return fields
	}
	recorded := "not recorded"
	if consent.Metadata != nil {
		recorded = madeBy(*consent.Metadata)
	}
	return append(fields,
		screenkit.Field{Label: "Consent", Value: consent.ConsentID}, screenkit.Field{Label: "Type", Value: consent.ConsentType},
		screenkit.Field{Label: "Status", Value: consent.ConsentStatus},
		screenkit.Field{Label: "Updated", Value: screenkit.FormatTime(consent.UpdatedAt)},
		screenkit.Field{Label: "Recorded by", Value: recorded})
}

// KeyMap implements layer.Layer.
func (l *detailLayer) KeyMap() help.KeyMap { return l.keys }

// Inspect implements ui.Inspectable: the consent's JSON, else the set's.
func (l *detailLayer) Inspect() (string, []byte, bool) {
	if l.row.consent.ConsentID != "" {
		return screenkit.Inspected("Consent "+l.row.consent.ConsentID, l.row.consent.Raw)
	}
	return screenkit.Inspected("Consent set "+l.row.set.ConsentSetID, l.row.set.Raw)
}
