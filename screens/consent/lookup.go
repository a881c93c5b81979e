package consent

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
)

// Looking up a subject: a user's consent status and sets, or an
// onboarding's sets; and the look-up form (u, b).

// subject is what was looked up: a user or an onboarding. The zero
// subject is the signed-in user.
type subject struct {
	userID, onboardingID string
}

// loaded is the answer to a look-up.
type loaded struct {
	subject  subject
	selfID   string // the signed-in user's id, learnt on the first load
	status   string // the user's aggregate status; "" for onboardings
	notFound bool   // the user's look-up answered 404: no consent set
	sets     []apiclient.ConsentSet
}

// load looks up subject; an empty subject means the signed-in user, whose
// id comes from GET /v1/user.
func (s *Screen) load(target subject) tea.Cmd {
	client, self := s.Deps.Client, s.selfID
	s.loading = true
	return ui.Start(s.Requests, &s.loadID, func(ctx context.Context) (loaded, error) {
		return lookup(ctx, client, target, self)
	})
}

// lookup reads a subject: a user's full status or an onboarding's sets. A
// user answered 404 has no consent set, which is not an error here.
func lookup(ctx context.Context, client *apiclient.Client, target subject, self string) (loaded, error) {
	out := loaded{subject: target, selfID: self}
	if target.onboardingID != "" {
		ob, err := client.OnboardingConsents(ctx, target.onboardingID)
		out.sets = ob.ConsentSets
		return out, err
	}
	if target.userID == "" {
		if self == "" {
			u, err := client.User(ctx)
			if err != nil {
				return out, err
			}
			out.selfID = u.ID
		}
		out.subject.userID = out.selfID
	}
	status, err := client.UserConsent(ctx, out.subject.userID, true)
	if apiclient.IsNotFound(err) {
		out.notFound = true
		return out, nil
	}
	out.status, out.sets = status.ConsentStatus, status.ConsentSets
	return out, err
}

// loaded shows a look-up's answer, or keeps the last one and says why not.
func (s *Screen) loaded(msg ui.Result[loaded]) tea.Cmd {
	if msg.ID != s.loadID {
		return nil
	}
	s.loading = false
	s.loadErr = msg.Err
	if msg.Err != nil {
		return screenkit.Failed("looking up consents", msg.Err)
	}
	s.setData(msg.Value)
	return nil
}

// setData shows what a look-up found; rows are built once (an open
// detail follows its set when the answer reaches it).
func (s *Screen) setData(d loaded) {
	s.subject, s.status, s.notFound, s.sets = d.subject, d.status, d.notFound, d.sets
	if d.selfID != "" {
		s.selfID = d.selfID
	}
	s.summary = s.summarize()
	s.rebuildRows()
}

// openLookup opens the look-up form, filled with the current subject's id.
func (s *Screen) openLookup(onboarding bool) tea.Cmd {
	value := s.subject.onboardingID
	if !onboarding {
		value = s.subject.userID
		if value == "" {
			value = s.selfID
		}
	}
	f := newLookupForm(s.Deps.Styles, onboarding, value)
	l := s.newFormLayer(f, func(f *form.Form) (tea.Cmd, bool) {
		if id := f.Value("onboardingId"); id != "" {
			return s.lookUp(subject{onboardingID: id}), true
		}
		return s.lookUp(subject{userID: f.Value("userId")}), true
	}, nil)
	return ui.OpenLayer(l, f.Focus())
}

// lookUp shows target at once (empty until it loads) and reads it, on
// the main view: the layers over it close.
func (s *Screen) lookUp(target subject) tea.Cmd {
	s.showMainView()
	s.loadErr = nil
	s.setData(loaded{subject: target})
	return s.load(target)
}

// newLookupForm asks for a user id (empty: the signed-in user) or an
// onboarding id.
func newLookupForm(st *theme.Styles, onboarding bool, value string) *form.Form {
	spec := form.Spec{
		Title:  "Look up a user's consents",
		Lines:  []string{"GET /v2/consent/user/{userId}?full=true"},
		Submit: "look up",
		Fields: []form.Field{{Key: "userId", Label: "userId", Value: value, CharLimit: 128,
			Placeholder: "user id (UUID); empty means you"}},
		Note: "An empty user id looks you up.",
	}
	if onboarding {
		spec.Title, spec.Lines, spec.Note = "Look up an onboarding's consent sets", []string{"GET /v2/consent/onboarding/{onboardingId}"}, ""
		spec.Fields = []form.Field{{Key: "onboardingId", Label: "onboardingId", Value: value, CharLimit: 128,
			Placeholder: "onboarding id, e.g. onb-demo-001", Check: func(v string) string {
				if v == "" {
					return "type an onboarding id"
				}
				return ""
			}}}
	}
	return form.New(st, spec)
}
