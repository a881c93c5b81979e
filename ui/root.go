package ui

import (
	"cardterm/domain/savedview"

	"slices"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
	"cardterm/ui/layer"
)

// Root is the app shell: it owns routing, focus, the navigation, the status
// bar, notices, the help and the dialog. Screens only draw their body.
type Root struct {
	opts    RootOptions
	st      *theme.Styles
	keys    GlobalKeyMap
	navKeys navKeyMap
	help    help.Model
	spin    spinner.Model

	screens []Screen
	signIn  Screen
	support Screen
	// supporting says the support console, not the sign-in screen, is
	// shown while no one is signed in.
	supporting bool
	signedIn   bool
	active     int // index into screens
	focusNav   bool
	navCur     int
	spinning   bool
	// layers is everything modal, the root's and the screens' (ui/layer,
	// root_layers.go): the one record of what is open.
	layers layer.Stack
	// switchTo is the profile chosen in the switcher (root_profiles.go).
	switchTo string
	// commandSeq numbers the user's commands run, so a command's end goes
	// to its own pane (record_command.go).
	commandSeq int
	// views are the profile's saved views (saved_views.go).
	views []savedview.View

	// notices are the live notices, oldest first: the latest of each
	// screen and of the shell (root_notices.go).
	notices     []Notice
	noticeSeq   int
	noticeLines []string // the notice on lines of its own when it does not fit the bar
	noticeLog   []Notice
	// noticesLogged counts every notice ever logged, so the accessible
	// mode says each once (Page.NoticesSince).
	noticesLogged int
	navHidden     bool
	// approved is the customer-approved session shown, if any
	// (root_approved.go).
	approved *approvedSession
	// places are the approved session's screens' places in the app
	// (root_places.go); nil outside one.
	places []int
	// presenter is the keys shown in presenter mode (presenter.go).
	presenter presenter
	// pressed is the dialog button a plain left press went down on; the
	// release on the same button answers the dialog (root_mouse.go).
	pressed *pressedButton

	width, height int

	// Rendered pieces of the frame, reused while what they show is the same.
	footerCache, statusCache, navCache lineCache
}

var _ tea.Model = (*Root)(nil)

// NewRoot builds the root model. Missing options get harmless defaults so
// tests can leave them out.
func NewRoot(opts RootOptions) *Root {
	if opts.Styles == nil {
		s := theme.New(true, opts.NoColor)
		opts.Styles = &s
	}
	if opts.Requests == nil {
		opts.Requests = NewRequests()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	screens := slices.Clone(opts.Screens)
	if opts.BuildScreens != nil {
		screens = opts.BuildScreens()
	}
	if opts.BuildSupport != nil {
		opts.Support = opts.BuildSupport()
	}
	r := &Root{
		opts:       opts,
		views:      opts.Views,
		st:         opts.Styles,
		keys:       GlobalKeys(),
		navKeys:    newNavKeys(GlobalKeys()),
		screens:    screens,
		signIn:     opts.SignIn,
		support:    opts.Support,
		supporting: opts.Support != nil && opts.StartInSupport,
		help:       help.New(),
		spin:       spinner.New(spinner.WithSpinner(spinner.MiniDot)),
	}
	r.keys.Jump = jumpKeys(screens)
	r.keys.Profiles.SetEnabled(hasOtherProfile(opts))
	r.presenter.shown = opts.Presenter
	if opts.Accessible {
		// No pane to show, focus or hide, no keys pressed to show, no
		// terminal to suspend to: the accessible mode reads lines.
		r.navHidden = true
		for _, b := range []*key.Binding{&r.keys.Nav, &r.keys.Focus, &r.keys.Presenter, &r.keys.Suspend} {
			b.SetEnabled(false)
		}
	}
	r.restyle()
	return r
}

// jumpKeys binds exactly the number keys of the screens there are, so the
// help says "1-9" or "0-9" truthfully.
func jumpKeys(screens []Screen) key.Binding {
	keys := make([]string, 0, min(len(screens), 10))
	for i := range screens {
		if k := NumberKey(i); k != "" {
			keys = append(keys, k)
		}
	}
	return jumpKeysOf(keys)
}

// jumpKeysOf binds the number keys given.
func jumpKeysOf(keys []string) key.Binding {
	desc := "1-9"
	if slices.Contains(keys, "0") {
		desc = "0-9"
	}
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(desc, "jump to screen"))
}

func (r *Root) restyle() {
	r.help.Styles = help.Styles{
		Ellipsis: r.st.Muted, ShortKey: r.st.KeyHint, ShortDesc: r.st.KeyDesc,
		ShortSeparator: r.st.Muted, FullKey: r.st.KeyHint, FullDesc: r.st.KeyDesc,
		FullSeparator: r.st.Muted,
	}
	r.spin.Style = r.st.Spinner
	r.presenter.restyled()
}

// Init asks for the background colour and enters the sign-in screen.
func (r *Root) Init() tea.Cmd {
	var enter tea.Cmd
	if r.signIn != nil {
		enter = stampNotices(r.signIn.Enter(), ScreenSignIn)
	}
	if r.supporting {
		enter = stampNotices(r.support.Enter(), ScreenSupport)
	}
	var warn, start tea.Cmd
	if r.opts.Warning != "" {
		warn = Notify(theme.ToneWarn, r.opts.Warning)
	}
	if s, ok := r.support.(AtStart); ok {
		start = s.AtStart() // its notices are not stamped: they show on any screen
	}
	return tea.Batch(tea.RequestBackgroundColor, enter, warn, start)
}

// Active is the screen that gets keys now (the sign-in screen when signed
// out); nil if there is none.
func (r *Root) Active() Screen {
	if !r.signedIn {
		return r.outside()
	}
	if r.active >= 0 && r.active < len(r.screens) {
		return r.screens[r.active]
	}
	return nil
}

// outside is the full-body screen shown while no one is signed in: the
// sign-in screen or the support console.
func (r *Root) outside() Screen {
	if r.supporting && r.support != nil {
		return r.support
	}
	return r.signIn
}

// Supporting reports whether the support console is shown.
func (r *Root) Supporting() bool { return r.supporting && !r.signedIn }

// SignedIn reports whether the navigation is open (after SignedInMsg).
func (r *Root) SignedIn() bool { return r.signedIn }

// CurrentNotice is the latest notice, if it has not faded or been
// dismissed (it may belong to another screen than the one shown;
// ShownNotice is the status bar's).
func (r *Root) CurrentNotice() (Notice, bool) { return r.latestNotice() }

// ShownNotice is the notice on the status bar: the latest live one that
// shows on the screen shown.
func (r *Root) ShownNotice() (Notice, bool) { return r.visibleNotice() }

// DialogOpen reports whether a confirmation dialog is showing.
func (r *Root) DialogOpen() bool { return r.dialogOpen() }

// Dialog is the open confirmation's spec, for tests that check what a
// confirmation says before anything is sent.
func (r *Root) Dialog() (ConfirmSpec, bool) {
	d, ok := layer.Find[*dialog](&r.layers, r.owner())
	if !ok {
		return ConfirmSpec{}, false
	}
	return d.spec, true
}

// Update routes a message (ARCHITECTURE.md, "The layer stack": the top layer first, then the
// global keys, then the active screen) and keeps the spinner running
// while requests are in flight.
func (r *Root) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := r.update(msg)
	if !r.spinning && r.opts.Requests.InFlight() > 0 {
		r.spinning = true
		cmd = tea.Batch(cmd, r.spin.Tick)
	}
	return r, cmd
}

func (r *Root) update(msg tea.Msg) tea.Cmd {
	if cmd, ok := r.updateApproved(msg); ok {
		return cmd
	}
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return r.handleKey(msg)
	case tea.KeyReleaseMsg:
		return nil
	case tea.MouseMsg:
		return r.handleMouse(msg)
	case tea.PasteMsg, tea.PasteStartMsg, tea.PasteEndMsg:
		// Input, like keys: the top layer or the active screen.
		return r.toActive(msg)
	case tea.WindowSizeMsg:
		return r.setWindowSize(msg)
	case tea.BackgroundColorMsg:
		whole := r.st.WholeText
		*r.st = theme.NewWith(r.st.Theme, msg.IsDark(), r.opts.NoColor)
		r.st.WholeText = whole
		r.restyle()
		r.footerCache, r.statusCache, r.navCache = lineCache{}, lineCache{}, lineCache{}
		return r.broadcast(msg)
	case spinner.TickMsg:
		return r.tick(msg)
	case NoticeMsg, DismissNoticeMsg, noticeExpireMsg:
		return r.updateNotice(msg)
	case OpenDialogMsg:
		r.openDialog(msg.Spec)
		return nil
	case OpenLayerMsg:
		return r.openScreenLayer(msg)
	case SignedInMsg:
		return r.signedInNow()
	case SignOutMsg, SignedOutMsg, SessionExpiredMsg:
		return r.updateSession(msg)
	case NavigateMsg:
		return r.navigate(msg.To)
	case OpenSupportMsg, CloseSupportMsg:
		return r.updateSupport(msg)
	case runCommandMsg, commandDoneMsg:
		return r.updateCommand(msg)
	case saveViewMsg, viewSavedMsg:
		return r.updateViews(msg)
	}
	return r.broadcast(msg)
}

// View draws the whole frame: navigation, body, status bar and footer,
// exactly the terminal's size.
func (r *Root) View() tea.View {
	v := tea.NewView(r.withPresenter(r.render()))
	v.AltScreen = true
	if r.opts.Mouse {
		v.MouseMode = tea.MouseModeCellMotion
	}
	v.WindowTitle = "cardterm"
	return v
}
