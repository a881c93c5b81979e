package screens

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

// ready reports whether link state is known well enough to act on.
func (w *Wallets) ready() bool {
	return w.busy == "" && w.loaded[readInternal] && w.loaded[readLinked] && w.errs[readLinked] == nil
}

func (w *Wallets) link() tea.Cmd {
	if !w.ready() {
		return nil
	}
	iw, ok := w.selected()
	if !ok {
		return nil
	}
	if w.linkedIndex(iw) >= 0 {
		return ui.Notify(theme.ToneInfo, strings.ToUpper(iw.Currency)+" wallet is already linked to the card")
	}
	if len(w.linked) >= apiclient.MaxLinkedWallets {
		w.reason = fmt.Sprintf("Cannot link a sixth wallet: %d of %d are linked and the gateway allows at most %d. Unlink one first (u).",
			len(w.linked), apiclient.MaxLinkedWallets, apiclient.MaxLinkedWallets)
		return ui.Notify(theme.ToneWarn, w.reason)
	}
	id := firstNonEmpty(iw.AddressID, iw.ID)
	cur := strings.ToUpper(iw.Currency)
	return w.runAction(walletAction{what: "link", done: cur + " wallet linked to the card"}, func(ctx context.Context, c *apiclient.Client) error {
		return c.LinkWallet(ctx, id)
	})
}

func (w *Wallets) unlink() tea.Cmd {
	if !w.ready() {
		return nil
	}
	iw, ok := w.selected()
	if !ok {
		return nil
	}
	if w.linkedIndex(iw) < 0 {
		return ui.Notify(theme.ToneInfo, strings.ToUpper(iw.Currency)+" wallet is not linked to the card")
	}
	id := firstNonEmpty(iw.AddressID, iw.ID)
	cur := strings.ToUpper(iw.Currency)
	return w.runAction(walletAction{what: "unlink", done: cur + " wallet unlinked from the card"}, func(ctx context.Context, c *apiclient.Client) error {
		return c.UnlinkWallet(ctx, id)
	})
}

// move changes the selected linked wallet's priority by delta (-1 = up).
func (w *Wallets) move(delta int) tea.Cmd {
	if !w.ready() {
		return nil
	}
	iw, ok := w.selected()
	if !ok {
		return nil
	}
	p := w.linkedIndex(iw)
	if p < 0 {
		return ui.Notify(theme.ToneInfo, "only a linked wallet has a priority: link it first (l)")
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
	return w.runAction(walletAction{what: "priority change", done: done}, func(ctx context.Context, c *apiclient.Client) error {
		return c.ReorderLinkedWallets(ctx, current, wanted)
	})
}

func (w *Wallets) runAction(a walletAction, fn func(context.Context, *apiclient.Client) error) tea.Cmd {
	w.busy = a.what
	w.reason = ""
	client := w.deps.Client
	var cmd tea.Cmd
	w.actionID, cmd = ui.Go(w.deps.Requests, func(ctx context.Context) (walletAction, error) {
		return a, fn(ctx, client)
	})
	return cmd
}
