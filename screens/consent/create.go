package consent

import (
	"fmt"
	"slices"
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

// cnsCreateForm creates a consent set: an onboarding id, the policy and,
// per consent type, granted, denied or left out.
type cnsCreateForm struct {
	st         *theme.Styles
	onboarding textinput.Model
	policy     string
	choice     map[string]string // consent type -> granted, denied or "" (left out)
	pos        int               // 0 onboarding id, 1 policy, 2.. consent types
	problem    []string
	sending    bool
	confirming bool
	keys       cnsCreateKeys
}

// cnsCreateKeys are the create form's bindings.
type cnsCreateKeys struct{ Next, Prev, Change, Send, Cancel key.Binding }

// ShortHelp implements help.KeyMap.
func (k cnsCreateKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Next, k.Change, k.Send, k.Cancel}
}

// FullHelp implements help.KeyMap.
func (k cnsCreateKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Next, k.Prev}, {k.Change, k.Send, k.Cancel}}
}

var _ help.KeyMap = cnsCreateKeys{}

func newCnsCreateForm(st *theme.Styles, onboarding string) *cnsCreateForm {
	return &cnsCreateForm{st: st, onboarding: cnsInput(st, onboarding, "onboarding id, e.g. onb-2026-0042"),
		policy: apiclient.ConsentPolicyGlobal,
		choice: map[string]string{apiclient.ConsentTermsPrivacy: apiclient.ConsentGranted,
			apiclient.ConsentMarketing: apiclient.ConsentGranted, apiclient.ConsentEmail: apiclient.ConsentGranted},
		keys: cnsCreateKeys{
			Next:   cnsBinding("tab down", "tab/↓", "next"),
			Prev:   cnsBinding("shift+tab up", "shift+tab/↑", "previous"),
			Change: cnsBinding("space left right", "space/←/→", "change"),
			Send:   cnsBinding("ctrl+s", "ctrl+s", "review and create"),
			Cancel: cnsBinding("esc", "esc", "cancel"),
		}}
}

func (f *cnsCreateForm) focus() tea.Cmd {
	if f.pos == 0 {
		return f.onboarding.Focus()
	}
	f.onboarding.Blur()
	return nil
}

// body is what will be sent.
func (f *cnsCreateForm) body() apiclient.NewConsentSet {
	b := apiclient.NewConsentSet{OnboardingID: strings.TrimSpace(f.onboarding.Value()), PolicyType: f.policy,
		Metadata: map[string]any{"source": "cardterm"}}
	for _, t := range apiclient.ConsentTypes {
		if s := f.choice[t]; s != "" {
			b.Consents = append(b.Consents, apiclient.NewConsent{ConsentType: t, ConsentStatus: s})
		}
	}
	return b
}

// change moves the focused choice on (dir +1 or -1).
func (f *cnsCreateForm) change(dir int) {
	switch {
	case f.pos == 1:
		if f.policy == apiclient.ConsentPolicyGlobal {
			f.policy = apiclient.ConsentPolicyUS
			if f.choice[apiclient.ConsentESignAct] == "" {
				f.choice[apiclient.ConsentESignAct] = apiclient.ConsentGranted
			}
		} else {
			f.policy = apiclient.ConsentPolicyGlobal
		}
	case f.pos >= 2:
		cycle := []string{apiclient.ConsentGranted, apiclient.ConsentDenied, ""}
		t := apiclient.ConsentTypes[f.pos-2]
		i := slices.Index(cycle, f.choice[t])
		f.choice[t] = cycle[(i+dir+len(cycle))%len(cycle)]
	}
}

func (c *Screen) createKey(msg tea.KeyPressMsg) tea.Cmd {
	f := c.create
	last := 1 + len(apiclient.ConsentTypes)
	switch {
	case f.sending || f.confirming:
		return nil
	case key.Matches(msg, f.keys.Cancel):
		c.create = nil
		return nil
	case key.Matches(msg, f.keys.Send), msg.String() == "enter" && f.pos == last:
		return c.confirmCreate()
	case key.Matches(msg, f.keys.Next), msg.String() == "enter":
		f.pos = min(f.pos+1, last)
		return f.focus()
	case key.Matches(msg, f.keys.Prev):
		f.pos = max(f.pos-1, 0)
		return f.focus()
	case f.pos > 0 && key.Matches(msg, f.keys.Change):
		dir := 1
		if msg.String() == "left" {
			dir = -1
		}
		f.change(dir)
		return nil
	case f.pos > 0:
		return nil
	}
	var cmd tea.Cmd
	before := f.onboarding.Value()
	f.onboarding, cmd = f.onboarding.Update(msg)
	if f.onboarding.Value() != before {
		f.problem = nil
	}
	return cmd
}

// confirmCreate checks the form and shows the request.
func (c *Screen) confirmCreate() tea.Cmd {
	f := c.create
	b := f.body()
	switch {
	case b.OnboardingID == "":
		f.problem, f.pos = []string{"an onboarding id is required"}, 0
		return f.focus()
	case len(b.Consents) == 0:
		f.problem = []string{"include at least one consent"}
		return nil
	}
	var given []string
	for _, k := range b.Consents {
		given = append(given, k.ConsentType+" "+k.ConsentStatus)
	}
	request := []string{"POST /v2/consent/onboarding", "headers: x-client-key, x-secret-key",
		fmt.Sprintf("onboardingId %s · policyType %s", b.OnboardingID, b.PolicyType), "consents: " + strings.Join(given, ", ")}
	var lines []string
	tone := theme.ToneInfo
	for _, t := range apiclient.RequiredConsentTypes(b.PolicyType) {
		if f.choice[t] != apiclient.ConsentGranted {
			lines = append(lines, fmt.Sprintf("%s is required by the %s policy and is not granted: the set will be incomplete.", t, b.PolicyType))
			tone = theme.ToneWarn
		}
	}
	lines = append(lines, "The new set is unlinked; L links it to a user.")
	f.problem, f.confirming = nil, true
	return ui.Confirm(ui.ConfirmSpec{Title: "Create a consent set for " + b.OnboardingID + "?", Request: request, Lines: lines,
		ConfirmLabel: "create", Tone: tone, OnConfirm: cnsCreateMsg{body: b}, OnCancel: cnsCancelMsg{}})
}

// failed shows the gateway's refusal; the form keeps every choice.
func (f *cnsCreateForm) failed(err error) {
	f.sending, f.confirming = false, false
	f.problem = cnsProblem(err)
}

func (f *cnsCreateForm) view(width int) string {
	st := f.st
	lines := []string{st.Title.Render("New consent set"), st.Muted.Render("POST /v2/consent/onboarding · the set starts unlinked"), ""}
	row := func(i int, label, value string) string {
		marker, lst := "  ", st.Label
		if i == f.pos {
			marker, lst = st.Accent.Render("› "), st.Accent
		}
		return ansi.Truncate(marker+lst.Render(screenkit.PadRight(label, 24))+" "+value, width, "…")
	}
	lines = append(lines, row(0, "onboardingId", f.onboarding.View()))
	pol := "global   us"
	if f.policy == apiclient.ConsentPolicyUS {
		pol = st.Muted.Render("global") + "   " + st.Value.Render("[us]")
	} else {
		pol = st.Value.Render("[global]") + "   " + st.Muted.Render("us")
	}
	lines = append(lines, row(1, "policyType", pol), "")
	for i, t := range apiclient.ConsentTypes {
		label := t
		if apiclient.IsRequiredConsent(f.policy, t) {
			label += " *"
		}
		v := st.Muted.Render("left out")
		if s := f.choice[t]; s != "" {
			v = st.Text(cnsConsentTone(s)).Render(cnsStatusText(s))
		}
		lines = append(lines, row(i+2, label, v))
	}
	lines = append(lines, "", st.Muted.Render("* required by the "+f.policy+" policy"))
	for _, p := range f.problem {
		lines = append(lines, st.Text(theme.ToneDanger).Render(ansi.Truncate("✗ "+ui.Sanitize(p), width, "…")))
	}
	if f.sending {
		lines = append(lines, st.Muted.Render("Creating…"))
	} else {
		lines = append(lines, st.Muted.Render("tab moves · space changes · ctrl+s reviews and creates · esc cancels"))
	}
	return strings.Join(lines, "\n")
}
