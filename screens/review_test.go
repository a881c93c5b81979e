package screens

import (
	"encoding/json"
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

// hostileBits are what must never reach the terminal from the gateway.
var hostileBits = []string{"\x1b]8;", "\x1b]52;", "\x1b[31m", "\x1b[2J", "\x07", "\r", "\u202e", "\u200b"}

func mustBeClean(t *testing.T, where, frame string) {
	t.Helper()
	for _, bad := range hostileBits {
		if strings.Contains(frame, bad) {
			t.Fatalf("%s carries %q from the gateway:\n%q", where, bad, frame)
		}
	}
}

const hostileText = "\x1b[31mRED\x1b[0m\x1b]52;c;cm0gLXJmIH4=\x07\u202eevil\u200b\r"

// Field names the gateway adds (extra fields, metadata keys) are its text
// too: the label column is sanitized like the values.
func TestRenderFieldsSanitizesGatewayLabels(t *testing.T) {
	st := theme.New(true, false)
	extra := apiclient.Extra{hostileText: json.RawMessage(`"x"`), "plain": json.RawMessage(`"` + `\u001b[2J` + `"`)}
	out := renderFields(&st, extraFields(extra), 80)
	mustBeClean(t, "renderFields", out)
	mustShow(t, uitest.Plain(out), "<U+202E>", "plain")
}

// The transaction filter form lists the categories seen; a hostile one is
// neither drawn raw nor offered as a suggestion.
func TestTransactionCategoriesFromGatewayAreSanitized(t *testing.T) {
	st := theme.New(true, false)
	tr := NewTransactions(Deps{Styles: &st, Requests: ui.NewRequests()})
	tr.loaded = true
	tr.setRows([]apiclient.Transaction{
		{ID: "1", MCCCategory: "GROCERIES", Status: "CONFIRMED"},
		{ID: "2", MCCCategory: hostileText, MerchantNameLocation: hostileText, Status: "CONFIRMED"},
	})
	tr.openFilters()
	frame := tr.View(100, 30)
	mustBeClean(t, "the filter form", frame)
	mustShow(t, uitest.Plain(frame), "categories seen: GROCERIES")
	for _, c := range tr.knownCategories() {
		if c != ui.Sanitize(c) {
			t.Fatalf("suggestion %q is not clean", c)
		}
	}
}

// While the table's quick filter has the keys, f, c, n and p are letters
// of the filter, not the screen's actions.
func TestTransactionsQuickFilterTakesLetters(t *testing.T) {
	r := txnRig(t, "alice@demo.test")
	r.want("page 1")
	tr := r.m.s.(*Transactions)
	r.keys("/")
	if !tr.CapturesKeys() {
		t.Fatal("the quick filter does not capture keys")
	}
	r.keys("f", "n", "p", "c")
	if tr.form != nil {
		t.Fatal("f opened the filter form while typing in the quick filter")
	}
	if tr.filter.Page != 0 || tr.loading {
		t.Fatalf("n/p changed the page while typing in the quick filter (page %d)", tr.filter.Page)
	}
	if got := tr.table.Filter(); got != "fnpc" {
		t.Fatalf("quick filter is %q, want %q", got, "fnpc")
	}
}

// A consent status the app does not know is shown as the gateway sent it,
// but sanitized, in the set's detail view.
func TestConsentDetailSanitizesUnknownStatus(t *testing.T) {
	st := theme.New(true, false)
	c := NewConsent(Deps{Styles: &st, Requests: ui.NewRequests()})
	uid := "u-1"
	c.setData(cnsLoaded{subject: cnsSubject{userID: uid}, status: "complete", sets: []apiclient.ConsentSet{{
		ConsentSetID: "set-1", UserID: &uid, PolicyType: "global",
		Consents: []apiclient.Consent{{ConsentID: "k1", ConsentType: "termsAndPrivacy", ConsentStatus: hostileText}},
	}}})
	c.mode, c.detail = cnsDetail, "set-1"
	frame := c.View(100, 30)
	mustBeClean(t, "the consent detail", frame)
	mustShow(t, uitest.Plain(frame), "<U+202E>evil")
}

// The OAuth link is drawn as an OSC 8 hyperlink only when it is a clean web
// link: a hostile one would end the sequence and start its own.
func TestOAuthHostileLinkIsNotAHyperlink(t *testing.T) {
	st := theme.New(true, false)
	lb, err := startLoopback("state")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(lb.close)
	s := NewSignIn(Deps{Styles: &st, Requests: ui.NewRequests(), Client: apiclient.New(apiclient.Config{})})
	s.mode = modeOAuth
	s.flow = &oauthFlow{id: 1, lb: lb, link: "https://gw.example/authorize?x=\x07\x1b]52;c;ZWNobyBoaQ==\x07"}
	frame := s.View(100, 30)
	mustBeClean(t, "the OAuth panel", frame)

	s.flow.link = "https://gw.example/authorize?client_id=abc"
	if frame := s.View(100, 30); !strings.Contains(frame, "\x1b]8;;https://gw.example/authorize?client_id=abc\x07") {
		t.Fatalf("a clean link is no longer a hyperlink:\n%q", frame)
	}
}

// An add sent while a delete is on its way: both answers are taken, so the
// screen does not stay "deleting…" with x dead.
func TestWhitelistAddWhileDeleteRuns(t *testing.T) {
	r := newRig(t, "alice@demo.test", func(d Deps) ui.Screen { return NewWhitelist(d) })
	w := r.m.s.(*Whitelist)
	if len(w.entries) == 0 {
		t.Fatal("alice has no whitelist entries")
	}
	// Confirm a delete, but hold its answer.
	uitest.Run(w.confirmDelete())
	del := w.runDelete(w.deleting)
	if del == nil || !w.running {
		t.Fatal("the delete did not start")
	}
	// Meanwhile an add goes out and is answered.
	r.keys("a")
	r.typ("Cold storage")
	r.keys("tab")
	r.typ("Ada")
	r.keys("tab")
	r.typ("Lovelace")
	r.keys("tab")
	r.typ("0x00000000000000000000000000000000000c0ffe")
	r.keys("ctrl+s")
	if w.form != nil {
		t.Fatalf("the add did not finish:\n%s\n%s", r.view(), r.notices())
	}
	// Now the delete's answer arrives: it must still be taken.
	r.drive(del)
	if w.running || w.deleting != nil {
		t.Fatalf("the delete's answer was dropped: running=%v deleting=%v\n%s", w.running, w.deleting, r.notices())
	}
	if !strings.Contains(r.notices(), "deleted 1 whitelist entry") {
		t.Fatalf("no delete notice:\n%s", r.notices())
	}
}

// Esc on the token form while the request is in flight cancels it, as the
// form says; the form stays with the choices.
func TestDelegationTokenEscCancelsInFlight(t *testing.T) {
	r := newRig(t, "alice@demo.test", func(d Deps) ui.Screen { return NewDelegation(d) })
	d := r.m.s.(*Delegation)
	r.keys("t")
	if d.form == nil {
		t.Fatal("t did not open the token form")
	}
	// Faucet off: enter sends at once. Hold the request's command.
	r.keys("space")
	_, send := d.Update(uitest.Key("enter"))
	if send == nil || !d.form.sending {
		t.Fatal("the token request did not start")
	}
	if d.deps.Requests.InFlight() == 0 {
		t.Fatal("no request in flight")
	}
	d.Update(uitest.Key("esc"))
	if n := d.deps.Requests.InFlight(); n != 0 {
		t.Fatalf("esc left %d requests in flight", n)
	}
	r.drive(send)
	if d.form == nil || d.form.sending {
		t.Fatal("the form did not come back after the cancel")
	}
	mustShow(t, r.view(), "Cancelled")
	if d.last != nil {
		t.Fatal("a cancelled request issued a token on screen")
	}
}

// In the audit view the help lists only what works there.
func TestConsentHelpMatchesMode(t *testing.T) {
	st := theme.New(true, false)
	c := NewConsent(Deps{Styles: &st, Requests: ui.NewRequests()})
	c.mode = cnsAudit
	for _, group := range c.KeyMap().FullHelp() {
		for _, b := range group {
			for _, k := range b.Keys() {
				if k == "x" || k == "L" || k == "N" || k == "u" {
					t.Fatalf("the audit view's help offers %q", k)
				}
			}
		}
	}
}

// In the body of an 80x24 terminal (60x22) the columns that matter stay on
// screen: a wallet's link to the card, a whole whitelisted address, a
// transaction's amount and status.
func TestTablesFitAnEightyColumnTerminal(t *testing.T) {
	w := newRig(t, "alice@demo.test", func(d Deps) ui.Screen { return NewWallets(d) })
	mustShow(t, uitest.Plain(w.m.s.View(60, 22)), "linked #1")

	wl := newRig(t, "alice@demo.test", func(d Deps) ui.Screen { return NewWhitelist(d) })
	e := wl.m.s.(*Whitelist).entries[0]
	mustShow(t, uitest.Plain(wl.m.s.View(60, 22)), e.WalletAddress, "Memo/tag")
	// Wider again: every column comes back.
	mustShow(t, uitest.Plain(wl.m.s.View(100, 22)), "Beneficiary", "Created", e.WalletAddress)

	tr := txnRig(t, "alice@demo.test")
	x := tr.m.s.(*Transactions).rows[0]
	mustShow(t, uitest.Plain(tr.m.s.View(60, 22)), txnAmount(&x), x.Status)
}
