package consent

import (
	tea "charm.land/bubbletea/v2"

	"cardterm/domain/savedview"
	"cardterm/screens/screenkit"
)

// Saved views of the consent screen: the subject looked up, a user's id
// or an onboarding's, saved under a name (V) and looked up again from
// the palette or `cardterm get consent|onboarding|audit --view NAME`.

// saveView opens the form that names the view of the subject shown.
func (s *Screen) saveView() tea.Cmd {
	userID, onboardingID := s.subject.userID, s.subject.onboardingID
	if userID == "" && onboardingID == "" {
		userID = s.selfID
	}
	kept := []string{"user id: " + userID}
	if onboardingID != "" {
		kept = []string{"onboarding id: " + onboardingID}
	}
	layer := screenkit.SaveViewLayer(s.Deps, s.ID(), kept, savedview.FromConsent(userID, onboardingID))
	return layer.Open(layer.Form.Focus())
}

// openView looks up a saved view's subject again.
func (s *Screen) openView(view savedview.View) tea.Cmd {
	if view.Screen != string(s.ID()) {
		return nil
	}
	userID, onboardingID := view.Consent()
	if onboardingID != "" {
		return s.lookUp(subject{onboardingID: onboardingID})
	}
	return s.lookUp(subject{userID: userID})
}
