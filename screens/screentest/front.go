package screentest

import (
	"charm.land/bubbles/v2/help"

	"cardterm/ui/layer"
)

// Front is what has the keys now, as a user sees it: the top layer over
// the active screen (a form, a panel, a dialog), else the screen.
type Front interface {
	KeyMap() help.KeyMap
	CapturesKeys() bool
}

// Front is what has the keys now: a test that walks the keys a view
// offers asks it, not the screen, which knows nothing of its layers.
func (a *App) Front() Front {
	if top, ok := a.UI().TopLayer(); ok {
		return layerFront{top}
	}
	return a.UI().Active()
}

// layerFront is a layer seen as a Front.
type layerFront struct{ layer.Layer }

func (l layerFront) CapturesKeys() bool { return layer.Captures(l.Layer) }
