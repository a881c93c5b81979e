// Package ui is cardterm's app shell and the widgets every screen shares:
// the root model (routing, focus, navigation, status bar, help, notices,
// the confirmation dialog, the mouse, presenter mode), the request
// registry that tags and cancels requests per screen, the change flow
// (confirm → run → re-read → notify), the big-data table and layout
// helpers. It imports theme and ui/sanitize (text from outside made safe to
// draw) only; screens import it. The form (ui/form) is a package of its
// own above it.
package ui
