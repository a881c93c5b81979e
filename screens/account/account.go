// Package account is the Account screen: the signed-in user's profile and
// verification state, and the session's expiry.
package account

import (
	"cardterm/ui/keymap"

	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// accountKeys are the account screen's bindings (refresh and copy are
// global keys; this screen only says what they do here).
type accountKeys struct {
	Refresh, Copy key.Binding
}

func (k accountKeys) ShortHelp() []key.Binding  { return []key.Binding{k.Refresh, k.Copy} }
func (k accountKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// Screen shows the signed-in user's profile and verification state.
type Screen struct {
	screenkit.Base
	keys   accountKeys
	loadID ui.RequestID
	user   *apiclient.User
	err    error
	busy   bool
	// profile keeps the user's fields as drawn (userView).
	profile screenkit.Piece[profileKey]
}

// New builds the account screen.
func New(deps screenkit.Deps) *Screen {
	return &Screen{Base: screenkit.NewBase(deps, screenkit.AccountScreen, "Account"), keys: accountKeys{
		Refresh: keymap.Bind("account.refresh"),
		Copy:    keymap.Bind("account.copy"),
	}}
}

// KeyMap implements ui.Screen.
func (a *Screen) KeyMap() help.KeyMap { return a.keys }

// CapturesKeys implements ui.Screen; the account screen has no inputs.
func (a *Screen) CapturesKeys() bool { return false }

// Enter loads the profile.
func (a *Screen) Enter() tea.Cmd { return a.load() }

func (a *Screen) load() tea.Cmd {
	a.busy = true
	return ui.Start(a.Requests, &a.loadID, a.Deps.Client.User)
}

// Update implements ui.Screen.
func (a *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case ui.Result[apiclient.User]:
		if msg.ID != a.loadID {
			return a, nil
		}
		a.busy = false
		if msg.Err != nil {
			a.err = msg.Err
			return a, screenkit.Failed("loading the profile", msg.Err)
		}
		a.user, a.err = &msg.Value, nil
	case ui.RefreshMsg:
		return a, a.load()
	}
	return a, nil
}

// CopyValue offers the user id to the global copy key.
func (a *Screen) CopyValue() (label, value string, ok bool) {
	if a.user == nil {
		return "", "", false
	}
	return "user id", a.user.ID, true
}

// SetSize implements ui.Screen.
func (a *Screen) SetSize(width, height int) { a.Width, a.Height = width, height }

// View implements ui.Screen.
func (a *Screen) View() string {
	st, width, height := a.Deps.Styles, a.Width, a.Height
	var b strings.Builder
	b.WriteString(st.Title.Render("Account") + "\n\n")
	switch {
	case a.user == nil && a.busy:
		b.WriteString(st.Muted.Render("Loading profile…"))
	case a.user == nil && a.err != nil:
		b.WriteString(st.Text(theme.ToneDanger).Render("Could not load the profile: " + sanitize.Text(apiclient.ErrorMessage(a.err))))
		b.WriteString("\n" + st.Muted.Render("r retries"))
	case a.user != nil:
		b.WriteString(a.userView(width))
	}
	return screenkit.Place(b.String(), width, height)
}

// profileKey is what the profile is drawn from: the user (a new value on
// every read), the width, the theme and the session's expiry with the
// time left as the profile writes it (minutes, or seconds in the last one).
type profileKey struct {
	user      *apiclient.User
	width     int
	theme     screenkit.ThemeKey
	expires   time.Time
	sessionOK bool
	left      time.Duration
}

// userView is the profile, drawn again only when what it shows changes.
func (a *Screen) userView(width int) string {
	sess := a.Deps.Client.Session()
	key := profileKey{user: a.user, width: width, theme: screenkit.ThemeOf(a.Deps.Styles), expires: sess.ExpiresAt, sessionOK: sess.Valid()}
	if key.sessionOK && !sess.ExpiresAt.IsZero() {
		key.left = shownLeft(sess.ExpiresAt.Sub(a.Deps.Clock()))
	}
	return a.profile.Get(key, func() string { return a.renderUser(width) })
}

// shownLeft is a time left cut to what screenkit.FormatLeft writes of it:
// whole minutes, whole seconds in the last minute, -1 once expired.
func shownLeft(left time.Duration) time.Duration {
	switch {
	case left <= 0:
		return -1
	case left < time.Minute:
		return left.Truncate(time.Second)
	}
	return left.Truncate(time.Minute)
}

func (a *Screen) renderUser(width int) string {
	st := a.Deps.Styles
	u := a.user
	name := strings.TrimSpace(u.FirstName + " " + u.LastName)
	phone := strings.TrimSpace(u.PhoneCountryCode + " " + u.PhoneNumber)
	address := u.AddressLine1
	if line2 := screenkit.OrDash(u.AddressLine2); line2 != "" {
		address += ", " + line2
	}
	city := strings.TrimSpace(u.Zip + " " + u.City)
	session := "—"
	if sess := a.Deps.Client.Session(); sess.Valid() && sess.ExpiresAt.IsZero() {
		session = "expiry unknown (the gateway gave no lifetime)"
	} else if sess.Valid() {
		left := sess.ExpiresAt.Sub(a.Deps.Clock())
		session = "expires " + sess.ExpiresAt.Local().Format(screenkit.TimeLayout) + " (in " + screenkit.FormatLeft(left) + ")"
	}
	fields := []screenkit.Field{
		{Label: "Name", Value: name},
		{Label: "Verification", Styled: screenkit.Badge(st, u.VerificationState, screenkit.VerificationTone(u.VerificationState)) + " " + st.Muted.Render(verificationHint(u.VerificationState))},
		{Label: "Email", Value: u.Email},
		{Label: "Date of birth", Value: u.DateOfBirth},
		{Label: "Phone", Value: phone},
		{Label: "Address", Value: address},
		{Label: "City", Value: city},
		{Label: "Residence", Value: u.CountryOfResidence},
		{Label: "Nationality", Value: u.CountryOfNationality},
		{Label: "US state", Value: screenkit.OrDash(u.USState)},
		{Label: "SSN", Value: screenkit.OrDash(u.SSN)},
		{Label: "Created", Value: screenkit.FormatTime(u.CreatedAt)},
		{Label: "User id", Value: u.ID},
		{Label: "Session", Value: session},
	}
	body := screenkit.RenderFields(st, fields, width)
	if extra := screenkit.ExtraFields(u.Extra); len(extra) > 0 {
		body += "\n\n" + screenkit.Section(st, "Also sent by the gateway", screenkit.RenderFields(st, extra, width))
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

// Inspect implements ui.Inspectable: the user's profile as the gateway
// sent it.
func (a *Screen) Inspect() (string, []byte, bool) {
	if a.user == nil {
		return "", nil, false
	}
	return screenkit.Inspected("user profile", a.user.Raw)
}
