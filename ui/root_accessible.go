package ui

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"cardterm/ui/layer"
	"cardterm/ui/sanitize"
)

// Page is the frame as the accessible mode reads it out (ui/accessible):
// its parts as plain text in reading order, and the keys that work now,
// from the same key maps that drive routing.
type Page struct {
	// Title is the name of what the body shows: a screen, the help, the
	// notice log or the inspector.
	Title string
	// Status is the status bar's text: gateway, environment, user, session.
	Status string
	// Body is the screen (or the help, the notices, the inspector), with
	// no dialog over it.
	Body string
	// Dialog is the open confirmation's title, request and lines; nil when
	// none is open.
	Dialog []string
	// Notice is the notice on the status bar, "" when none.
	Notice string
	// NoticesLogged counts the session's notices so far; Log holds the
	// last of them (the notice log's), oldest first, so that a reader says
	// each one once even after it faded from the bar.
	NoticesLogged int
	Log           []string
	// Typing says a text field has the keys: a line typed goes into it.
	Typing bool
	// Actions are the keys that work now: the context's (a dialog, a form,
	// the screen) first, then the global ones it does not shadow.
	Actions []key.Binding
	// Waiting says a request is in flight.
	Waiting bool
	// Screens are the navigation's screens with their number keys
	// ("1 Account"), while signed in.
	Screens []string
}

// NoticesSince are the notices logged after the first seen of them (a
// count of NoticesLogged), oldest first.
func (p Page) NoticesSince(seen int) []string {
	n := min(max(p.NoticesLogged-seen, 0), len(p.Log))
	return p.Log[len(p.Log)-n:]
}

// Waiting reports whether a gateway request is in flight.
func (r *Root) Waiting() bool { return r.opts.Requests.InFlight() > 0 }

// Page reads the frame out for the accessible mode.
func (r *Root) Page() Page {
	p := Page{Typing: r.capturing(), Waiting: r.Waiting()}
	if n, shown := r.visibleNotice(); shown {
		p.Notice = sanitize.Text(n.Text)
	}
	p.NoticesLogged = r.noticesLogged
	for _, n := range r.noticeLog {
		p.Log = append(p.Log, n.Text)
	}
	if r.height >= 2 {
		p.Status = strings.Join(strings.Fields(ansi.Strip(r.renderStatus())), " ")
	}
	p.Title, p.Body = r.pageBody()
	p.Body = plainLines(p.Body)
	if d, ok := layer.Find[*dialog](&r.layers, r.owner()); ok {
		p.Dialog = append(p.Dialog, sanitize.Text(d.spec.Title))
		for _, l := range d.spec.Request {
			p.Dialog = append(p.Dialog, sanitize.Text(l))
		}
		for _, l := range d.spec.Lines {
			p.Dialog = append(p.Dialog, sanitize.Text(l))
		}
	}
	p.Actions = r.actions()
	if r.signedIn && !r.dialogOpen() && !p.Typing {
		for i, s := range r.screens {
			p.Screens = append(p.Screens, strings.TrimSpace(r.numberKeyAt(i)+" "+s.Title()))
		}
	}
	return p
}

// actions are the enabled keys of the context, then the global keys that
// work here and are not shadowed, each once.
func (r *Root) actions() []key.Binding {
	var context []key.Binding
	if km := r.contextKeys(); km != nil {
		for _, group := range km.FullHelp() {
			context = append(context, group...)
		}
	}
	var global []key.Binding
	switch {
	case r.topRank() >= int(layer.Dialog):
	case r.capturing():
		global = []key.Binding{r.keys.Interrupt, r.keys.HelpAnywhere}
	case !r.signedIn:
		global = []key.Binding{r.keys.Help, r.keys.Quit, r.keys.Profiles}
	default:
		for _, group := range r.keys.FullHelp() {
			global = append(global, group...)
		}
	}
	var out []key.Binding
	seen := map[string]bool{}
	for _, b := range appendUnshadowed(context, global) {
		// The number keys are said with the screens (Page.Screens).
		if slices.Equal(b.Keys(), r.keys.Jump.Keys()) {
			continue
		}
		if !b.Enabled() || b.Help().Key == "" || seen[b.Help().Key] {
			continue
		}
		seen[b.Help().Key] = true
		out = append(out, b)
	}
	return out
}

// plainLines is a drawn block as plain text: no escape sequences, no
// box-drawing (a screen reader would read every corner and line), no
// spaces at the ends of lines, no run of blank lines, none at the end.
func plainLines(block string) string {
	var out []string
	blank := false
	for _, line := range strings.Split(ansi.Strip(block), "\n") {
		line = strings.TrimRight(strings.Map(unboxed, line), " ")
		if strings.TrimSpace(line) == "" {
			blank = len(out) > 0
			continue
		}
		if blank {
			out = append(out, "")
			blank = false
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// unboxed is a space for a box-drawing character, else the character.
func unboxed(r rune) rune {
	if r >= '\u2500' && r <= '\u257f' {
		return ' '
	}
	return r
}

// pageBody is the title and the text of what the body shows, under any
// dialog: the help, the notices log, the inspector, a screen's panel, or
// the screen.
func (r *Root) pageBody() (title, body string) {
	for _, l := range r.layers.Shown(r.owner()) {
		if layer.Floats(l) {
			continue
		}
		switch l := l.(type) {
		case *sheet:
			if l.kind == logSheet {
				return "Notices", l.View()
			}
			return "Help", l.View()
		case *inspector:
			return "Inspector", l.View()
		}
		return r.Active().Title(), l.View()
	}
	if s := r.Active(); s != nil {
		return s.Title(), s.View()
	}
	return "", ""
}
