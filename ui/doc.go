// Package ui is cardterm's app shell and the widgets every screen shares:
// the root model (routing, focus, navigation, status bar, help, notices,
// the confirmation dialog, the mouse, presenter mode), the request registry that tags and cancels
// requests per screen, the form, the change flow (confirm → run → re-read
// → notify), the big-data table and layout helpers. Text from outside is
// made safe to draw by ui/sanitize. It imports theme and ui/sanitize only;
// screens import it.
package ui
