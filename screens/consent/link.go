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

// linkForm is the link form's heading: one consent set to link to a
// user id, its fields drawn above a one-field form. Linking cannot be
// undone; a second link is refused (409) and said so on the form.
type linkForm struct {
	st  *theme.Styles
	set apiclient.ConsentSet
	// conflict: the gateway answered 409, the set is linked already.
	conflict bool
}

// openLinkSelected opens the link form for the selected set.
func (s *Screen) openLinkSelected() tea.Cmd {
	set, ok := s.selectedSet()
	if !ok {
		return ui.Notify(theme.ToneInfo, "no consent set selected ("+s.keys.Onboarding.Help().Key+" looks up an onboarding)")
	}
	return s.openLink(set)
}

// openLink opens the link form for set.
func (s *Screen) openLink(set apiclient.ConsentSet) tea.Cmd {
	if cmd := s.needSecret(); cmd != nil {
		return cmd
	}
	f := form.New(s.Deps.Styles, form.Spec{
		// No request line here: the confirmation shows the exact one.
		Title:  "The user to link it to",
		Submit: "review and link",
		Note:   "Linking is recorded in the audit trail and cannot be undone.",
		Fields: []form.Field{{Key: "userId", Label: "userId", CharLimit: 128,
			Placeholder: "user id to link to (e.g. a UUID)", Check: checkUserID}},
	})
	head := &linkForm{st: s.Deps.Styles, set: set}
	var l *formLayer
	l = s.newFormLayer(f, func(f *form.Form) (tea.Cmd, bool) {
		return s.askLink(l.number, set.ConsentSetID, f.Value("userId")), false
	}, func(f *form.Form) string { return ui.FitBlock(head.view(f, s.Width), s.Width, s.Height) })
	l.refused = func(err error) { head.conflict = apiclient.IsStatus(err, 409) }
	return ui.OpenLayer(l, f.Focus())
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

// askLink confirms the link with the exact request, asked from form
// number form.
func (s *Screen) askLink(form int, setID, userID string) tea.Cmd {
	client := s.Deps.Client
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

// view draws the set, then the form, in width cells.
func (v *linkForm) view(f *form.Form, width int) string {
	st, set := v.st, v.set
	fields := []screenkit.Field{{Label: "consent set", Value: set.ConsentSetID}, {Label: "onboarding", Value: set.OnboardingID},
		{Label: "policy", Value: set.PolicyType}}
	if set.Linked() {
		fields = append(fields, screenkit.Field{Label: "linked to", Styled: st.Text(theme.ToneWarn).Render(sanitize.Text(*set.UserID) +
			" already: the gateway will refuse (409)")})
	} else {
		fields = append(fields, screenkit.Field{Label: "linked to", Styled: st.Muted.Render("nobody yet")})
	}
	head := st.Title.Render("Link a consent set to a user") + "\n\n" + screenkit.RenderFields(st, fields, width)
	if v.conflict {
		head += "\n" + st.Text(theme.ToneDanger).Render(ui.FitLine("✗ already linked; linking cannot be undone", width))
	}
	return head + "\n\n" + f.View()
}
