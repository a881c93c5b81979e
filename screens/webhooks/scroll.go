package webhooks

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/screens/screenkit"
)

// What the screen shows in place of the list (a configuration's detail
// with its deliveries, the signing-key panel, the listener's help, a
// configuration looked up by id) is a page: taller than the body, as a
// detail with its delivery attempts is at 80x24, it scrolls with the
// scroll keys and the wheel, and says what is hidden above and below.

// pageScroll is how far the page named of is scrolled: another page (a
// mode, a configuration) starts at its top.
type pageScroll struct {
	of     string
	offset int
}

// page is the lines of the page shown in width, or nil in the list (or
// when a load error is shown instead).
func (w *Screen) page(width int) []string {
	switch {
	case w.mode == modeKey && w.panelMasked != "":
		return w.maskedKeyPanel(width)
	case w.mode == modeKey:
		return w.keyPanel(width)
	case w.mode == modeListenerHelp:
		return w.listenerHelp(width)
	case w.mode == modeLookup && w.looked != nil:
		return w.lookupView(width)
	case w.mode == modeDetail && w.loadErr == nil:
		if h := w.find(w.detail); h != nil {
			return w.detailView(h, width)
		}
	}
	return nil
}

// pageName tells one page from another.
func (w *Screen) pageName() string {
	looked := ""
	if w.looked != nil {
		looked = w.looked.ID
	}
	return fmt.Sprint(w.mode, "/", w.detail, "/", w.panelID, "/", looked)
}

// pageOffset is how far the page shown is scrolled.
func (w *Screen) pageOffset() int {
	if w.scroll.of != w.pageName() {
		return 0
	}
	return w.scroll.offset
}

// pageRoom is the rows the page has under the title.
func (w *Screen) pageRoom() int { return max(w.Height-w.underTitle(), 1) }

// pageOverflows reports a page taller than its room: the scroll keys work.
func (w *Screen) pageOverflows() bool {
	page := w.page(w.Width)
	return page != nil && len(page) > w.pageRoom()
}

// scrollPageKey moves the page for a scroll key; false for any other key,
// or in the list.
func (w *Screen) scrollPageKey(msg tea.KeyPressMsg) bool {
	page := w.page(w.Width)
	if page == nil {
		return false
	}
	room := w.pageRoom()
	last := screenkit.ScrollLast(len(page), room)
	to, moved := w.keys.Scroll.Move(msg, min(w.pageOffset(), last), screenkit.ScrollPage(room), last)
	if moved {
		w.scroll = pageScroll{of: w.pageName(), offset: min(max(to, 0), last)}
	}
	return moved
}

// scrollPageBy moves the page lines down (up when negative), for the wheel.
func (w *Screen) scrollPageBy(lines int) {
	page := w.page(w.Width)
	last := screenkit.ScrollLast(len(page), w.pageRoom())
	w.scroll = pageScroll{of: w.pageName(), offset: min(max(min(w.pageOffset(), last)+lines, 0), last)}
}

// pageView draws the page under the title lines, scrolled.
func (w *Screen) pageView(title, page []string) string {
	rows := screenkit.Scrolled(w.Deps.Styles, page, w.pageOffset(), w.pageRoom())
	return screenkit.Place(strings.Join(append(title, rows...), "\n"), w.Width, w.Height)
}
