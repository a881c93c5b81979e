package ui

// In a customer-approved session the navigation holds the customer's
// screens only; each keeps the number key it has in the app (Wallets is
// 5 in both), so that what an agent reads in a hint, the docs or the
// customer's own app opens the same screen.

// numberKeyAt is the number key of the screen at position i of the
// navigation: its place in the app in an approved session, else its
// position.
func (r *Root) numberKeyAt(i int) string {
	if i < len(r.places) {
		return NumberKey(r.places[i])
	}
	return NumberKey(i)
}

// screenOfKey is the position of the screen a number key opens, -1 when
// none has that key.
func (r *Root) screenOfKey(k string) int {
	for i := range r.screens {
		if r.numberKeyAt(i) == k {
			return i
		}
	}
	return -1
}

// numberKeys are the number keys of the navigation's screens, in order.
func (r *Root) numberKeys() []string {
	keys := make([]string, 0, min(len(r.screens), 10))
	for i := range r.screens {
		if k := r.numberKeyAt(i); k != "" {
			keys = append(keys, k)
		}
	}
	return keys
}
