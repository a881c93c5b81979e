package consent

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// detailView is one consent set, a layer over the main view: its fields,
// every record (the originals a revocation superseded included) with
// their metadata, and its _links. It scrolls; its lines are built when the
// set or the size changes, so View only cuts the visible part. The
// screen's keys that act on a set (a, L) act on this one.
type detailView struct {
	panel
	st     *theme.Styles
	keys   detailKeys
	set    apiclient.ConsentSet
	found  bool // false once a reload no longer lists the set
	lines  []string
	scroll int
	now    func() time.Time // the app's clock, for how long ago a date was
}

func newDetailView(s *Screen, set apiclient.ConsentSet) *detailView {
	return &detailView{panel: s.newPanel(), st: s.Deps.Styles, keys: newDetailKeys(s.keys), set: set, found: true, now: s.Deps.Clock}
}

// follow finds the open set again in reloaded sets.
func (v *detailView) follow(sets []apiclient.ConsentSet) {
	i := slices.IndexFunc(sets, func(s apiclient.ConsentSet) bool { return s.ConsentSetID == v.set.ConsentSetID })
	v.found = i >= 0
	if v.found {
		v.set = sets[i]
	}
	v.build()
}

// Update implements layer.Layer: the screen's answer to a look-up
// (which the screen took first) is followed, r reads the subject again,
// the wheel scrolls.
func (v *detailView) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case ui.Result[loaded]:
		if msg.ID == v.s.loadID && msg.Err == nil {
			v.follow(v.s.sets)
		}
	case ui.RefreshMsg:
		return v.s.load(v.s.subject)
	case ui.BodyMouseMsg:
		v.scroll += msg.Wheel * screenkit.WheelLines
		v.clampScroll()
	case tea.KeyPressMsg:
		return v.key(msg)
	}
	return nil
}

// key acts on the set (look-ups, the audit trail, link, new) or scrolls;
// esc closes.
func (v *detailView) key(k tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(k, v.keys.Back):
		v.closed = true
	case key.Matches(k, v.keys.User):
		return v.s.openLookup(false)
	case key.Matches(k, v.keys.Onboarding):
		return v.s.openLookup(true)
	case key.Matches(k, v.keys.Audit):
		return v.s.openAuditOf(v.set, v.found)
	case key.Matches(k, v.keys.Link):
		return v.s.openLink(v.set)
	case key.Matches(k, v.keys.New):
		return v.s.openCreate()
	case key.Matches(k, v.keys.Up):
		v.scroll--
	case key.Matches(k, v.keys.Down):
		v.scroll++
	case key.Matches(k, v.keys.PageUp):
		v.scroll -= max(v.height-1, 1)
	case key.Matches(k, v.keys.PageDown):
		v.scroll += max(v.height-1, 1)
	case key.Matches(k, v.keys.Top):
		v.scroll = 0
	case key.Matches(k, v.keys.Bottom):
		v.scroll = len(v.lines)
	}
	v.clampScroll()
	return nil
}

func (v *detailView) clampScroll() {
	v.scroll = max(min(v.scroll, len(v.lines)-v.height), 0)
}

// SetSize implements layer.Layer.
func (v *detailView) SetSize(width, height int) {
	v.panel.SetSize(width, height)
	v.build()
}

// View implements layer.Layer.
func (v *detailView) View() string {
	return ui.FitBlock(strings.Join(v.lines[v.scroll:], "\n"), v.width, v.height)
}

// KeyMap implements layer.Layer.
func (v *detailView) KeyMap() help.KeyMap { return v.keys }

// CopyValue implements ui.Copier: the set's id.
func (v *detailView) CopyValue() (label, value string, ok bool) {
	return "consent set id", v.set.ConsentSetID, v.found
}

// Inspect implements ui.Inspectable: the set as the gateway sent it.
func (v *detailView) Inspect() (string, []byte, bool) {
	if !v.found {
		return "", nil, false
	}
	return screenkit.Inspected("consent set "+v.set.ConsentSetID, v.set.Raw)
}

// build lays the set out in the width.
func (v *detailView) build() {
	st, set, width := v.st, v.set, v.width
	if !v.found {
		v.lines = []string{st.Muted.Render("The consent set is no longer listed (" + v.keys.Back.Help().Key + " goes back).")}
		v.clampScroll()
		return
	}
	status := apiclient.SetConsentStatus(set)
	lines := []string{ui.FitLine(st.Title.Render("Consent set")+"  "+screenkit.Badge(st, status, aggregateTones.Of(status))+
		"  "+st.Muted.Render("this set's own status"), width), ""}
	user := screenkit.Field{Label: "User ID", Value: screenkit.OrDash(set.UserID)}
	if !set.Linked() {
		user.Styled = st.Text(theme.ToneWarn).Render("unlinked")
		if v.keys.Link.Enabled() { // read-only mode names no key that links
			user.Styled += st.Muted.Render(" (L links it to a user, once)")
		}
	}
	fields := []screenkit.Field{
		{Label: "Consent set ID", Value: set.ConsentSetID}, user,
		{Label: "Onboarding ID", Value: set.OnboardingID}, {Label: "Tenant", Value: set.TenantID},
		{Label: "Policy", Value: set.PolicyType + "  (requires " + strings.Join(apiclient.RequiredConsentTypes(set.PolicyType), ", ") + ")"},
		{Label: "Completed", Value: screenkit.FormatTimeAgo(screenkit.OrDash(set.CompletedAt), v.now())},
		{Label: "Created", Value: screenkit.FormatTimeAgo(set.CreatedAt, v.now())},
		{Label: "Updated", Value: screenkit.FormatTimeAgo(set.UpdatedAt, v.now())},
	}
	fields = append(fields, screenkit.ExtraFields(set.Extra)...)
	lines = append(lines, strings.Split(screenkit.RenderFields(st, fields, width), "\n")...)
	lines = append(lines, v.consentLines()...)
	lines = append(lines, v.linkLines()...)
	v.lines = lines
	v.clampScroll()
}

// consentLines are every record of the set, in force or superseded, each
// with its metadata.
func (v *detailView) consentLines() []string {
	st, set, width := v.st, v.set, v.width
	current := apiclient.CurrentConsents(set)
	lines := []string{"", st.Subtitle.Render(fmt.Sprintf("Consents: %d %s, %d in force", len(set.Consents),
		screenkit.Plural(len(set.Consents), "record", "records"), len(current)))}
	for _, k := range set.Consents {
		inForce := slices.ContainsFunc(current, func(x apiclient.Consent) bool { return x.ConsentID == k.ConsentID })
		state := st.Text(theme.ToneOK).Render("in force")
		if !inForce {
			state = st.Muted.Render("superseded (kept)")
		}
		lines = append(lines, ansi.Truncate("• "+st.Value.Render(screenkit.PadRight(sanitize.Text(k.ConsentType), 22))+" "+
			st.Text(consentTones.Of(k.ConsentStatus)).Render(screenkit.PadRight(sanitize.Text(statusText(k.ConsentStatus)), 10))+" "+
			st.Muted.Render(requiredText(set.PolicyType, k.ConsentType))+"  "+state, width, "…"))
		meta := [][]string{{"id " + k.ConsentID, "updated " + screenkit.FormatTime(k.UpdatedAt)}, nil, nil}
		if m := k.Metadata; m != nil {
			for _, p := range [][2]string{{"ip", m.IPAddress}, {"client", m.ClientID}, {"at", screenkit.FormatTime(m.Timestamp)}} {
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
				lines = append(lines, st.Muted.Render(ansi.Truncate("    "+sanitize.Text(strings.Join(parts, " · ")), width, "…")))
			}
		}
	}
	return lines
}

// linkLines are the set's _links, by name.
func (v *detailView) linkLines() []string {
	st, width := v.st, v.width
	if len(v.set.Links) == 0 {
		return nil
	}
	lines := []string{"", st.Subtitle.Render("Links")}
	names := make([]string, 0, len(v.set.Links))
	for n := range v.set.Links {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		label := st.Label.Render(screenkit.PadRight(sanitize.Text(n), 12)) + " "
		value := st.Muted.Render("null")
		if l := v.set.Links[n]; l != nil {
			// The path is an id of sorts: short of room it loses its middle.
			method := sanitize.Text(l.Method) + " "
			room := max(width-ansi.StringWidth(label)-ansi.StringWidth(method), 0)
			value = st.Value.Render(method + ui.Shorten(sanitize.Text(l.Href), room))
		}
		lines = append(lines, ansi.Truncate(label+value, width, "…"))
	}
	return lines
}

// Inspect implements ui.Inspectable: the selected row's set, as the
// gateway sent it.
func (s *Screen) Inspect() (string, []byte, bool) {
	set, ok := s.selectedSet()
	if !ok {
		return "", nil, false
	}
	return screenkit.Inspected("consent set "+set.ConsentSetID, set.Raw)
}
