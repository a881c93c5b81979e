package consent

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/sanitize"
)

// linkForm links one consent set to a user id, a ui.SubView: the set's
// fields above a one-field form. Linking cannot be undone; a second link
// is refused (409) and said so on the form.
type linkForm struct {
	screenkit.FormPanel
	st     *theme.Styles
	set    apiclient.ConsentSet
	submit func(form *linkForm, userID string) tea.Cmd
	width  int
	// conflict: the gateway answered 409, the set is linked already.
	conflict bool
}

// openLink opens the link form for the selected (or open) set.
func (s *Screen) openLink() tea.Cmd {
	set, ok := s.selectedSet()
	if !ok {
		return ui.Notify(theme.ToneInfo, "no consent set selected (b looks up an onboarding)")
	}
	if cmd := s.needSecret(); cmd != nil {
		return cmd
	}
	form := &linkForm{st: s.Deps.Styles, set: set, submit: s.askLink, FormPanel: screenkit.FormPanel{Requests: s.Requests,
		Form: form.New(s.Deps.Styles, form.Spec{
			// No request line here: the confirmation shows the exact one.
			Title:  "The user to link it to",
			Submit: "review and link",
			Note:   "Linking is recorded in the audit trail and cannot be undone.",
			Fields: []form.Field{{Key: "userId", Label: "userId", CharLimit: 128,
				Placeholder: "user id to link to (e.g. a UUID)", Check: checkUserID}},
		})}}
	s.showForm(form)
	return form.Form.Focus()
}

// checkUserID is the link form's check: a user id, without spaces.
func checkUserID(value string) string {
	switch {
	case value == "":
		return "a user id is required"
	case strings.ContainsAny(value, " \t"):
		return "a user id has no spaces"
	}
	return ""
}

// secretHeaders says which credentials the consent changes send, after
// the request a confirmation shows.
const secretHeaders = "headers: x-client-key, x-secret-key"

// askLink confirms the link with the exact request.
func (s *Screen) askLink(form *linkForm, userID string) tea.Cmd {
	client, setID := s.Deps.Client, form.set.ConsentSetID
	return s.ask(form, ui.ChangeSpec[changed]{
		Title:        "Link this consent set to " + userID + "?",
		Request:      append(apiclient.LinkConsentSetCall(setID, userID).Lines(), secretHeaders),
		Lines:        []string{"Linking is recorded in the audit trail and cannot be undone."},
		ConfirmLabel: "link",
		Tone:         theme.ToneWarn,
		What:         "linking the consent set",
		Run: func(ctx context.Context) (changed, error) {
			if _, err := client.LinkConsentSet(ctx, setID, userID); err != nil {
				return changed{}, err
			}
			d := reread(ctx, client, setID)
			d.notice = "linked · consent status " + d.status + " · set " + shortID(setID) + " → user " + userID
			return d, nil
		},
	})
}

// Update implements ui.SubView: a submit asks for confirmation; esc while
// the link is on its way cancels it, else closes.
func (v *linkForm) Update(msg tea.Msg) (ui.SubView, tea.Cmd) {
	event, closed, cmd := v.HandleForm(msg)
	switch {
	case closed:
		return nil, nil
	case event == form.Submit:
		return v, v.submit(v, v.Form.Value("userId"))
	}
	return v, cmd
}

// refused implements changeForm: a 409 means the set is linked already,
// for good.
func (v *linkForm) refused(err error) tea.Cmd {
	v.conflict = apiclient.IsStatus(err, 409)
	return formRefused(v.Form, "linking the consent set", err)
}

// SetSize implements ui.SubView: the set's fields take the width too.
func (v *linkForm) SetSize(width, height int) { v.width = width; v.FormPanel.SetSize(width, height) }

// View implements ui.SubView: the set, then the form.
func (v *linkForm) View() string {
	st, set := v.st, v.set
	fields := []screenkit.Field{{Label: "consent set", Value: set.ConsentSetID}, {Label: "onboarding", Value: set.OnboardingID},
		{Label: "policy", Value: set.PolicyType}}
	if set.Linked() {
		fields = append(fields, screenkit.Field{Label: "linked to", Styled: st.Text(theme.ToneWarn).Render(sanitize.Text(*set.UserID) +
			" already: the gateway will refuse (409)")})
	} else {
		fields = append(fields, screenkit.Field{Label: "linked to", Styled: st.Muted.Render("nobody yet")})
	}
	head := st.Title.Render("Link a consent set to a user") + "\n\n" + screenkit.RenderFields(st, fields, v.width)
	if v.conflict {
		head += "\n" + st.Text(theme.ToneDanger).Render(ui.FitLine("✗ already linked; linking cannot be undone", v.width))
	}
	return head + "\n\n" + v.Form.View()
}
