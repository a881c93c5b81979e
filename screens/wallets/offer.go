package wallets

import (
	"fmt"

	"charm.land/bubbles/v2/key"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
)

// offerOnly enables the actions that can work for what the gateway last
// said (wallets linked, an external wallet, a withdrawable credit wallet)
// and keeps, per key it disables, the reason a press of it is told. It
// runs whenever one of the four reads answers.
func (w *Screen) offerOnly() {
	w.keys = newWalletKeys(w.Deps.ReadOnly, w.table.KeyMap())
	w.why = screenkit.DisabledReasons{}
	if apiclient.IsStatus(w.errs[readInternal], 403) {
		for _, b := range []*key.Binding{&w.keys.Link, &w.keys.Unlink, &w.keys.Up, &w.keys.Down, &w.keys.Withdraw, &w.keys.History} {
			w.why.Disable(b, b.Help().Desc+" needs a VERIFIED identity: see the verification state on "+w.Deps.ScreenNamed(screenkit.AccountScreen, "Account"))
		}
		return
	}
	if w.loaded[readLinked] && w.errs[readLinked] == nil {
		if len(w.linked) >= apiclient.MaxLinkedWallets {
			w.why.Disable(&w.keys.Link, fmt.Sprintf("cannot link another wallet: %d of %d are linked, the most the gateway allows; unlink one first (%s)",
				len(w.linked), apiclient.MaxLinkedWallets, w.keys.Unlink.Help().Key))
		}
		if len(w.linked) == 0 {
			why := "no wallet is linked to the card: link one first (" + w.keys.Link.Help().Key + ")"
			w.why.Disable(&w.keys.Unlink, "nothing to unlink: "+why)
			w.why.Disable(&w.keys.Up, "no priority to change: "+why)
			w.why.Disable(&w.keys.Down, "no priority to change: "+why)
		}
	}
	if why := w.whyNoWithdraw(); why != "" {
		w.why.Disable(&w.keys.Withdraw, why)
	}
}

// whyNoWithdraw is why a withdrawal cannot work now, or "" when it can (or
// the reads it depends on have not answered yet).
func (w *Screen) whyNoWithdraw() string {
	switch {
	case w.loaded[readCredit] && apiclient.IsNotFound(w.errs[readCredit]):
		return "nothing to withdraw: there is no credit wallet yet"
	case w.credit != nil && !w.credit.IsWithdrawable:
		return "withdraw: the credit wallet is not withdrawable now"
	case w.loaded[readExternal] && w.errs[readExternal] == nil && len(w.external) == 0:
		return "withdraw: there is no external wallet to send it to; complete the delegation first on " + w.Deps.ScreenNamed(screenkit.DelegationScreen, "Delegation")
	}
	return ""
}

// WhyDisabled implements ui.Explainer: the reason a disabled wallet action
// does nothing now.
func (w *Screen) WhyDisabled(pressed string) (string, bool) {
	if w.mode != modeOverview {
		return "", false
	}
	why, ok := w.why[pressed]
	return why, ok
}
