package support

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/domain/actionlog"
	"cardterm/screens/screenkit"
	"cardterm/screens/support/grants"
	"cardterm/theme"
	"cardterm/ui"
)

// AtStart implements ui.AtStart: the customer-approved sessions a crash
// left open (their records in the state folder, grants) are revoked at
// the gateway when the app starts, logged, and said on screen. A session
// of another gateway or tenant is kept for a start on that one; one whose
// revoke fails is kept for the next start.
func (s *Screen) AtStart() tea.Cmd {
	if s.grants == nil || s.grants.Dir() == "" || s.Deps.Client == nil {
		return nil
	}
	store, base, log, now := s.grants, s.Deps.Client.Config(), s.log, s.Deps.Clock
	agent, env := actionlog.Agent(s.opts.Agent), s.environment()
	return func() tea.Msg {
		left, problems := store.LeftOpen()
		var revoked, kept, elsewhere []string
		for _, l := range left {
			if l.BaseURL != base.BaseURL || l.ClientKey != base.ClientKey {
				elsewhere = append(elsewhere, l.BaseURL)
				l.Close()
				continue
			}
			ended, err := revokeLeft(base, l)
			entry := actionlog.Entry{Time: now().UTC(), Agent: agent, Ticket: l.Ticket, ClientKey: l.ClientKey, Environment: env,
				Region: strings.ToLower(regionName(l.US)), UserID: l.UserID, Action: actionlog.ActionApprovedRecovered,
				Request: apiclient.RevokeCall().Line(),
				Outcome: "ok: left open by a crash (opened " + l.OpenedAt.UTC().Format("2006-01-02 15:04 UTC") + "); revoked at the next start"}
			what := "user " + l.UserID + ", opened " + l.OpenedAt.Local().Format(screenkit.TimeLayout)
			if ended {
				what += ", which had ended at the gateway already"
				entry.Outcome = "ok: left open by a crash (opened " + l.OpenedAt.UTC().Format("2006-01-02 15:04 UTC") + "); it had ended at the gateway already"
			}
			if err != nil {
				entry.Outcome = "failed: " + revokeOutcome(err) + "; kept for the next start"
				kept = append(kept, what+": "+apiclient.ErrorMessage(err))
				l.Close()
			} else {
				revoked = append(revoked, what)
				if ferr := l.Forget(); ferr != nil {
					problems = append(problems, ferr)
				}
			}
			if lerr := log.Append(entry); lerr != nil {
				problems = append(problems, lerr)
			}
		}
		return recoveryNotice(store.Dir(), revoked, kept, elsewhere, problems)
	}
}

// revokeLeft revokes a recorded session with its own tokens, on the
// tenant's client of its region. An access token refused (expired) is
// refreshed with the app's secret key first; a refresh token refused too
// means the session ended at the gateway already (ended is true). Without
// a secret key an expired session cannot be told from an ended one: it
// is kept, and the error says what would revoke it.
func revokeLeft(base apiclient.Config, l *grants.Left) (ended bool, err error) {
	cfg := base
	cfg.US = l.US
	client := apiclient.New(cfg)
	session := apiclient.Session{AccessToken: l.AccessToken, RefreshToken: l.RefreshToken, ExpiresAt: l.ExpiresAt,
		Kind: apiclient.SessionOAuth}
	client.SetSession(session)
	err = revoke(client)
	if !apiclient.IsUnauthorized(err) {
		return false, err
	}
	if cfg.SecretKey == "" {
		return false, fmt.Errorf("its access token was refused and refreshing it needs the tenant's secret key "+
			"(set CARDTERM_SECRET_KEY, or keep it in the profile's keyring entry): %s", apiclient.ErrorMessage(err))
	}
	client.SetSession(session) // Revoke forgot it
	ctx, cancel := context.WithTimeout(context.Background(), revokeTimeout)
	defer cancel()
	if _, rerr := client.Refresh(ctx); apiclient.IsStatus(rerr, http.StatusBadRequest) {
		return true, nil // both tokens refused: nothing is left to revoke
	} else if rerr != nil {
		return false, rerr
	}
	return false, revoke(client)
}

// recoveryNotice says what the start found; nil when nothing.
func recoveryNotice(dir string, revoked, kept, elsewhere []string, problems []error) tea.Msg {
	var parts []string
	tone := theme.ToneWarn
	if len(revoked) > 0 {
		parts = append(parts, fmt.Sprintf("revoked %d customer-approved session(s) left open by a crash (%s)", len(revoked), strings.Join(revoked, "; ")))
	}
	if len(kept) > 0 {
		tone = theme.ToneDanger
		parts = append(parts, fmt.Sprintf("%d session(s) left open by a crash could not be revoked (%s); tried again at the next start", len(kept), strings.Join(kept, "; ")))
	}
	if len(elsewhere) > 0 {
		parts = append(parts, fmt.Sprintf("%d session(s) left open on another gateway or tenant (%s) are kept in %s: start cardterm there to revoke them",
			len(elsewhere), strings.Join(elsewhere, ", "), dir))
	}
	for _, p := range problems {
		tone = theme.ToneDanger
		parts = append(parts, p.Error())
	}
	if len(parts) == 0 {
		return nil
	}
	return ui.Notify(tone, strings.Join(parts, ". "))()
}
