package consent

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
)

// The consent screen's forms: the look-up prompt (u, b), the link form (L)
// and the create form (N). Typed values stay when the gateway refuses.

func cnsBinding(keys, label, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(strings.Split(keys, " ")...), key.WithHelp(label, desc))
}

func cnsInput(st *theme.Styles, value, placeholder string) textinput.Model {
	in := screenkit.NewInput(st)
	in.Prompt = ""
	in.CharLimit = 128
	in.SetWidth(44)
	in.Placeholder = placeholder
	in.SetValue(value)
	in.CursorEnd()
	return in
}

// ---------------------------------------------------------------- look-up

// cnsPrompt asks for a user id or an onboarding id.
type cnsPrompt struct {
	st         *theme.Styles
	onboarding bool
	in         textinput.Model
	keys       help.KeyMap
}

func newCnsPrompt(st *theme.Styles, onboarding bool, value string) *cnsPrompt {
	ph := "user id (UUID); empty means you"
	if onboarding {
		ph = "onboarding id, e.g. onb-demo-001"
	}
	k := []key.Binding{lookUpKey, cancelKey}
	return &cnsPrompt{st: st, onboarding: onboarding, in: cnsInput(st, value, ph),
		keys: ui.KeyMapFunc{Short: func() []key.Binding { return k }}}
}

// The one-field forms follow the app's submit rule: enter (the last and
// only field) or ctrl+s sends, esc leaves.
var (
	lookUpKey = key.NewBinding(key.WithKeys("enter", "ctrl+s"), key.WithHelp("enter/ctrl+s", "look up"))
	linkKey   = key.NewBinding(key.WithKeys("enter", "ctrl+s"), key.WithHelp("enter/ctrl+s", "review and link"))
	cancelKey = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"))
)

func (c *Screen) promptKey(msg tea.KeyPressMsg) tea.Cmd {
	p := c.prompt
	switch {
	case key.Matches(msg, cancelKey):
		c.prompt = nil
		return nil
	case key.Matches(msg, lookUpKey):
		v := strings.TrimSpace(p.in.Value())
		if p.onboarding && v == "" {
			return ui.Notify(theme.ToneInfo, "type an onboarding id")
		}
		c.prompt, c.mode, c.loadErr = nil, cnsMain, nil
		subject := cnsSubject{userID: v}
		if p.onboarding {
			subject = cnsSubject{onboardingID: v}
		}
		c.setData(cnsLoaded{subject: subject})
		return c.load(subject)
	}
	var cmd tea.Cmd
	p.in, cmd = p.in.Update(msg)
	return cmd
}

func (p *cnsPrompt) view(width int) string {
	st := p.st
	title, hint := "Look up a user's consents", "GET /v2/consent/user/{userId}?full=true"
	if p.onboarding {
		title, hint = "Look up an onboarding's consent sets", "GET /v2/consent/onboarding/{onboardingId}"
	}
	return strings.Join([]string{st.Title.Render(title), st.Muted.Render(hint), "",
		ansi.Truncate(st.Accent.Render("› ")+p.in.View(), width, "…"), "", st.Muted.Render("enter looks up · esc cancels")}, "\n")
}

// ---------------------------------------------------------------- link

// cnsLinkForm links one set to a user id.
type cnsLinkForm struct {
	st         *theme.Styles
	set        apiclient.ConsentSet
	in         textinput.Model
	problem    []string
	sending    bool
	confirming bool
	keys       help.KeyMap
}

func (c *Screen) openLink() tea.Cmd {
	if c.busy || c.running() {
		return nil
	}
	set, ok := c.selectedSet()
	if !ok {
		return ui.Notify(theme.ToneInfo, "no consent set selected (b looks up an onboarding)")
	}
	if cmd := c.needSecret(); cmd != nil {
		return cmd
	}
	k := []key.Binding{linkKey, cancelKey}
	c.link = &cnsLinkForm{st: c.deps.Styles, set: set, in: cnsInput(c.deps.Styles, "", "user id to link to (e.g. a UUID)"),
		keys: ui.KeyMapFunc{Short: func() []key.Binding { return k }}}
	return c.link.in.Focus()
}

func (c *Screen) linkKey(msg tea.KeyPressMsg) tea.Cmd {
	f := c.link
	switch {
	case f.sending || f.confirming:
		return nil
	case key.Matches(msg, cancelKey):
		c.link = nil
		return nil
	case key.Matches(msg, linkKey):
		uid := strings.TrimSpace(f.in.Value())
		switch {
		case uid == "":
			f.problem = []string{"a user id is required"}
			return nil
		case strings.ContainsAny(uid, " \t"):
			f.problem = []string{"a user id has no spaces"}
			return nil
		}
		f.problem, f.confirming = nil, true
		return ui.Confirm(ui.ConfirmSpec{
			Title: "Link this consent set to " + uid + "?",
			Request: []string{
				"PATCH /v2/consent/onboarding/" + f.set.ConsentSetID,
				"headers: x-client-key, x-secret-key",
				`body: {"userId": "` + uid + `"}`,
			},
			Lines:        []string{"Linking is recorded in the audit trail and cannot be undone."},
			ConfirmLabel: "link",
			Tone:         theme.ToneWarn,
			OnConfirm:    cnsLinkMsg{setID: f.set.ConsentSetID, userID: uid},
			OnCancel:     cnsCancelMsg{},
		})
	}
	var cmd tea.Cmd
	before := f.in.Value()
	f.in, cmd = f.in.Update(msg)
	if f.in.Value() != before {
		f.problem = nil
	}
	return cmd
}

// failed explains a refusal; the typed user id stays.
func (f *cnsLinkForm) failed(err error) {
	f.sending, f.confirming = false, false
	f.problem = cnsProblem(err)
	if apiclient.IsStatus(err, 409) {
		f.problem = append([]string{"already linked; linking cannot be undone"}, f.problem...)
	}
}

// cnsProblem is an error's message and details, one per line.
func cnsProblem(err error) []string {
	var e *apiclient.Error
	if errors.As(err, &e) && e.Status != 0 {
		out := []string{fmt.Sprintf("%s (%d)", e.Message, e.Status)}
		return append(out, e.Details...)
	}
	return []string{apiclient.ErrorMessage(err)}
}

func (f *cnsLinkForm) view(width int) string {
	st := f.st
	lines := []string{st.Title.Render("Link a consent set to a user"), ""}
	fields := []screenkit.Field{{Label: "consent set", Value: f.set.ConsentSetID}, {Label: "onboarding", Value: f.set.OnboardingID},
		{Label: "policy", Value: f.set.PolicyType}}
	if f.set.Linked() {
		fields = append(fields, screenkit.Field{Label: "linked to", Styled: st.Text(theme.ToneWarn).Render(ui.Sanitize(*f.set.UserID) +
			" already: the gateway will refuse (409)")})
	} else {
		fields = append(fields, screenkit.Field{Label: "linked to", Styled: st.Muted.Render("nobody yet")})
	}
	lines = append(lines, strings.Split(screenkit.RenderFields(st, fields, width), "\n")...)
	lines = append(lines, "", ansi.Truncate(st.Accent.Render("› ")+st.Label.Render("userId  ")+f.in.View(), width, "…"))
	for _, p := range f.problem {
		lines = append(lines, st.Text(theme.ToneDanger).Render(ansi.Truncate("  ✗ "+ui.Sanitize(p), width, "…")))
	}
	switch {
	case f.sending:
		lines = append(lines, "", st.Muted.Render("Linking…"))
	default:
		lines = append(lines, "", st.Muted.Render("Linking cannot be undone. enter reviews the request · esc cancels"))
	}
	return strings.Join(lines, "\n")
}
