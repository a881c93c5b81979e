package ui

import (
	"strings"
)

// gutter is the blank space between the navigation's border and the body.
const gutter = "  "

// bodySize is the area a screen draws in: the window less the navigation
// and its gutter, the status bar and the footer.
func (r *Root) bodySize() (int, int) {
	nav := r.navWidth()
	if nav > 0 {
		nav += len(gutter)
	}
	return max(r.width-nav, 0), max(r.height-2-len(r.noticeLines)-r.bannerHeight()-r.presenterRows(), 0)
}

// render composes the frame, exactly width x height cells.
func (r *Root) render() string {
	if r.width <= 0 || r.height <= 0 {
		return "" // no size yet: keep the first frame cheap
	}
	bw, bh := r.bodySize()
	body := r.renderBody(bw, bh)
	if kept := r.presenterRows(); kept > 0 && bh > 0 {
		// The rows under the body where the box of keys goes (presenter.go).
		body += strings.Repeat("\n"+strings.Repeat(" ", bw), kept)
		bh += kept
	}
	var main string
	if nw := r.navWidth(); nw > 0 && bh > 0 {
		nav := strings.Split(r.renderNav(bh), "\n")
		rows := strings.Split(body, "\n")
		for i := range rows {
			rows[i] = nav[i] + gutter + rows[i]
		}
		main = strings.Join(rows, "\n")
	} else {
		main = body
	}
	parts := make([]string, 0, 5)
	if r.bannerHeight() > 0 {
		parts = append(parts, r.renderBanner())
	}
	if bh > 0 {
		parts = append(parts, main)
	}
	if len(r.noticeLines) > 0 && r.height > 2+len(r.noticeLines) {
		parts = append(parts, r.renderNoticeLines())
	}
	if r.height >= 2 {
		parts = append(parts, r.renderStatus())
	}
	parts = append(parts, r.renderFooter())
	return FitBlock(strings.Join(parts, "\n"), r.width, r.height)
}

// renderBody draws the body area, bw by bh cells: the help, the notice
// log, the inspector or the active screen, with an open dialog or the
// profile switcher over it.
func (r *Root) renderBody(bw, bh int) string {
	var body string
	switch {
	case r.showHelp:
		body = r.renderHelp(bw, bh)
	case r.showLog:
		body = r.renderNoticeLog(bw, bh)
	case r.inspect != nil:
		body = r.inspect.view(r.st, bw, bh)
	case r.Active() != nil && bh > 0 && bw > 0:
		body = FitBlock(r.Active().View(), bw, bh)
	default:
		body = FitBlock("", bw, bh)
	}
	if r.dialog != nil && bh > 0 {
		body = composite(body, r.dialog.view(r.st, bw-2, bh), bw, bh)
	}
	if r.switcher != nil && bh > 0 {
		body = composite(body, r.switcher.view(r.st, bw-2), bw, bh)
	}
	return body
}
