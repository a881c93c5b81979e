package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/ui/sanitize"
)

// DesktopNotify is how the terminal shows a desktop notification: OSC 9
// (iTerm2, WezTerm, Ghostty, Windows Terminal, ConEmu) or OSC 777 (foot,
// urxvt, Contour, VTE terminals such as GNOME Terminal); "" when the
// terminal is not known to show one, so nothing is written.
type DesktopNotify string

const (
	NoDesktopNotify DesktopNotify = ""
	DesktopOSC9     DesktopNotify = "osc9"
	DesktopOSC777   DesktopNotify = "osc777"
)

// DesktopNotifyFor tells from the environment (getenv) which notification
// the terminal shows. Inside tmux the sequence would need passthrough,
// which tmux refuses unless configured: none is sent there.
func DesktopNotifyFor(getenv func(string) string) DesktopNotify {
	if getenv("TMUX") != "" || strings.HasPrefix(getenv("TERM"), "screen") {
		return NoDesktopNotify
	}
	switch getenv("TERM_PROGRAM") {
	case "iTerm.app", "WezTerm", "ghostty", "vscode":
		return DesktopOSC9
	}
	switch {
	case getenv("WT_SESSION") != "", getenv("ConEmuPID") != "":
		return DesktopOSC9
	case getenv("VTE_VERSION") != "":
		return DesktopOSC777
	}
	term := getenv("TERM")
	switch {
	case strings.HasPrefix(term, "foot"), strings.HasPrefix(term, "rxvt"), strings.HasPrefix(term, "contour"):
		return DesktopOSC777
	case term == "xterm-ghostty", term == "wezterm":
		return DesktopOSC9
	}
	return NoDesktopNotify
}

// Sequence is the escape sequence that shows title and body, "" for none.
// The texts are sanitized and lose what could end the sequence early.
func (d DesktopNotify) Sequence(title, body string) string {
	clean := func(s string) string {
		s = sanitize.Text(s)
		return strings.NewReplacer(";", ",", "\x07", "", "\x1b", "").Replace(s)
	}
	switch d {
	case DesktopOSC9:
		return "\x1b]9;" + clean(title+": "+body) + "\x07"
	case DesktopOSC777:
		return "\x1b]777;notify;" + clean(title) + ";" + clean(body) + "\x07"
	}
	return ""
}

// Notify is the command that writes the notification to the terminal
// (tea.Raw), nil when the terminal shows none.
func (d DesktopNotify) Notify(title, body string) tea.Cmd {
	seq := d.Sequence(title, body)
	if seq == "" {
		return nil
	}
	return tea.Raw(seq)
}
