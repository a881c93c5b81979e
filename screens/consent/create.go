package consent

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/sanitize"
)

// createForm creates a consent set, a ui.SubView: an onboarding id, the
// policy and, per consent type, granted, denied or left out (choice
// fields). Choosing the us policy grants eSignAct, which it requires,
// unless it was chosen already.
type createForm struct {
	screenkit.FormPanel
	st     *theme.Styles
	submit func(form *createForm, body apiclient.NewConsentSet) tea.Cmd
	policy string // the policy chosen, to notice a change
}

// leftOut is the choice of a consent type that is not sent.
const leftOut = ""

func newCreateForm(st *theme.Styles, requests ui.Owner, onboarding string, submit func(*createForm, apiclient.NewConsentSet) tea.Cmd) *createForm {
	fields := []form.Field{
		{Key: "onboardingId", Label: "Onboarding ID", Value: onboarding, CharLimit: 128, Placeholder: "onboarding id, e.g. onb-2026-0042",
			Check: func(v string) string {
				if v == "" {
					return "an onboarding id is required"
				}
				return ""
			}},
		{Key: "policyType", Label: "Policy", Kind: form.FieldChoice,
			Choices: []string{apiclient.ConsentPolicyGlobal, apiclient.ConsentPolicyUS}},
	}
	granted := map[string]bool{apiclient.ConsentTermsPrivacy: true, apiclient.ConsentMarketing: true, apiclient.ConsentEmail: true}
	for _, t := range apiclient.ConsentTypes {
		value := leftOut
		if granted[t] {
			value = apiclient.ConsentGranted
		}
		fields = append(fields, form.Field{Key: t, Label: t, Kind: form.FieldChoice, Value: value, Placeholder: "left out",
			Choices: []string{apiclient.ConsentGranted, apiclient.ConsentDenied, leftOut}})
	}
	return &createForm{st: st, submit: submit, policy: apiclient.ConsentPolicyGlobal, FormPanel: screenkit.FormPanel{Requests: requests,
		Form: form.New(st, form.Spec{
			Title:  "New consent set",
			Lines:  []string{"POST /v2/consent/onboarding · the set starts unlinked"},
			Submit: "review and create",
			Fields: fields,
		})}}
}

// openCreate opens the create form, filled with the onboarding looked up.
func (s *Screen) openCreate() tea.Cmd {
	form := newCreateForm(s.Deps.Styles, s.Requests, s.subject.onboardingID, s.askCreate)
	s.showForm(form)
	return form.Form.Focus()
}

// body is what will be sent.
func (v *createForm) body() apiclient.NewConsentSet {
	b := apiclient.NewConsentSet{OnboardingID: v.Form.Value("onboardingId"), PolicyType: v.Form.Value("policyType"),
		Metadata: map[string]any{"source": "cardterm"}}
	for _, t := range apiclient.ConsentTypes {
		if status := v.Form.Value(t); status != leftOut {
			b.Consents = append(b.Consents, apiclient.NewConsent{ConsentType: t, ConsentStatus: status})
		}
	}
	return b
}

// askCreate confirms the new set with the request, warning when a
// required consent is not granted.
func (s *Screen) askCreate(form *createForm, b apiclient.NewConsentSet) tea.Cmd {
	status := map[string]string{}
	for _, k := range b.Consents {
		status[k.ConsentType] = k.ConsentStatus
	}
	var lines []string
	tone := theme.ToneInfo
	for _, t := range apiclient.RequiredConsentTypes(b.PolicyType) {
		if status[t] != apiclient.ConsentGranted {
			lines = append(lines, fmt.Sprintf("%s is required by the %s policy and is not granted: the set will be incomplete.", t, b.PolicyType))
			tone = theme.ToneWarn
		}
	}
	lines = append(lines, "The new set is unlinked; L links it to a user.")
	client := s.Deps.Client
	return s.ask(form, ui.ChangeSpec[changed]{
		Title:        "Create a consent set for " + b.OnboardingID + "?",
		Request:      append(apiclient.CreateConsentSetCall(b).Lines(), secretHeaders),
		Lines:        lines,
		ConfirmLabel: "create",
		Tone:         tone,
		What:         "creating the consent set",
		Run: func(ctx context.Context) (changed, error) {
			set, err := client.CreateConsentSet(ctx, b)
			if err != nil {
				return changed{}, err
			}
			d := reread(ctx, client, set.ConsentSetID)
			d.notice = "created consent set " + shortID(set.ConsentSetID) + " for onboarding " + b.OnboardingID + " (unlinked)"
			d.onboarding = b.OnboardingID
			return d, nil
		},
	})
}

// Update implements ui.SubView: a submit with at least one consent asks
// for confirmation; esc while the set is being created cancels, else
// closes.
func (v *createForm) Update(msg tea.Msg) (ui.SubView, tea.Cmd) {
	event, closed, cmd := v.HandleForm(msg)
	if policy := v.Form.Value("policyType"); policy != v.policy {
		v.policy = policy
		if policy == apiclient.ConsentPolicyUS && v.Form.Value(apiclient.ConsentESignAct) == leftOut {
			v.Form.SetValue(apiclient.ConsentESignAct, apiclient.ConsentGranted)
		}
	}
	switch {
	case closed:
		return nil, nil
	case event != form.Submit:
		return v, cmd
	}
	b := v.body()
	if len(b.Consents) == 0 {
		v.Form.SetProblem("Include at least one consent: every type is left out.")
		return v, nil
	}
	return v, v.submit(v, b)
}

// refused implements changeForm: every choice stays.
func (v *createForm) refused(err error) tea.Cmd {
	return formRefused(v.Form, "creating the consent set", err)
}

// View implements ui.SubView: the form, and which consents the chosen
// policy requires.
func (v *createForm) View() string {
	required := apiclient.RequiredConsentTypes(v.policy)
	return v.Form.View() + "\n" + v.st.Muted.Render("Required by the "+sanitize.Text(v.policy)+" policy: "+strings.Join(required, ", "))
}
