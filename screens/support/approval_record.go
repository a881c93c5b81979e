package support

import (
	"context"
	"log/slog"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/domain/actionlog"
	"cardterm/screens/support/grants"
	"cardterm/theme"
	"cardterm/ui"
)

// What a customer-approved session leaves on record: its lines in the
// action log (by ids only; a line that cannot be written refuses or ends
// the session) and, while it is open, its record in the state folder
// (grants), so that a crash cannot leave it alive at the gateway.

// checkApproved reads who signed in; anyone but the case's user is
// refused and revoked at once. The start (or the refusal) is logged, by
// ids only; a start the log cannot hold is refused and revoked too.
func (s *Screen) checkApproved() tea.Cmd {
	a := s.approval
	client, want, log, entry, now, store := a.client, a.userID, s.log, a.entry, s.Deps.Clock, s.grants
	return ui.Start(s.Requests, &a.checkID, func(ctx context.Context) (approvedChecked, error) {
		var out approvedChecked
		held, herr := holdGrant(store, client, entry, now())
		if herr != nil {
			out.refused = "it could not be recorded in the state folder, so a crash could leave it open (" + herr.Error() + ")"
			out.revokeErr = revoke(client)
			entry.Time, entry.Action = now().UTC(), actionlog.ActionApprovedRefused
			entry.Outcome = "refused: the session could not be recorded in the state folder; " + revokeOutcome(out.revokeErr)
			out.logErr = log.Append(entry)
			return out, nil
		}
		out.held = held
		user, err := client.User(ctx)
		refusedForLog := ""
		switch {
		case err != nil:
			out.refused = "the signed-in customer could not be read (" + apiclient.ErrorMessage(err) + ")"
			refusedForLog = out.refused
		case !strings.EqualFold(user.ID, want):
			out.refused = customerName(user) + " signed in, not this case's user"
			refusedForLog = "user " + user.ID + " signed in, not this case's user"
		}
		out.user = user
		entry.Time = now().UTC()
		if out.refused == "" {
			entry.Outcome = "ok: user " + want + " signed in; read-only"
			if out.logErr = log.Append(entry); out.logErr == nil {
				return out, nil
			}
			out.refused = "its start could not be written: " + out.logErr.Error()
			refusedForLog = "the start could not be written to the action log"
		}
		out.revokeErr = revoke(client)
		letGo(held, out.revokeErr)
		entry.Action = actionlog.ActionApprovedRefused
		entry.Outcome = "refused: " + refusedForLog + "; " + revokeOutcome(out.revokeErr)
		if lerr := log.Append(entry); lerr != nil && out.logErr == nil {
			out.logErr = lerr
		}
		return out, nil
	})
}

// holdGrant records the session in the state folder before it is first
// used, and keeps the record's tokens those of the session when a
// refresh rotates them.
func holdGrant(store *grants.Store, client *apiclient.Client, e actionlog.Entry, now time.Time) (*grants.Held, error) {
	cfg, sess := client.Config(), client.Session()
	held, err := store.Hold(grants.Grant{BaseURL: cfg.BaseURL, ClientKey: cfg.ClientKey, US: cfg.US, UserID: e.UserID,
		Agent: e.Agent, Ticket: e.Ticket, OpenedAt: now.UTC(), AccessToken: sess.AccessToken, RefreshToken: sess.RefreshToken,
		ExpiresAt: sess.ExpiresAt})
	if err != nil || held == nil {
		return held, err
	}
	client.OnSessionChange(func(sess apiclient.Session) {
		if sess.Valid() {
			if err := held.Update(sess.AccessToken, sess.RefreshToken, sess.ExpiresAt); err != nil {
				slog.Warn("the approved session's record could not be updated", "err", err)
			}
		}
	})
	return held, nil
}

// letGo removes a session's record once the gateway revoked it; one whose
// revoke failed is kept for the next start to try again.
func letGo(held *grants.Held, revokeErr error) {
	if revokeErr != nil {
		held.Close()
		return
	}
	if err := held.Release(); err != nil {
		slog.Warn("the approved session's record could not be removed", "err", err)
	}
}

// logView writes a screen opened in the approved session to the log; a
// session whose views cannot be logged ends (revoked).
func (s *Screen) logView(msg ui.ApprovedViewMsg) tea.Cmd {
	a := s.approval
	if a == nil || !a.open {
		return nil
	}
	log, entry, now := s.log, a.entry, s.Deps.Clock
	entry.Action, entry.Screen, entry.Request, entry.Outcome = actionlog.ActionApprovedView, msg.Title, "", "ok: viewed read-only"
	return func() tea.Msg {
		entry.Time = now().UTC()
		if err := log.Append(entry); err != nil {
			return ui.EndApprovedSessionMsg{Reason: "the " + msg.Title + " screen could not be written to the action log (" + err.Error() + ")"}
		}
		return nil
	}
}

// revoke ends the customer's authorization at the gateway (OAuth revoke).
func revoke(client *apiclient.Client) error {
	ctx, cancel := context.WithTimeout(context.Background(), revokeTimeout)
	defer cancel()
	return client.Revoke(ctx)
}

func revokeOutcome(err error) string {
	if err != nil {
		return "the revoke failed: " + apiclient.ErrorMessage(err)
	}
	return "the customer's approval was revoked"
}

func logProblem(err error) tea.Cmd {
	if err == nil {
		return nil
	}
	return ui.Notify(theme.ToneDanger, "not written to the action log: "+err.Error())
}
