package ui

// What the root and the screens say to each other beyond the Screen
// interface: the messages the root understands, and the optional
// interfaces a screen implements for y, o and a disabled key's reason.

// Messages the root model understands.
type (
	// SignedInMsg is sent by the sign-in screen once a session exists.
	SignedInMsg struct{}
	// SessionStartedMsg is what the root tells every screen when a
	// session starts (after SignedInMsg): a screen that watches something
	// through the session (the transaction alerts) starts then.
	SessionStartedMsg struct{}
	// SignOutMsg asks the sign-in screen to perform the logout request.
	SignOutMsg struct{}
	// SignedOutMsg says the session is gone; Reason is shown as a notice.
	SignedOutMsg struct{ Reason string }
	// SessionExpiredMsg is SignedOutMsg that returns to the current screen
	// after the next sign-in.
	SessionExpiredMsg struct{ Reason string }
	// RefreshMsg is sent to the active screen when r is pressed.
	RefreshMsg struct{}
	// NavigateMsg asks the root to show another screen.
	NavigateMsg struct{ To ScreenID }
	// OpenSupportMsg shows the support console instead of the sign-in
	// screen; CloseSupportMsg goes back to the sign-in screen.
	OpenSupportMsg  struct{}
	CloseSupportMsg struct{}
)

// Copier is implemented by screens that have a value to copy with y.
type Copier interface {
	CopyValue() (label, value string, ok bool)
}

// Opener is implemented by screens that have a link to open with o.
type Opener interface {
	OpenValue() (label, url string, ok bool)
}

// Explainer is implemented by screens whose bindings are disabled for a
// reason of their own (no card yet, identity not verified): a press of a
// disabled binding's key gets that reason as its notice instead of the
// generic "not available here". Read-only mode's notice comes first.
type Explainer interface {
	WhyDisabled(pressed string) (reason string, ok bool)
}
