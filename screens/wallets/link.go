package wallets

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/theme"
	"cardterm/ui"
)

// actionable is the selected internal wallet, when the link state is known
// well enough to act on it: no change in flight, the wallets and the
// links read.
func (w *Screen) actionable() (apiclient.InternalWallet, bool) {
	if w.change.Busy() || !w.loaded[readInternal] || !w.loaded[readLinked] || w.errs[readLinked] != nil {
		return apiclient.InternalWallet{}, false
	}
	return w.selected()
}

func (w *Screen) link() tea.Cmd {
	iw, ok := w.actionable()
	if !ok {
		return nil
	}
	if w.linkedIndex(iw) >= 0 {
		return ui.Notify(theme.ToneInfo, strings.ToUpper(iw.Currency)+" wallet is already linked to the card")
	}
	if len(w.linked) >= apiclient.MaxLinkedWallets {
		w.reason = fmt.Sprintf("Cannot link a sixth wallet: %d of %d are linked and the gateway allows at most %d. Unlink one first (%s).",
			len(w.linked), apiclient.MaxLinkedWallets, apiclient.MaxLinkedWallets, w.keys.Unlink.Help().Key)
		return ui.Notify(theme.ToneWarn, w.reason)
	}
	id := firstNonEmpty(iw.AddressID, iw.ID)
	cur := strings.ToUpper(iw.Currency)
	return w.runAction(walletAction{what: "link", done: cur + " wallet linked to the card"},
		"Link the "+cur+" wallet to the card?",
		apiclient.LinkWalletCall(id).Lines(),
		fmt.Sprintf("The card may then be charged from it (%d of %d linked after this).", len(w.linked)+1, apiclient.MaxLinkedWallets),
		func(ctx context.Context, c *apiclient.Client) error { return c.LinkWallet(ctx, id) })
}

func (w *Screen) unlink() tea.Cmd {
	iw, ok := w.actionable()
	if !ok {
		return nil
	}
	if w.linkedIndex(iw) < 0 {
		return ui.Notify(theme.ToneInfo, strings.ToUpper(iw.Currency)+" wallet is not linked to the card")
	}
	id := firstNonEmpty(iw.AddressID, iw.ID)
	cur := strings.ToUpper(iw.Currency)
	return w.runAction(walletAction{what: "unlink", done: cur + " wallet unlinked from the card"},
		"Unlink the "+cur+" wallet from the card?",
		apiclient.UnlinkWalletCall(id).Lines(),
		"The card will no longer be charged from it.",
		func(ctx context.Context, c *apiclient.Client) error { return c.UnlinkWallet(ctx, id) })
}

// move changes the selected linked wallet's priority by delta (-1 = up).
func (w *Screen) move(delta int) tea.Cmd {
	iw, ok := w.actionable()
	if !ok {
		return nil
	}
	p := w.linkedIndex(iw)
	if p < 0 {
		return ui.Notify(theme.ToneInfo, "only a linked wallet has a priority: link it first ("+w.keys.Link.Help().Key+")")
	}
	q := p + delta
	if q < 0 || q >= len(w.linked) {
		return ui.Notify(theme.ToneInfo, "already at that end of the priority order")
	}
	current := make([]string, len(w.linked))
	for i, l := range w.linked {
		current[i] = w.addressIDOf(l)
	}
	wanted := slices.Clone(current)
	wanted[p], wanted[q] = wanted[q], wanted[p]
	done := fmt.Sprintf("%s wallet is now priority #%d", strings.ToUpper(iw.Currency), q+1)
	// The interface has no reorder: the wallets after the moved one are
	// unlinked and linked again in the wanted order, so the card briefly
	// has fewer payment sources. The confirmation says so.
	return w.runAction(walletAction{what: "priority change", done: done},
		fmt.Sprintf("Move the %s wallet to priority #%d?", strings.ToUpper(iw.Currency), q+1),
		callLines(apiclient.ReorderLinkedWalletsCalls(current, wanted)),
		"The gateway has no reorder: those wallets are unlinked and linked again, so for a moment the card has fewer payment sources.",
		func(ctx context.Context, c *apiclient.Client) error {
			return c.ReorderLinkedWallets(ctx, current, wanted)
		})
}

// runAction asks before a change to the card's wallets, showing the
// requests it sends, then runs it.
func (w *Screen) runAction(a walletAction, title string, request []string, means string, fn func(context.Context, *apiclient.Client) error) tea.Cmd {
	w.reason = ""
	client := w.Deps.Client
	return w.change.Ask(ui.ChangeSpec[walletAction]{
		Title: title, Request: request, Lines: []string{means}, ConfirmLabel: a.what, Tone: theme.ToneInfo,
		What: a.what, Done: a.done,
		Run: func(ctx context.Context) (walletAction, error) { return a, fn(ctx, client) },
	})
}

// callLines are the lines of requests sent one after another, each with
// its body.
func callLines(calls []apiclient.Call) []string {
	var lines []string
	for _, call := range calls {
		lines = append(lines, call.Lines()...)
	}
	return lines
}

// linkedIndex is the priority position (0 first) of an internal wallet, or
// -1 when it is not linked.
func (w *Screen) linkedIndex(iw apiclient.InternalWallet) int {
	return slices.IndexFunc(w.linked, func(l apiclient.LinkedWallet) bool { return sameWallet(l, iw) })
}

// sameWallet reports whether a linked wallet is the internal wallet iw: by
// id, by the documented addressId, or by address and currency.
func sameWallet(l apiclient.LinkedWallet, iw apiclient.InternalWallet) bool {
	if id := linkedAddressID(l); id != "" && id == iw.AddressID {
		return true
	}
	return (l.ID != "" && (l.ID == iw.ID || l.ID == iw.AddressID)) || (l.Address != "" && l.Address == iw.Address && l.Currency == iw.Currency)
}

// addressIDOf is what link and unlink take for a linked wallet.
func (w *Screen) addressIDOf(l apiclient.LinkedWallet) string {
	for _, iw := range w.internal {
		if sameWallet(l, iw) {
			if iw.AddressID != "" {
				return iw.AddressID
			}
			return iw.ID
		}
	}
	return firstNonEmpty(linkedAddressID(l), l.ID)
}
