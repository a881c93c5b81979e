package consent

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/theme"
	"cardterm/ui"
)

// Consent mutations: each is confirmed with the exact request, guarded
// against a double press, and followed by a re-read of the set and of the
// aggregate status; the screen then shows what the gateway says.

// Messages from the confirmation dialogs.
type (
	cnsRevokeMsg struct{ setID, consentID, consentType string }
	cnsLinkMsg   struct{ setID, userID string }
	cnsCreateMsg struct{ body apiclient.NewConsentSet }
	cnsCancelMsg struct{}
)

// cnsDone is the outcome of a mutation and the re-read after it.
type cnsDone struct {
	what    string // "revoke", "link", "create"
	label   string // what was changed, for the notice
	set     apiclient.ConsentSet
	status  string // aggregate status of the set's user after the change; "" if unlinked
	readErr error  // the re-read failed (the mutation itself succeeded)
}

// cnsRequiredOf lists the consent types the sets' policies require.
func cnsRequiredOf(sets []apiclient.ConsentSet) []string {
	var out []string
	for _, s := range sets {
		for _, t := range apiclient.RequiredConsentTypes(s.PolicyType) {
			if slices.Index(out, t) < 0 {
				out = append(out, t)
			}
		}
	}
	return out
}

// cnsLatest is the status in force of a consent type across sets (the
// newest record), "" when none of them has it.
func cnsLatest(sets []apiclient.ConsentSet, typ string) string {
	var best *apiclient.Consent
	for _, s := range sets {
		for _, k := range apiclient.CurrentConsents(s) {
			if k.ConsentType == typ && (best == nil || !cnsNewer(best.UpdatedAt, k.UpdatedAt)) {
				k := k
				best = &k
			}
		}
	}
	if best == nil {
		return ""
	}
	return best.ConsentStatus
}

func cnsNewer(a, b string) bool { return cnsWhenTime(a).After(cnsWhenTime(b)) }

// reread follows a mutation: the set, then its user's aggregate status.
func cnsReread(ctx context.Context, client *apiclient.Client, d *cnsDone, setID string) {
	set, err := client.ConsentSet(ctx, setID)
	if err != nil {
		d.readErr = err
		return
	}
	d.set = set
	if set.Linked() {
		st, err := client.UserConsent(ctx, *set.UserID, false)
		switch {
		case apiclient.IsNotFound(err):
			d.status = "unknown: no consent set for this user (404)"
		case err != nil:
			d.readErr = err
		default:
			d.status = st.ConsentStatus
		}
	}
}

// needSecret refuses a mutation, before any dialog, when the client has no
// secret key.
func (c *Screen) needSecret() tea.Cmd {
	if c.deps.Client.Config().SecretKey == "" {
		return ui.Notify(theme.ToneWarn, "the secret key is needed: set CARDTERM_SECRET_KEY")
	}
	return nil
}

// confirmRevoke asks before revoking the selected consent, saying whether
// it is required and what the status will become.
func (c *Screen) confirmRevoke() tea.Cmd {
	if c.busy || c.loading {
		return nil
	}
	row, ok := c.selected()
	if !ok {
		return ui.Notify(theme.ToneInfo, "no consent selected")
	}
	if cmd := c.needSecret(); cmd != nil {
		return cmd
	}
	set, k := c.sets[row.set], row.consent
	if k.ConsentStatus != apiclient.ConsentGranted {
		return ui.Notify(theme.ToneInfo, fmt.Sprintf("%s is %s: only a granted consent can be revoked", k.ConsentType, k.ConsentStatus))
	}
	request := []string{
		"DELETE /v2/consent/consentSet/" + set.ConsentSetID + "/consent/" + k.ConsentID,
		"headers: x-client-key, x-secret-key",
	}
	var lines []string
	after := c.deps.Clock().UTC().Format("2006-01-02T15:04:05.999999999Z07:00")
	required := apiclient.IsRequiredConsent(set.PolicyType, k.ConsentType)
	var scope []apiclient.ConsentSet
	who := "the set's"
	if c.subject.userID != "" && set.Linked() && *set.UserID == c.subject.userID {
		scope, who = c.sets, "the user's"
	} else {
		scope = []apiclient.ConsentSet{set}
	}
	before := apiclient.AggregateConsentStatus(scope)
	then := apiclient.AggregateConsentStatus(apiclient.WithRevoked(scope, set.ConsentSetID, k.ConsentID, after))
	tone := theme.ToneWarn
	if required {
		lines = append(lines, fmt.Sprintf("%s is a REQUIRED consent of the %s policy.", k.ConsentType, set.PolicyType))
		tone = theme.ToneDanger
	} else {
		lines = append(lines, k.ConsentType+" is optional.")
	}
	if before == then {
		lines = append(lines, fmt.Sprintf("%s consent status stays %s.", cnsCap(who), then))
	} else {
		lines = append(lines, fmt.Sprintf("%s consent status becomes %s (now %s).", cnsCap(who), strings.ToUpper(then), before))
	}
	lines = append(lines, "A new revoked record is added; the original is kept, and the audit trail records the revocation.")
	c.busy = true
	return ui.Confirm(ui.ConfirmSpec{
		Title:        "Revoke " + k.ConsentType + "?",
		Request:      request,
		Lines:        lines,
		ConfirmLabel: "revoke",
		Tone:         tone,
		OnConfirm:    cnsRevokeMsg{setID: set.ConsentSetID, consentID: k.ConsentID, consentType: k.ConsentType},
		OnCancel:     cnsCancelMsg{},
	})
}

func cnsCap(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func (c *Screen) runRevoke(m cnsRevokeMsg) tea.Cmd {
	if !c.busy || c.running() {
		return nil
	}
	client := c.deps.Client
	var cmd tea.Cmd
	c.actionID, cmd = ui.Go(c.requests, func(ctx context.Context) (cnsDone, error) {
		d := cnsDone{what: "revoke", label: m.consentType}
		if _, err := client.RevokeConsent(ctx, m.setID, m.consentID); err != nil {
			return d, err
		}
		cnsReread(ctx, client, &d, m.setID)
		return d, nil
	})
	c.inFlight = true
	return cmd
}

func (c *Screen) runLink(m cnsLinkMsg) tea.Cmd {
	if c.link == nil {
		return nil
	}
	if c.running() {
		// Another change is on its way: reopen the form rather than leave
		// it waiting for an answer that will never come.
		c.link.confirming = false
		return ui.Notify(theme.ToneInfo, "another consent change is in progress: press enter again when it is done")
	}
	c.link.sending = true
	client := c.deps.Client
	var cmd tea.Cmd
	c.actionID, cmd = ui.Go(c.requests, func(ctx context.Context) (cnsDone, error) {
		d := cnsDone{what: "link", label: m.userID}
		if _, err := client.LinkConsentSet(ctx, m.setID, m.userID); err != nil {
			return d, err
		}
		cnsReread(ctx, client, &d, m.setID)
		return d, nil
	})
	c.inFlight = true
	return cmd
}

func (c *Screen) runCreate(m cnsCreateMsg) tea.Cmd {
	if c.create == nil {
		return nil
	}
	if c.running() {
		c.create.confirming = false
		return ui.Notify(theme.ToneInfo, "another consent change is in progress: press ctrl+s again when it is done")
	}
	c.create.sending = true
	client := c.deps.Client
	var cmd tea.Cmd
	c.actionID, cmd = ui.Go(c.requests, func(ctx context.Context) (cnsDone, error) {
		d := cnsDone{what: "create", label: m.body.OnboardingID}
		set, err := client.CreateConsentSet(ctx, m.body)
		if err != nil {
			return d, err
		}
		cnsReread(ctx, client, &d, set.ConsentSetID)
		return d, nil
	})
	c.inFlight = true
	return cmd
}

// running reports whether a mutation is on its way.
func (c *Screen) running() bool { return c.inFlight }

// actionDone shows the outcome and reloads the subject.
func (c *Screen) actionDone(msg ui.Result[cnsDone]) tea.Cmd {
	c.busy, c.inFlight = false, false
	d := msg.Value
	switch d.what {
	case "revoke":
		if msg.Err != nil {
			return tea.Batch(cnsFailed("revoking "+d.label, msg.Err), c.load(c.subject))
		}
		note := "revoked " + d.label
		if d.status != "" {
			note += " · consent status " + d.status
		}
		return tea.Batch(c.doneNotice(note, d), c.load(c.subject))
	case "link":
		if msg.Err != nil {
			if c.link != nil {
				c.link.failed(msg.Err)
			}
			return tea.Batch(cnsFailed("linking the consent set", msg.Err), c.load(c.subject))
		}
		c.link = nil
		return tea.Batch(c.doneNotice("linked · consent status "+d.status+" · set "+cnsShort(d.set.ConsentSetID)+" → user "+d.label, d), c.load(c.subject))
	case "create":
		if msg.Err != nil {
			if c.create != nil {
				c.create.failed(msg.Err)
			}
			// The set may exist all the same (an answer lost on the way):
			// show what the gateway now says.
			return tea.Batch(cnsFailed("creating the consent set", msg.Err), c.load(c.subject))
		}
		c.create = nil
		c.mode = cnsMain
		return tea.Batch(c.doneNotice("created consent set "+cnsShort(d.set.ConsentSetID)+" for onboarding "+d.label+" (unlinked)", d),
			c.load(cnsSubject{onboardingID: d.label}))
	}
	return nil
}

// cnsFailed reports a failed mutation. Consent mutations carry no bearer
// token, so their 401 means the secret key was refused, not that the
// session ended.
func cnsFailed(what string, err error) tea.Cmd {
	if apiclient.IsUnauthorized(err) {
		return ui.Notify(theme.ToneDanger, what+": the gateway refused the secret key (401); check CARDTERM_SECRET_KEY")
	}
	return ui.ReportError(what, err)
}

// doneNotice reports success, or that the re-read after it failed.
func (c *Screen) doneNotice(note string, d cnsDone) tea.Cmd {
	if d.readErr != nil {
		return ui.Notify(theme.ToneWarn, note+"; re-reading failed: "+apiclient.ErrorMessage(d.readErr))
	}
	return ui.Notify(theme.ToneOK, note)
}

// cnsShort is the first block of a UUID, for notices.
func cnsShort(id string) string {
	if i := strings.IndexByte(id, '-'); i > 0 {
		return id[:i]
	}
	return id
}
