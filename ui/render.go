package ui

import (
	"strings"

	"cardterm/ui/layer"
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

// renderBody draws the body area, bw by bh cells: the active screen, then
// the layers over it, bottom first, each over what is under it. A layer
// that draws the whole body hides everything under it (the stack does
// not even hand those out); a floating one (a dialog) is set centred on
// a blank band, so nothing under it shows beside or through it.
func (r *Root) renderBody(bw, bh int) string {
	if bh <= 0 || bw <= 0 {
		return FitBlock("", bw, bh)
	}
	shown := r.layers.Shown(r.owner())
	var body string
	switch {
	case len(shown) > 0 && !layer.Floats(shown[0]):
		body = FitBlock(shown[0].View(), bw, bh)
		shown = shown[1:]
	case r.Active() != nil:
		body = FitBlock(r.Active().View(), bw, bh)
	default:
		body = FitBlock("", bw, bh)
	}
	for _, l := range shown {
		if box := l.View(); box != "" {
			body = composite(body, box, bw, bh)
		}
	}
	return body
}
