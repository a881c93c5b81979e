// Package ui is cardterm's app shell and the widgets every screen shares:
// the root model (routing, focus, navigation, status bar, help, notices,
// the confirmation dialog, the mouse, presenter mode), the request registry that tags and cancels
// requests per screen, the form, the change flow (confirm → run → re-read
// → notify), the big-data table, layout helpers and the one sanitizer for
// gateway text. It imports theme only; screens import it.
package ui
