package support

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/theme"
	"cardterm/ui"
)

// formPurpose says what the open form is for.
type formPurpose int

const (
	formLookup formPurpose = iota
	formSecretKey
	formTypeLast4
	formLinkUser
)

// actionKind is a change the console can make with the secret key.
type actionKind int

const (
	actionRevoke actionKind = iota + 1
	actionLink
)

// pendingAction is a revoke or link on its way: the secret key may be
// asked for, then (on production) the last 4 characters of the user id,
// then the confirmation showing the request.
type pendingAction struct {
	kind        actionKind
	setID       string
	consentID   string
	consentType string
	policy      string
	userID      string
	typed       bool // the agent typed the last 4 characters
}

// actionDone is what a finished action reports.
type actionDone struct{ kind actionKind }

// startRevoke revokes the selected consent, if it is granted.
func (s *Screen) startRevoke() tea.Cmd {
	r, ok := s.selected()
	if !ok {
		return notify("select a consent to revoke")
	}
	if r.consent.ConsentStatus != apiclient.ConsentGranted {
		return ui.Notify(theme.ToneWarn, "only a granted consent can be revoked; this one is "+r.consent.ConsentStatus)
	}
	s.action = &pendingAction{kind: actionRevoke, setID: r.set.ConsentSetID, consentID: r.consent.ConsentID,
		consentType: r.consent.ConsentType, policy: r.set.PolicyType, userID: s.kase.id}
	return s.advance()
}

// startLink links the selected onboarding set to a user the agent names.
func (s *Screen) startLink() tea.Cmd {
	r, ok := s.selected()
	if !ok {
		return notify("select a consent set to link")
	}
	if r.set.Linked() {
		return ui.Notify(theme.ToneWarn, "this set is linked already (to "+*r.set.UserID+"); a link cannot be changed")
	}
	s.action = &pendingAction{kind: actionLink, setID: r.set.ConsentSetID, policy: r.set.PolicyType}
	s.formFor = formLinkUser
	return s.openForm(ui.NewForm(s.Deps.Styles, ui.FormSpec{
		Title:  "Link consent set " + r.set.ConsentSetID + " to a user",
		Lines:  []string{"A link is recorded in the audit trail and cannot be undone."},
		Submit: "continue",
		Fields: []ui.FieldSpec{{Key: "userId", Label: "User id", CharLimit: 128, Check: nonEmpty("the user id is required")}},
	}))
}

// advance takes the pending action to its next step.
func (s *Screen) advance() tea.Cmd {
	a := s.action
	switch {
	case s.actionClient().Config().SecretKey == "":
		s.formFor = formSecretKey
		return s.openForm(ui.NewForm(s.Deps.Styles, ui.FormSpec{
			Title:  "The secret key is needed",
			Lines:  []string{"Revoking and linking consents need the tenant's secret key. It is kept in memory for this session only and never shown."},
			Submit: "continue",
			Fields: []ui.FieldSpec{{Key: "secretKey", Label: "Secret key", Kind: ui.FieldSecret, Check: nonEmpty("the secret key is required")}},
		}))
	case s.Deps.Production && !a.typed:
		last4 := lastN(a.userID, 4)
		s.formFor = formTypeLast4
		return s.openForm(ui.NewForm(s.Deps.Styles, ui.FormSpec{
			Title:  "PRODUCTION: type the last 4 characters of the user id",
			Lines:  []string{"This changes a real customer's consents: user " + a.userID + "."},
			Submit: "continue",
			Fields: []ui.FieldSpec{{Key: "last4", Label: "Last 4 characters", CharLimit: 4, Check: func(v string) string {
				if v != last4 {
					return "that is not how the user id ends"
				}
				return ""
			}}},
		}))
	}
	return s.change.Ask(s.changeSpec(*a))
}

// changeSpec is the confirmation of an action, with the request it sends.
func (s *Screen) changeSpec(a pendingAction) ui.ChangeSpec[actionDone] {
	client := s.actionClient()
	if a.kind == actionLink {
		return ui.ChangeSpec[actionDone]{
			Title:        "Link the consent set to user " + a.userID + "?",
			Request:      []string{"PATCH /v2/consent/onboarding/" + a.setID, `{"userId":"` + a.userID + `"}`},
			Lines:        []string{"The link is recorded in the audit trail and cannot be undone."},
			ConfirmLabel: "link",
			Tone:         theme.ToneWarn,
			What:         "link",
			Done:         "consent set linked to " + a.userID,
			Run: func(ctx context.Context) (actionDone, error) {
				_, err := client.LinkConsentSet(ctx, a.setID, a.userID)
				return actionDone{kind: actionLink}, err
			},
		}
	}
	lines := []string{"Revokes " + a.consentType + " of user " + a.userID + ". The original record is kept; a revoked record and an audit record are added."}
	if apiclient.IsRequiredConsent(a.policy, a.consentType) {
		lines = append(lines, a.consentType+" is required by the "+a.policy+" policy: the user's consent status becomes incomplete.")
	}
	return ui.ChangeSpec[actionDone]{
		Title:        "Revoke " + a.consentType + "?",
		Request:      []string{"DELETE /v2/consent/consentSet/" + a.setID + "/consent/" + a.consentID},
		Lines:        lines,
		ConfirmLabel: "revoke",
		Tone:         theme.ToneDanger,
		What:         "revoke",
		Done:         a.consentType + " revoked",
		Run: func(ctx context.Context) (actionDone, error) {
			_, err := client.RevokeConsent(ctx, a.setID, a.consentID)
			return actionDone{kind: actionRevoke}, err
		},
	}
}

// actionClient is the client with the secret key, when the agent typed it.
func (s *Screen) actionClient() *apiclient.Client {
	if s.secretClient != nil {
		return s.secretClient
	}
	return s.Deps.Client
}

// formKey routes a key to the open form and acts on its submission.
func (s *Screen) formKey(msg tea.KeyPressMsg) tea.Cmd {
	ev, cmd := s.form.Update(msg)
	switch ev {
	case ui.FormCancel:
		s.form = nil
		if s.formFor != formLookup {
			s.action = nil
		}
		return nil
	case ui.FormSubmit:
		f := s.form
		s.form = nil
		switch s.formFor {
		case formLookup:
			if id := f.Value(string(caseUser)); id != "" {
				return s.lookUp(caseUser, id)
			}
			return s.lookUp(caseOnboarding, f.Value(string(caseOnboarding)))
		case formSecretKey:
			cfg := s.Deps.Client.Config()
			cfg.SecretKey = f.Value("secretKey")
			s.secretClient = apiclient.New(cfg)
		case formTypeLast4:
			s.action.typed = true
		case formLinkUser:
			s.action.userID = f.Value("userId")
		}
		return s.advance()
	}
	return cmd
}

func nonEmpty(message string) func(string) string {
	return func(v string) string {
		if strings.TrimSpace(v) == "" {
			return message
		}
		return ""
	}
}

// lastN is the last n characters of s.
func lastN(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[len(r)-n:])
}
