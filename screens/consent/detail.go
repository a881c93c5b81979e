package consent

import (
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
)

// The detail view of one consent set: its fields, every record (the
// originals a revocation superseded included) with their metadata, and its
// _links. It scrolls with the arrows.

func (c *Screen) detailKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "esc":
		c.mode = cnsMain
	case "up", "k":
		c.detailScroll--
	case "down", "j":
		c.detailScroll++
	case "pgup":
		c.detailScroll -= 10
	case "pgdown", "space":
		c.detailScroll += 10
	case "home", "g":
		c.detailScroll = 0
	case "end", "G":
		c.detailScroll = 1 << 20
	}
	c.detailScroll = max(c.detailScroll, 0)
	return nil
}

// cnsWhenTime parses a timestamp; the zero time when unreadable.
func cnsWhenTime(ts string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return time.Time{}
	}
	return t
}

func (c *Screen) detailView(width, height int) string {
	st := c.deps.Styles
	set, ok := c.selectedSet()
	if !ok {
		return screenkit.Place(st.Muted.Render("The consent set is no longer listed (esc goes back)."), width, height)
	}
	status := apiclient.SetConsentStatus(set)
	lines := []string{ui.FitLine(st.Title.Render("Consent set")+"  "+screenkit.Badge(st, status, cnsStatusTone(status))+
		"  "+st.Muted.Render("this set's own status"), width), ""}
	user := screenkit.Field{Label: "userId", Value: screenkit.OrDash(set.UserID)}
	if !set.Linked() {
		user.Styled = st.Text(theme.ToneWarn).Render("unlinked") + st.Muted.Render(" (L links it to a user, once)")
	}
	fields := []screenkit.Field{
		{Label: "consentSetId", Value: set.ConsentSetID}, user,
		{Label: "onboardingId", Value: set.OnboardingID}, {Label: "tenantId", Value: set.TenantID},
		{Label: "policyType", Value: set.PolicyType + "  (requires " + strings.Join(apiclient.RequiredConsentTypes(set.PolicyType), ", ") + ")"},
		{Label: "completedAt", Value: screenkit.OrDash(set.CompletedAt)}, {Label: "createdAt", Value: set.CreatedAt},
		{Label: "updatedAt", Value: set.UpdatedAt},
	}
	fields = append(fields, screenkit.ExtraFields(set.Extra)...)
	lines = append(lines, strings.Split(screenkit.RenderFields(st, fields, width), "\n")...)

	current := apiclient.CurrentConsents(set)
	lines = append(lines, "", st.Subtitle.Render(fmt.Sprintf("Consents: %d %s, %d in force", len(set.Consents),
		screenkit.Plural(len(set.Consents), "record", "records"), len(current))))
	for _, k := range set.Consents {
		inForce := slices.ContainsFunc(current, func(x apiclient.Consent) bool { return x.ConsentID == k.ConsentID })
		req := "optional"
		if apiclient.IsRequiredConsent(set.PolicyType, k.ConsentType) {
			req = "required"
		}
		state := st.Text(theme.ToneOK).Render("in force")
		if !inForce {
			state = st.Muted.Render("superseded (kept)")
		}
		lines = append(lines, ansi.Truncate("• "+st.Value.Render(screenkit.PadRight(ui.Sanitize(k.ConsentType), 22))+" "+
			st.Text(cnsConsentTone(k.ConsentStatus)).Render(screenkit.PadRight(ui.Sanitize(cnsStatusText(k.ConsentStatus)), 10))+" "+
			st.Muted.Render(req)+"  "+state, width, "…"))
		meta := [][]string{{"id " + k.ConsentID, "updated " + cnsWhen(k.UpdatedAt)}, nil, nil}
		if m := k.Metadata; m != nil {
			for _, p := range [][2]string{{"ip", m.IPAddress}, {"client", m.ClientID}, {"at", m.Timestamp}} {
				if p[1] != "" {
					meta[1] = append(meta[1], p[0]+" "+p[1])
				}
			}
			if m.UserAgent != "" {
				meta[2] = []string{"agent " + m.UserAgent}
			}
			for _, f := range screenkit.ExtraFields(m.Extra) {
				meta[1] = append(meta[1], f.Label+" "+f.Value)
			}
		}
		for _, parts := range meta {
			if len(parts) > 0 {
				lines = append(lines, st.Muted.Render(ansi.Truncate("    "+ui.Sanitize(strings.Join(parts, " · ")), width, "…")))
			}
		}
	}
	if len(set.Links) > 0 {
		lines = append(lines, "", st.Subtitle.Render("Links"))
		names := make([]string, 0, len(set.Links))
		for n := range set.Links {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			l := set.Links[n]
			v := st.Muted.Render("null")
			if l != nil {
				v = st.Value.Render(ui.Sanitize(l.Method + " " + l.Href))
			}
			lines = append(lines, ansi.Truncate(st.Label.Render(screenkit.PadRight(ui.Sanitize(n), 12))+" "+v, width, "…"))
		}
	}
	c.detailScroll = min(c.detailScroll, max(len(lines)-height, 0))
	return screenkit.Place(strings.Join(lines[c.detailScroll:], "\n"), width, height)
}

// cnsConsentTone colours one consent's status.
func cnsConsentTone(s string) theme.Tone {
	switch s {
	case apiclient.ConsentGranted:
		return theme.ToneOK
	case apiclient.ConsentDenied:
		return theme.ToneWarn
	case apiclient.ConsentRevoked:
		return theme.ToneDanger
	}
	return theme.ToneNeutral
}

// Inspect implements ui.Inspectable: the set the keys act on, as the
// gateway sent it.
func (c *Screen) Inspect() (string, []byte, bool) {
	set, ok := c.selectedSet()
	if !ok {
		return "", nil, false
	}
	return screenkit.Inspected("consent set "+set.ConsentSetID, set.Raw)
}
