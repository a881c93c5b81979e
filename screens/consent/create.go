package consent

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/sanitize"
)

// The create form makes a consent set: an onboarding id, the policy and,
// per consent type, granted, denied or left out (choice fields). Choosing
// the us policy grants eSignAct, which it requires, unless it was chosen
// already.

// leftOut is the choice of a consent type that is not sent.
const leftOut = ""

func newCreateForm(st *theme.Styles, onboarding string) *form.Form {
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
	return form.New(st, form.Spec{
		Title:  "New consent set",
		Lines:  []string{"POST /v2/consent/onboarding · the set starts unlinked"},
		Submit: "review and create",
		Fields: fields,
	})
}

// openCreate opens the create form, filled with the onboarding looked up.
func (s *Screen) openCreate() tea.Cmd {
	f := newCreateForm(s.Deps.Styles, s.subject.onboardingID)
	policy := f.Value("policyType")
	var l *formLayer
	l = s.newFormLayer(f, func(f *form.Form) (tea.Cmd, bool) {
		b := createBody(f)
		if len(b.Consents) == 0 {
			f.SetProblem("Include at least one consent: every type is left out.")
			return nil, false
		}
		return s.askCreate(l.number, b), false
	}, func(f *form.Form) string { return ui.FitBlock(createView(s.Deps.Styles, f), s.Width, s.Height) })
	l.edited = func(f *form.Form) {
		if now := f.Value("policyType"); now != policy {
			policy = now
			if now == apiclient.ConsentPolicyUS && f.Value(apiclient.ConsentESignAct) == leftOut {
				f.SetValue(apiclient.ConsentESignAct, apiclient.ConsentGranted)
			}
		}
	}
	return ui.OpenLayer(l, f.Focus())
}

// createBody is what the create form will send.
func createBody(f *form.Form) apiclient.NewConsentSet {
	b := apiclient.NewConsentSet{OnboardingID: f.Value("onboardingId"), PolicyType: f.Value("policyType"),
		Metadata: map[string]any{"source": "cardterm"}}
	for _, t := range apiclient.ConsentTypes {
		if status := f.Value(t); status != leftOut {
			b.Consents = append(b.Consents, apiclient.NewConsent{ConsentType: t, ConsentStatus: status})
		}
	}
	return b
}

// askCreate confirms the new set with the request, warning when a
// required consent is not granted.
func (s *Screen) askCreate(form int, b apiclient.NewConsentSet) tea.Cmd {
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

// createView is the form, and which consents the chosen policy requires.
func createView(st *theme.Styles, f *form.Form) string {
	policy := f.Value("policyType")
	required := apiclient.RequiredConsentTypes(policy)
	return f.View() + "\n" + st.Muted.Render("Required by the "+sanitize.Text(policy)+" policy: "+strings.Join(required, ", "))
}
