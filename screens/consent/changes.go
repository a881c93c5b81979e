package consent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
)

// Consent changes (revoke, link, create) go through one ui.Change: the
// confirmation shows the exact request, the change runs, the set it
// touched and its user's status are read again, and the notice says what
// the gateway now holds. The screen then looks its subject up again.

// changed is what a change left at the gateway, read again after it.
type changed struct {
	set     apiclient.ConsentSet
	status  string // the set's user's aggregate status; "" when unlinked
	readErr error  // the re-read failed (the change itself succeeded)
	notice  string // what happened, from the re-read state
	// onboarding is looked up next (a created set's); "" keeps the subject.
	onboarding string
}

// reread follows a change: the set, then its user's aggregate status.
func reread(ctx context.Context, client *apiclient.Client, setID string) changed {
	var d changed
	set, err := client.ConsentSet(ctx, setID)
	if err != nil {
		d.readErr = err
		return d
	}
	d.set = set
	if set.Linked() {
		status, err := client.UserConsent(ctx, *set.UserID, false)
		switch {
		case apiclient.IsNotFound(err):
			d.status = "no consent set (404)"
		case err != nil:
			d.readErr = err
		default:
			d.status = status.ConsentStatus
		}
	}
	return d
}

// ask opens the confirmation of a change, from form number form or (0)
// from the main view. Only one consent change is confirmed or runs at a
// time.
func (s *Screen) ask(form int, spec ui.ChangeSpec[changed]) tea.Cmd {
	if s.change.Busy() {
		return ui.Notify(theme.ToneInfo, "another consent change ("+s.change.What()+") is in progress: try again when it is done")
	}
	s.asking = form
	return s.change.Ask(spec)
}

// changeDone tells the form the change came from how it ended (it closes,
// or shows the refusal with what was typed), and looks the subject up
// again either way: after a failure the change may have happened all the
// same (an answer lost on the way), so the screen shows what the gateway
// now says.
func (s *Screen) changeDone(res ui.ChangeResult[changed]) tea.Cmd {
	answered := tell(changeAnswered{form: s.asking, err: res.Err, what: res.Spec.What})
	s.asking = 0
	if res.Err != nil {
		return tea.Batch(reportFailure(res.Spec.What, res.Err), answered, s.load(s.subject))
	}
	d := res.Value
	next := s.subject
	if d.onboarding != "" {
		// A new set: its onboarding is shown, on the main view.
		next = subject{onboardingID: d.onboarding}
		s.showMainView()
	}
	notice := ui.Notify(theme.ToneOK, d.notice)
	if d.readErr != nil {
		notice = ui.Notify(theme.ToneWarn, d.notice+"; re-reading failed: "+apiclient.ErrorMessage(d.readErr))
	}
	return tea.Batch(notice, answered, s.load(next))
}

// reportFailure reports a failed change. Consent changes carry no bearer
// token, so their 401 means the secret key was refused, not that the
// session ended.
func reportFailure(what string, err error) tea.Cmd {
	if apiclient.IsUnauthorized(err) {
		return ui.Notify(theme.ToneDanger, what+": the gateway refused the secret key (401); check CARDTERM_SECRET_KEY")
	}
	return ui.ReportError(what, err)
}

// formRefused shows a refusal on a form, what was typed kept. The consent
// endpoints answer {error, details[]} with details that start with the
// field they are about ("onboardingId must be …"): those show under their
// field, the rest under the form after the message and status.
func formRefused(f *form.Form, what string, err error) tea.Cmd {
	var apiErr *apiclient.Error
	switch {
	case apiclient.IsUnauthorized(err):
		f.SetProblem(what + ": the gateway refused the secret key (401); check CARDTERM_SECRET_KEY")
	case errors.As(err, &apiErr) && apiErr.Status != 0:
		fields := screenkit.FieldErrors(apiErr.Fields)
		typed := f.Typed()
		var rest []string
		for _, d := range apiErr.Details {
			field, message, _ := strings.Cut(d, " ")
			if _, onForm := typed[field]; onForm && message != "" {
				fields = append(fields, form.FieldError{Field: field, Message: message})
				continue
			}
			rest = append(rest, d)
		}
		message := fmt.Sprintf("%s (%d)", apiErr.Message, apiErr.Status)
		if len(rest) > 0 {
			message += ": " + strings.Join(rest, "; ")
		}
		return f.SetErrors(message, fields)
	default:
		f.SetProblem(what + ": " + apiclient.ErrorMessage(err))
	}
	return nil
}

// needSecret refuses a change, before any form or dialog, when the client
// has no secret key.
func (s *Screen) needSecret() tea.Cmd {
	if s.Deps.Client.Config().SecretKey == "" {
		return ui.Notify(theme.ToneWarn, "the secret key is needed: set CARDTERM_SECRET_KEY")
	}
	return nil
}

// askRevoke confirms revoking the selected consent, saying whether it is
// required and what the status will become.
func (s *Screen) askRevoke() tea.Cmd {
	if s.loading {
		return ui.Notify(theme.ToneInfo, "the consents are being read again: press "+s.keys.Revoke.Help().Key+" once they are shown")
	}
	r, ok := s.selected()
	if !ok {
		return ui.Notify(theme.ToneInfo, "no consent selected")
	}
	if cmd := s.needSecret(); cmd != nil {
		return cmd
	}
	set, k := s.sets[r.set], r.consent
	if k.ConsentStatus != apiclient.ConsentGranted {
		return ui.Notify(theme.ToneInfo, fmt.Sprintf("%s is %s: only a granted consent can be revoked", k.ConsentType, k.ConsentStatus))
	}
	lines, tone := s.revokeEffect(set, k)
	client, setID, consentID, consentType := s.Deps.Client, set.ConsentSetID, k.ConsentID, k.ConsentType
	return s.ask(0, ui.ChangeSpec[changed]{
		Title:        "Revoke " + consentType + "?",
		Request:      append(apiclient.RevokeConsentCall(setID, consentID).Lines(), secretHeaders),
		Lines:        lines,
		ConfirmLabel: "revoke",
		Tone:         tone,
		What:         "revoking " + consentType,
		Run: func(ctx context.Context) (changed, error) {
			if _, err := client.RevokeConsent(ctx, setID, consentID); err != nil {
				return changed{}, err
			}
			d := reread(ctx, client, setID)
			d.notice = "revoked " + consentType
			if d.status != "" {
				d.notice += " · consent status " + d.status
			}
			return d, nil
		},
	})
}

// revokeEffect says what revoking k does: required or optional, and the
// user's (or, unlinked, the set's) status before and after.
func (s *Screen) revokeEffect(set apiclient.ConsentSet, k apiclient.Consent) ([]string, theme.Tone) {
	after := s.Deps.Clock().UTC().Format("2006-01-02T15:04:05.999999999Z07:00")
	scope, who := []apiclient.ConsentSet{set}, "the set's"
	if s.subject.userID != "" && set.Linked() && *set.UserID == s.subject.userID {
		scope, who = s.sets, "the user's"
	}
	before := apiclient.AggregateConsentStatus(scope)
	then := apiclient.AggregateConsentStatus(apiclient.WithRevoked(scope, set.ConsentSetID, k.ConsentID, after))
	var lines []string
	tone := theme.ToneWarn
	if apiclient.IsRequiredConsent(set.PolicyType, k.ConsentType) {
		lines = append(lines, fmt.Sprintf("%s is a REQUIRED consent of the %s policy.", k.ConsentType, set.PolicyType))
		tone = theme.ToneDanger
	} else {
		lines = append(lines, k.ConsentType+" is optional.")
	}
	if before == then {
		lines = append(lines, fmt.Sprintf("%s consent status stays %s.", capitalize(who), then))
	} else {
		lines = append(lines, fmt.Sprintf("%s consent status becomes %s (now %s).", capitalize(who), strings.ToUpper(then), before))
	}
	lines = append(lines, "A new revoked record is added; the original is kept, and the audit trail records the revocation.")
	return lines, tone
}
