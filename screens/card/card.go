// Package card is the Card screen: the debit card's state, freeze and
// unfreeze, ordering a card, and the hosted PIN and card-details pages.
package card

import (
	"context"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/keymap"
	"cardterm/ui/sanitize"
)

// cardKeys are the card screen's bindings; mutating ones are disabled in
// read-only mode so the footer and help never offer them.
type cardKeys struct {
	Toggle, Order, SetPIN, Style, ViewPIN, Details, Refresh key.Binding
	// Guard opens the guard rules' panel (guardpanel.go).
	Guard key.Binding
	// ViewPINStyle and DetailsStyle open the images' colour forms; v and
	// d open the images at once with the colours kept for the session.
	ViewPINStyle, DetailsStyle key.Binding
}

func newCardKeys(readOnly bool) cardKeys {
	k := cardKeys{
		Toggle:       keymap.Bind("card.freeze"),
		Order:        keymap.Bind("card.order"),
		SetPIN:       keymap.Bind("card.set-pin"),
		Style:        keymap.Bind("card.set-pin-style"),
		ViewPIN:      keymap.Bind("card.view-pin"),
		Details:      keymap.Bind("card.details"),
		Refresh:      keymap.Bind("card.reload"),
		Guard:        keymap.Bind("card.guard"),
		ViewPINStyle: keymap.Bind("card.view-pin-colours"),
		DetailsStyle: keymap.Bind("card.details-colours"),
	}
	// PIN and details tokens are issued on the gateway and reveal secrets:
	// support agents in read-only mode get none of them.
	screenkit.DisableInReadOnly(readOnly, &k.Toggle, &k.Order, &k.SetPIN, &k.Style, &k.ViewPIN, &k.Details, &k.ViewPINStyle, &k.DetailsStyle)
	return k
}

// Why card actions cannot work for the card as last read.
const (
	whyNoCard     = " needs a card: there is none yet, order one with "
	whyNotBlocked = "a new card can be ordered only when there is none or it is BLOCKED"
	whyBlocked    = "a BLOCKED card cannot be frozen or unfrozen: order a new one with "
)

// offerOnly enables the card's actions that can work for what the gateway
// last said (no card, not verified, a card in some state) and keeps, for
// each key it disables, the reason a press of it is told.
func (c *Screen) offerOnly() {
	c.keys = newCardKeys(c.Deps.ReadOnly)
	c.why = screenkit.DisabledReasons{}
	cardActions := []*key.Binding{&c.keys.Toggle, &c.keys.SetPIN, &c.keys.ViewPIN, &c.keys.Details, &c.keys.ViewPINStyle, &c.keys.DetailsStyle}
	switch {
	case apiclient.IsNotFound(c.loadErr):
		for _, b := range cardActions {
			c.why.Disable(b, b.Help().Desc+whyNoCard+c.keys.Order.Help().Key)
		}
	case apiclient.IsStatus(c.loadErr, 403):
		for _, b := range append(cardActions, &c.keys.Order) {
			c.why.Disable(b, b.Help().Desc+" needs a VERIFIED identity: see the verification state on "+c.Deps.ScreenNamed(screenkit.AccountScreen, "Account"))
		}
	case c.card != nil && c.card.Status == apiclient.CardBlocked:
		// The gateway refuses both: offer only what replaces the card.
		c.why.Disable(&c.keys.Toggle, whyBlocked+c.keys.Order.Help().Key)
	case c.card != nil:
		c.why.Disable(&c.keys.Order, whyNotBlocked)
	}
}

// WhyDisabled implements ui.Explainer: the reason a disabled card action
// does nothing now.
func (c *Screen) WhyDisabled(pressed string) (string, bool) {
	why, ok := c.why[pressed]
	return why, ok
}

func (k cardKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Toggle, k.SetPIN, k.ViewPIN, k.Details, k.Order}
}
func (k cardKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Toggle, k.Order, k.Refresh}, {k.SetPIN, k.Style, k.ViewPIN, k.ViewPINStyle, k.Details, k.DetailsStyle, k.Guard}}
}

// cardAction is a confirmed change to the card, sent back by the dialog.
type cardAction int

const (
	actionFreeze cardAction = iota + 1
	actionUnfreeze
	actionOrder
	// actionRuleFreeze is a freeze a guard rule asked for (guard.go).
	actionRuleFreeze
)

// Screen shows the debit card and changes its state.
type Screen struct {
	screenkit.Base
	keys cardKeys
	// cardPiece keeps the card's fields and note (cardView).
	cardPiece screenkit.Piece[cardKey]
	// why is the reason, per key, that a disabled action cannot work now.
	why screenkit.DisabledReasons

	loadID ui.RequestID
	card   *apiclient.Card
	// loadErr is why there is no card to show: 404 (no card yet), 403
	// (not allowed, e.g. unverified), or a failure.
	loadErr error
	loading bool

	// change is freeze, unfreeze or order: confirmed, run, then the card
	// is read again; a double press sends one request.
	change ui.Change[cardAction]

	// Set PIN: the request in flight, the link on screen and the page
	// style kept for the session (and the text typed in its form).
	pinReqID      ui.RequestID
	pinBusy       bool
	pinSeq        int
	pin           *pinPanel
	pinStyle      apiclient.SetPINStyle
	pinStyleTyped map[string]string

	// View PIN and card details: colours kept for the session, the request
	// in flight and what happened last (never the link itself).
	viewStyle    apiclient.PINImageStyle
	detailsStyle apiclient.CardDetailsStyle
	imageReqID   ui.RequestID
	imageBusy    bool
	secret       *secretNote

	// guard is the guard rules in force and their cool-down (guard.go).
	guard guardState
}

// New builds the card screen.
func New(deps screenkit.Deps) *Screen {
	c := &Screen{Base: screenkit.NewBase(deps, screenkit.CardScreen, "Card")}
	c.change = ui.NewChange[cardAction](c.Requests)
	c.offerOnly()
	return c
}

// KeyMap implements ui.Screen; an open form is a layer with its own keys.
func (c *Screen) KeyMap() help.KeyMap { return c.keys }

// CapturesKeys implements ui.Screen: the card's forms are layers.
func (c *Screen) CapturesKeys() bool { return false }

// Enter loads the card.
func (c *Screen) Enter() tea.Cmd { return c.load() }

func (c *Screen) load() tea.Cmd {
	c.loading = true
	return ui.Start(c.Requests, &c.loadID, c.Deps.Client.CardStatus)
}

// Update implements ui.Screen.
func (c *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	if res, done, cmd := c.change.Update(msg); done {
		// Whatever happened, show what the gateway now says.
		return c, tea.Batch(c.load(), screenkit.Report(res), c.afterRuleFreeze(res))
	} else if cmd != nil {
		return c, cmd
	}
	if cmd, ok := c.guardUpdate(msg); ok {
		return c, cmd
	}
	switch msg := msg.(type) {
	case ui.Result[apiclient.Card]:
		if msg.ID != c.loadID {
			return c, nil
		}
		c.loading = false
		defer c.offerOnly()
		if msg.Err != nil {
			c.card, c.loadErr = nil, msg.Err
			return c, screenkit.ReadFailed("loading the card", msg.Err, 404, 403)
		}
		if c.card != nil && c.card.ID != msg.Value.ID {
			// A new card (ordered here or elsewhere): the old card's
			// set-PIN link no longer applies.
			c.pin, c.secret = nil, nil
		}
		c.card, c.loadErr = &msg.Value, nil
	case ui.Result[setPINLink]:
		if msg.ID != c.pinReqID {
			return c, nil
		}
		return c, c.gotSetPIN(msg)
	case pinOpenedMsg:
		if c.pin == nil || msg.seq != c.pin.seq {
			return c, nil
		}
		c.pin.opening, c.pin.opened = false, msg.ok
		if !msg.ok {
			c.pin.openErr = msg.notice.Notice.Text
		}
		n := msg.notice
		return c, func() tea.Msg { return n }
	case pinTickMsg:
		return c, c.pinTicked(msg)
	case ui.Result[imageOpened]:
		if msg.ID != c.imageReqID {
			return c, nil
		}
		return c, c.gotImage(msg)
	case ui.RefreshMsg:
		return c, c.load()
	case tea.KeyPressMsg:
		return c, c.handleKey(msg)
	}
	return c, nil
}

func (c *Screen) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, c.keys.SetPIN):
		if c.pinBusy || c.loading && c.card == nil {
			return nil
		}
		if c.card == nil {
			return ui.Notify(theme.ToneWarn, "there is no card to set a PIN for")
		}
		return c.requestSetPIN()
	case key.Matches(msg, c.keys.Style):
		return c.openForm(formPINStyle)
	case key.Matches(msg, c.keys.Guard):
		return c.openGuardPanel()
	case key.Matches(msg, c.keys.ViewPIN), key.Matches(msg, c.keys.Details),
		key.Matches(msg, c.keys.ViewPINStyle), key.Matches(msg, c.keys.DetailsStyle):
		if c.card == nil {
			return ui.Notify(theme.ToneWarn, "there is no card")
		}
		switch {
		case key.Matches(msg, c.keys.ViewPINStyle):
			return c.openForm(formViewPIN)
		case key.Matches(msg, c.keys.DetailsStyle):
			return c.openForm(formDetails)
		case c.imageBusy:
			return nil // one image request at a time
		case key.Matches(msg, c.keys.ViewPIN):
			return c.requestImage(formViewPIN, false) // nothing to choose: one key
		}
		return c.requestImage(formDetails, false)
	case key.Matches(msg, c.keys.Toggle):
		if c.change.Busy() || c.loading {
			return nil
		}
		if c.card == nil {
			return ui.Notify(theme.ToneWarn, "there is no card to freeze")
		}
		if wait := c.inCooldown(); wait != nil && c.toggleAction() == actionUnfreeze {
			return wait
		}
		return c.confirm(c.toggleAction())
	case key.Matches(msg, c.keys.Order):
		if c.change.Busy() || c.loading {
			return nil
		}
		if c.card != nil && c.card.Status != apiclient.CardBlocked {
			return ui.Notify(theme.ToneWarn, "a new card can be ordered only when there is none or it is BLOCKED")
		}
		return c.confirm(actionOrder)
	}
	return nil
}

// toggleAction is what f does for the card as last read: an ACTIVE card is
// frozen, any other unfrozen (f is not offered for a BLOCKED one).
func (c *Screen) toggleAction() cardAction {
	if c.card.Status == apiclient.CardActive {
		return actionFreeze
	}
	return actionUnfreeze
}

// confirm asks before a change to the card, showing the request it sends.
func (c *Screen) confirm(action cardAction) tea.Cmd {
	client := c.Deps.Client
	spec := ui.ChangeSpec[cardAction]{What: actionName(action), Done: actionDoneText(action),
		Run: func(ctx context.Context) (cardAction, error) {
			switch action {
			case actionFreeze:
				return action, client.FreezeCard(ctx)
			case actionUnfreeze:
				return action, client.UnfreezeCard(ctx)
			}
			return action, client.OrderCard(ctx, apiclient.CardVirtual)
		}}
	last4 := ""
	if c.card != nil {
		last4 = " ending " + sanitize.Text(c.card.PanLast4)
	}
	switch action {
	case actionFreeze:
		spec.Title = "Freeze the card" + last4 + "?"
		spec.Request = apiclient.FreezeCardCall().Lines()
		spec.Lines = []string{"All transaction attempts will be declined until you unfreeze it."}
		spec.ConfirmLabel = "freeze"
		spec.Tone = theme.ToneWarn
	case actionUnfreeze:
		spec.Title = "Unfreeze the card" + last4 + "?"
		spec.Request = apiclient.UnfreezeCardCall().Lines()
		spec.Lines = []string{"Takes effect at once: authorizations resume."}
		spec.ConfirmLabel = "unfreeze"
		spec.Tone = theme.ToneInfo
	case actionOrder:
		spec.Title = "Order a new virtual card?"
		spec.Request = apiclient.OrderCardCall(apiclient.CardVirtual).Lines()
		spec.Lines = []string{"The new card replaces any BLOCKED card and is ACTIVE at once."}
		spec.ConfirmLabel = "order"
		spec.Tone = theme.ToneInfo
	}
	return c.change.Ask(spec)
}

func actionName(a cardAction) string {
	switch a {
	case actionFreeze, actionRuleFreeze:
		return "freeze"
	case actionUnfreeze:
		return "unfreeze"
	}
	return "card order"
}

func actionDoneText(a cardAction) string {
	switch a {
	case actionFreeze:
		return "card frozen: transactions are declined"
	case actionUnfreeze:
		return "card unfrozen: authorizations resume"
	}
	return "new card ordered"
}

// Inspect implements ui.Inspectable: the card as the gateway sent it.
func (c *Screen) Inspect() (string, []byte, bool) {
	if c.card == nil {
		return "", nil, false
	}
	return screenkit.Inspected("card", c.card.Raw)
}
