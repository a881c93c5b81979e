package support

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/layer"
)

// The console's forms, case panel, runbook picker, timeline, audit trail
// and approval panel are layers on the root's stack (ui.OpenLayer): the
// console keeps no field for any of them. Each belongs to the case it
// was opened on: when the case closes (clearCase moves caseSeq on) it
// reports Done and the stack drops it.

// caseLayer is what every console layer shares: the console, the case
// it belongs to, its size, and whether it closed itself.
type caseLayer struct {
	s             *Screen
	seq           int
	width, height int
	closed        bool
}

func (s *Screen) newCaseLayer() caseLayer { return caseLayer{s: s, seq: s.caseSeq} }

// Done implements layer.Layer: closed, or its case is gone.
func (l *caseLayer) Done() bool { return l.closed || l.seq != l.s.caseSeq }

// SetSize implements layer.Layer.
func (l *caseLayer) SetSize(width, height int) { l.width, l.height = width, height }

// formLayer is an open form and what its answer is for.
type formLayer struct {
	caseLayer
	form    *form.Form
	purpose formPurpose
	// editing is the note an edit form is for.
	editing int
}

var _ layer.Typist = (*formLayer)(nil)

// openForm opens a form for purpose over the console, sized and focused.
func (s *Screen) openForm(purpose formPurpose, f *form.Form) tea.Cmd {
	return s.openFormLayer(&formLayer{caseLayer: s.newCaseLayer(), form: f, purpose: purpose})
}

func (s *Screen) openFormLayer(l *formLayer) tea.Cmd {
	l.form.SetWidth(min(s.Width, 72))
	return ui.OpenLayer(l, l.form.Focus())
}

// Update implements layer.Layer: keys and pastes to the form, a click
// focuses the field drawn there.
func (l *formLayer) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return l.s.formKey(l, msg)
	case ui.BodyMouseMsg:
		return screenkit.ClickForm(l.form, l.s.formTop(), msg)
	}
	return screenkit.ToForm(l.form, msg)
}

// SetSize implements layer.Layer: forms take the width and grow down.
func (l *formLayer) SetSize(width, height int) {
	l.caseLayer.SetSize(width, height)
	l.form.SetWidth(min(width, 72))
}

// View implements layer.Layer: the form under the console's title.
func (l *formLayer) View() string {
	body := l.s.Deps.Styles.Title.Render("Support console") + "\n\n" + l.form.View()
	return screenkit.Place(body, l.width, l.height)
}

// KeyMap implements layer.Layer.
func (l *formLayer) KeyMap() help.KeyMap { return l.form.KeyMap() }

// CapturesKeys implements layer.Typist: the inputs take every key.
func (l *formLayer) CapturesKeys() bool { return true }

// TypingPlain implements ui.PlainTyping: the secret key's field is not.
func (l *formLayer) TypingPlain() bool { return l.form.TypingPlain() }

// panelLayer is the case panel (N).
type panelLayer struct {
	caseLayer
	panel *casePanel
}

// Update implements layer.Layer.
func (l *panelLayer) Update(msg tea.Msg) tea.Cmd {
	if press, ok := msg.(tea.KeyPressMsg); ok {
		return l.s.panelKey(l, press)
	}
	return nil
}

// View implements layer.Layer.
func (l *panelLayer) View() string {
	return screenkit.Place(l.s.panelView(l.panel), l.width, l.height)
}

// KeyMap implements layer.Layer.
func (l *panelLayer) KeyMap() help.KeyMap { return l.panel.keys }

// pickerLayer is the runbook picker (B).
type pickerLayer struct {
	caseLayer
	picker *runbookPicker
}

// Update implements layer.Layer.
func (l *pickerLayer) Update(msg tea.Msg) tea.Cmd {
	if press, ok := msg.(tea.KeyPressMsg); ok {
		return l.s.runbookKey(l, press)
	}
	return nil
}

// View implements layer.Layer.
func (l *pickerLayer) View() string {
	return screenkit.Place(l.s.runbooksView(l.picker), l.width, l.height)
}

// KeyMap implements layer.Layer.
func (l *pickerLayer) KeyMap() help.KeyMap { return l.picker.keys }

// timelineLayer is the customer's timeline (t).
type timelineLayer struct {
	caseLayer
	timeline *timelineView
}

// Update implements layer.Layer: its keys, r reads it again, and the
// audit trail's answer fills it.
func (l *timelineLayer) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return l.s.timelineKey(l, msg)
	case ui.RefreshMsg:
		return l.s.readTimeline(l.timeline)
	case ui.Result[timelineRead]:
		return l.s.gotTimeline(l.timeline, msg)
	}
	return nil
}

// SetSize implements layer.Layer.
func (l *timelineLayer) SetSize(width, height int) {
	l.caseLayer.SetSize(width, height)
	l.timeline.table.SetSize(width, l.s.timelineTableHeight(height))
}

// View implements layer.Layer.
func (l *timelineLayer) View() string {
	return screenkit.Place(l.s.timelineView(l.timeline), l.width, l.height)
}

// KeyMap implements layer.Layer.
func (l *timelineLayer) KeyMap() help.KeyMap { return l.timeline.keys }

// auditLayer is the consent audit trail (a).
type auditLayer struct {
	caseLayer
	audit *auditView
}

var _ ui.Inspectable = (*auditLayer)(nil)

// Update implements layer.Layer: keep, export and copy act on the case;
// the rest, and the trail's pages, go to the view, which esc closes.
func (l *auditLayer) Update(msg tea.Msg) tea.Cmd {
	s := l.s
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if !l.audit.CapturesKeys() {
			switch {
			case key.Matches(msg, s.keys.Keep):
				return s.keepAudit(l.audit)
			case key.Matches(msg, s.keys.Export):
				return s.export(false)
			case key.Matches(msg, s.keys.ExportFull):
				return s.export(true)
			case key.Matches(msg, s.keys.Copy):
				return s.copyMarkdown()
			}
		}
	case ui.BodyMouseMsg:
		if top, ok := screenkit.LinesAbove(l.audit.View(), l.audit.table.View()); ok {
			screenkit.ClickTable(&l.audit.table, top, msg)
		}
		return nil
	case ui.RefreshMsg:
		return l.audit.start()
	}
	view, cmd := l.audit.update(msg)
	l.closed = view == nil
	return cmd
}

// SetSize implements layer.Layer.
func (l *auditLayer) SetSize(width, height int) {
	l.caseLayer.SetSize(width, height)
	l.audit.SetSize(width, height)
}

// View implements layer.Layer.
func (l *auditLayer) View() string { return screenkit.Place(l.audit.View(), l.width, l.height) }

// KeyMap implements layer.Layer.
func (l *auditLayer) KeyMap() help.KeyMap { return auditKeysWithKeep{l.audit.KeyMap(), l.s.keys.Keep} }

// CapturesKeys implements layer.Typist: the table's filter.
func (l *auditLayer) CapturesKeys() bool { return l.audit.CapturesKeys() }

// Inspect implements ui.Inspectable: the selected audit record.
func (l *auditLayer) Inspect() (string, []byte, bool) {
	if r, ok := l.audit.selected(); ok {
		return screenkit.Inspected("Audit record "+r.AuditID, r.Raw)
	}
	return "", nil, false
}

// openAudit opens the user's audit trail and reads it.
func (s *Screen) openAudit(client *apiclient.Client) tea.Cmd {
	l := &auditLayer{caseLayer: s.newCaseLayer(), audit: newAuditView(s.Deps, s.Requests, client, s.kase.id)}
	l.SetSize(s.Width, s.Height)
	return ui.OpenLayer(l, l.audit.start())
}

// approvalLayer is the customer's sign-in panel of an approved session
// (ctrl+o); the session itself is the console's (s.approval) and stays
// once the panel is done.
type approvalLayer struct {
	caseLayer
	session *approval
}

var _ layer.Typist = (*approvalLayer)(nil)

// Done implements layer.Layer: the session opened, or ended.
func (l *approvalLayer) Done() bool {
	return l.caseLayer.Done() || l.s.approval != l.session || l.session.open
}

// Update implements layer.Layer.
func (l *approvalLayer) Update(msg tea.Msg) tea.Cmd {
	if press, ok := msg.(tea.KeyPressMsg); ok {
		return l.s.approvalKey(press)
	}
	return nil
}

// View implements layer.Layer.
func (l *approvalLayer) View() string {
	return screenkit.Place(l.s.approvalView(), l.width, l.height)
}

// KeyMap implements layer.Layer.
func (l *approvalLayer) KeyMap() help.KeyMap { return l.session.keys }

// CapturesKeys implements layer.Typist: the code's field takes every key.
func (l *approvalLayer) CapturesKeys() bool { return true }

// TypingPlain implements ui.PlainTyping: the customer's code is not plain.
func (l *approvalLayer) TypingPlain() bool { return false }
