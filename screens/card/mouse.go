package card

// The mouse on the Card screen: in the set-PIN page style, View PIN and
// card details forms a click focuses the field drawn there (the forms
// are screenkit.FormLayers, which find the form in their drawing). The
// card's fields, the set-PIN panel and the image notes have nothing to
// select.

// TakesMouse implements ui.MouseTaker: the wheel does nothing here.
func (c *Screen) TakesMouse() bool { return true }
