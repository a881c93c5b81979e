// Package ui is cardterm's app shell and what every screen and component
// shares: the root model (routing, focus, navigation, status bar, help,
// notices, the confirmation dialog, the mouse, presenter mode), the
// request registry that tags and cancels requests per screen, the change
// flow (confirm → run → re-read → notify), the scroll keys and the layout
// helpers (cell widths, fitting, the one truncation rule). It imports theme
// and ui/sanitize (text from outside made safe to draw) only. The form
// (ui/form) and the table (ui/table) are packages of their own above it:
// ui never imports them; screens import all three.
package ui
