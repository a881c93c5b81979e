package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"cardterm/theme"
	"cardterm/ui/sanitize"
)

// FormatRemaining renders a session's time left for the status bar in
// the app's one way of writing spans (domain/humantime, which ui does
// not import): "5 h 59 min", "6 h", "12 min", "under 1 min" or "expired".
func FormatRemaining(d time.Duration) string {
	switch {
	case d <= 0:
		return "expired"
	case d < time.Minute:
		return "under 1 min"
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d/time.Minute))
	}
	h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
	if m == 0 {
		return fmt.Sprintf("%d h", h)
	}
	return fmt.Sprintf("%d h %d min", h, m)
}

// sandboxTime is the sandbox's time for the status bar while its clock
// was moved away from ours (cardterm sandbox clock), "" otherwise.
func (r *Root) sandboxTime() string {
	if r.opts.SandboxShift == nil || r.opts.Now == nil {
		return ""
	}
	shift, ok := r.opts.SandboxShift()
	if !ok {
		return ""
	}
	return "sandbox time " + r.opts.Now().Add(shift).UTC().Format("2006-01-02 15:04") + " UTC"
}

// statusNoticeRoom is what the client key leaves on the status bar for a
// short notice at its right.
const statusNoticeRoom = 30

// statusLeft is the left part of the status bar: profile, gateway,
// region, mode, client key, user, session and the spinner. The client key
// is cut in its middle only when the terminal is too narrow for it whole
// (and at least 16 cells are always given to it).
func (r *Root) statusLeft() string {
	st := r.st
	left, keyAt := r.statusItems()
	sep := st.StatusBar.Render(" ")
	if keyAt >= 0 {
		others := ansi.StringWidth(strings.Join(left, sep)) + 1
		room := max(16, r.width-others-len("key ")-statusNoticeRoom)
		left[keyAt] = st.StatusItem.Render("key " + Shorten(sanitize.Text(r.opts.ClientKey), room))
	}
	return strings.Join(left, sep)
}

// statusItems are the status bar's left items, the client key's place
// left empty (keyAt, -1 for none) for statusLeft to fill to the room.
func (r *Root) statusItems() (left []string, keyAt int) {
	st := r.st
	keyAt = -1
	if r.opts.Profile != "" {
		left = append(left, st.StatusItem.Bold(true).Render("profile "+sanitize.Text(r.opts.Profile)))
	}
	if r.opts.Sandbox || r.opts.Gateway == "SANDBOX" {
		left = append(left, st.SandboxTag.Render("SANDBOX"))
		if at := r.sandboxTime(); at != "" {
			left = append(left, st.Badge(at, theme.ToneWarn))
		}
	} else if r.opts.Gateway != "" {
		left = append(left, st.StatusItem.Render(sanitize.Text(r.opts.Gateway)))
	}
	// A --base-url gateway whose answers announced the sandbox, with no
	// environment named, is not called production.
	announced := !r.opts.Sandbox && r.opts.Environment == "" && r.opts.Announced != nil && r.opts.Announced()
	switch {
	case announced:
		left = append(left, st.SandboxTag.Render("SANDBOX"))
	case r.opts.Production:
		left = append(left, st.Badge("PRODUCTION", theme.ToneDanger))
	case r.opts.Environment != "":
		left = append(left, st.StatusItem.Render(sanitize.Text(r.opts.Environment)))
	}
	if r.opts.ClientKey != "" {
		keyAt = len(left)
		left = append(left, "")
	}
	switch {
	case r.approved != nil && r.approved.region != "":
		// The customer's session lives on one region, whatever the app's.
		left = append(left, st.Badge(sanitize.Text(r.approved.region), theme.ToneInfo))
	case r.opts.US:
		left = append(left, st.Badge("US", theme.ToneInfo))
	}
	if r.opts.ReadOnly {
		left = append(left, st.Badge("READ-ONLY", theme.ToneWarn))
	}
	if r.opts.Session != nil && r.signedIn {
		if user, exp, ok := r.opts.Session(); ok {
			if user != "" {
				left = append(left, st.StatusItem.Render(sanitize.Text(user)))
			}
			if !exp.IsZero() {
				left = append(left, st.StatusItem.Render("session "+FormatRemaining(exp.Sub(r.opts.Now()))))
			}
		}
	}
	if r.opts.Requests.InFlight() > 0 {
		left = append(left, st.StatusItem.Render(r.spin.View()))
	}
	return left, keyAt
}

// renderStatus draws the one-line status bar, exactly r.width cells: the
// left part, and the notice at the right when it fits there whole (a longer
// one has lines of its own above the bar).
func (r *Root) renderStatus() string {
	k := newFrameKey()
	k.num(r.width)
	k.flag(r.signedIn)
	if r.opts.Session != nil && r.signedIn {
		if user, exp, ok := r.opts.Session(); ok {
			k.str(user)
			if !exp.IsZero() {
				k.str(FormatRemaining(exp.Sub(r.opts.Now())))
			}
		}
	}
	if r.opts.Requests.InFlight() > 0 {
		k.str(r.spin.View())
	}
	k.str(r.sandboxTime())
	n, visible := r.visibleNotice()
	k.flag(visible)
	k.str(n.Text)
	k.num(int(n.Tone))
	k.num(len(r.noticeLines))
	return r.statusCache.get(k.h, r.drawStatus)
}

// drawStatus draws the status bar (renderStatus caches it).
func (r *Root) drawStatus() string {
	st := r.st
	l := r.statusLeft()
	lw := ansi.StringWidth(l)
	var right string
	if n, ok := r.visibleNotice(); ok && len(r.noticeLines) == 0 {
		if room := r.width - lw - 3; room > 0 {
			txt := ansi.Truncate(n.Text, room, "…")
			right = st.StatusBar.Render(" ") + st.Text(n.Tone).Inherit(st.StatusBar).Render(txt) + st.StatusBar.Render(" ")
		}
	}
	rw := ansi.StringWidth(right)
	gap := r.width - lw - rw
	if gap < 0 {
		return FitLine(l, r.width)
	}
	return l + st.StatusBar.Render(strings.Repeat(" ", gap)) + right
}
