package screens

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/theme"
	"cardterm/ui"
)

// accountKeys are the account screen's bindings (refresh and copy are
// global keys; this screen only says what they do here).
type accountKeys struct {
	Refresh, Copy key.Binding
}

func (k accountKeys) ShortHelp() []key.Binding  { return []key.Binding{k.Refresh, k.Copy} }
func (k accountKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// Account shows the signed-in user's profile and verification state.
type Account struct {
	deps   Deps
	keys   accountKeys
	loadID ui.RequestID
	user   *apiclient.User
	err    error
	busy   bool
}

// NewAccount builds the account screen.
func NewAccount(deps Deps) *Account {
	return &Account{deps: deps, keys: accountKeys{
		Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reload profile")),
		Copy:    key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy user id")),
	}}
}

// ID implements ui.Screen.
func (a *Account) ID() ui.ScreenID { return ui.ScreenAccount }

// Title implements ui.Screen.
func (a *Account) Title() string { return "Account" }

// KeyMap implements ui.Screen.
func (a *Account) KeyMap() help.KeyMap { return a.keys }

// CapturesKeys implements ui.Screen; the account screen has no inputs.
func (a *Account) CapturesKeys() bool { return false }

// Enter loads the profile.
func (a *Account) Enter() tea.Cmd { return a.load() }

func (a *Account) load() tea.Cmd {
	client := a.deps.Client
	a.busy = true
	var cmd tea.Cmd
	a.loadID, cmd = ui.Go(a.deps.Requests, func(ctx context.Context) (apiclient.User, error) {
		return client.User(ctx)
	})
	return cmd
}

// Update implements ui.Screen.
func (a *Account) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case ui.Result[apiclient.User]:
		if msg.ID != a.loadID {
			return a, nil
		}
		a.busy = false
		if msg.Err != nil {
			a.err = msg.Err
			return a, failed("loading the profile", msg.Err)
		}
		a.user, a.err = &msg.Value, nil
	case ui.RefreshMsg:
		return a, a.load()
	case ui.SignedOutMsg, ui.SessionExpiredMsg:
		a.user, a.err = nil, nil
	}
	return a, nil
}

// CopyValue offers the user id to the global copy key.
func (a *Account) CopyValue() (label, value string, ok bool) {
	if a.user == nil {
		return "", "", false
	}
	return "user id", a.user.ID, true
}

// View implements ui.Screen.
func (a *Account) View(width, height int) string {
	st := a.deps.Styles
	var b strings.Builder
	b.WriteString(st.Title.Render("Account") + "\n\n")
	switch {
	case a.user == nil && a.busy:
		b.WriteString(st.Muted.Render("Loading profile…"))
	case a.user == nil && a.err != nil:
		b.WriteString(st.Text(theme.ToneDanger).Render("Could not load the profile: " + ui.Sanitize(apiclient.ErrorMessage(a.err))))
		b.WriteString("\n" + st.Muted.Render("r retries"))
	case a.user != nil:
		b.WriteString(a.userView(width))
	}
	return place(b.String(), width, height)
}

func (a *Account) userView(width int) string {
	st := a.deps.Styles
	u := a.user
	name := strings.TrimSpace(u.FirstName + " " + u.LastName)
	phone := strings.TrimSpace(u.PhoneCountryCode + " " + u.PhoneNumber)
	address := u.AddressLine1
	if line2 := orDash(u.AddressLine2); line2 != "" {
		address += ", " + line2
	}
	city := strings.TrimSpace(u.Zip + " " + u.City)
	session := "—"
	if sess := a.deps.Client.Session(); sess.Valid() {
		left := sess.ExpiresAt.Sub(a.deps.now())
		session = "expires " + sess.ExpiresAt.Local().Format("2006-01-02 15:04") + " (in " + formatLeft(left) + ")"
	}
	fields := []field{
		{label: "Name", value: name},
		{label: "Verification", styled: badge(st, u.VerificationState, verificationTone(u.VerificationState)) + " " + st.Muted.Render(verificationHint(u.VerificationState))},
		{label: "Email", value: u.Email},
		{label: "Date of birth", value: u.DateOfBirth},
		{label: "Phone", value: phone},
		{label: "Address", value: address},
		{label: "City", value: city},
		{label: "Residence", value: u.CountryOfResidence},
		{label: "Nationality", value: u.CountryOfNationality},
		{label: "US state", value: orDash(u.USState)},
		{label: "SSN", value: orDash(u.SSN)},
		{label: "Created", value: u.CreatedAt},
		{label: "User id", value: u.ID},
		{label: "Session", value: session},
	}
	body := renderFields(st, fields, width)
	if extra := extraFields(u.Extra); len(extra) > 0 {
		body += "\n\n" + section(st, "Also sent by the gateway", renderFields(st, extra, width))
	}
	return body
}

// verificationHint says what a verification state means for the user.
func verificationHint(state string) string {
	switch state {
	case apiclient.VerificationVerified:
		return "card and wallet operations available"
	case apiclient.VerificationPending:
		return "identity check in progress; most card operations wait for it"
	case apiclient.VerificationUnverified:
		return "identity not verified; most card and wallet operations are refused"
	case apiclient.VerificationRejected:
		return "identity check rejected; contact support"
	}
	return "state not known to this version of cardterm"
}
