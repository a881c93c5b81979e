package sandbox_test

import (
	"bytes"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"cardterm/sandbox"
)

// TestContractSandbox runs the scripted calls against a sandbox and
// validates every request and answer against the document; at the end every
// interface operation the sandbox serves must have been exercised.
func TestContractSandbox(t *testing.T) {
	doc := loadContract(t)
	covered := map[string]bool{}
	h := newHarness(t, doc, sandbox.Options{}, covered)

	login := func(user string, extra ...string) string {
		r := h.do("login "+user, req{method: "POST", path: "/v1/auth/login", hdr: withKey(extra...),
			body: map[string]string{"username": user, "password": "demo-pass"}, want: 200})
		if r.str("accessToken") == "" {
			t.Fatalf("login %s: no access token: %s", user, r.raw)
		}
		return r.str("accessToken")
	}

	// ---------------------------------------------------------------- auth
	alice := login("alice@demo.test")
	frank := login("frank@demo.test")
	bruno := login("bruno@demo.test")
	nora := login("nora@demo.test")
	umar := login("umar@demo.test")
	lena := login("lena@demo.test")
	sam := login("sam@demo.test", "x-us-env", "true")
	r := h.do("login expiresIn", req{method: "POST", path: "/v1/auth/login", hdr: withKey(),
		body: map[string]string{"username": "pia@demo.test", "password": "demo-pass"}, want: 200})
	checkf(t, r.obj()["expiresIn"] == float64(21600), "login expiresIn = %v, want 21600", r.obj()["expiresIn"])
	h.do("login 499 no client key", req{method: "POST", path: "/v1/auth/login", hdr: hdrs(),
		body: map[string]string{"username": "alice@demo.test", "password": "demo-pass"}, want: 499, badRequest: true})
	h.do("login 498 bad client key", req{method: "POST", path: "/v1/auth/login", hdr: hdrs("x-client-key", "ck_nope"),
		body: map[string]string{"username": "alice@demo.test", "password": "demo-pass"}, want: 498})
	h.do("login 401 wrong password", req{method: "POST", path: "/v1/auth/login", hdr: withKey(),
		body: map[string]string{"username": "alice@demo.test", "password": "nope"}, want: 401})
	h.do("login 400 missing fields", req{method: "POST", path: "/v1/auth/login", hdr: withKey(),
		body: map[string]string{}, want: 400, badRequest: true})

	// ---------------------------------------------------------------- user
	r = h.do("user 200", req{method: "GET", path: "/v1/user", hdr: withBearer(alice), want: 200})
	checkf(t, r.str("verificationState") == "VERIFIED" && r.str("email") == "alice@demo.test", "alice profile: %s", r.raw)
	r = h.do("user 200 US", req{method: "GET", path: "/v1/user", hdr: withBearer(sam, "x-us-env", "true"), want: 200})
	checkf(t, r.str("ssn") != "" && !strings.Contains(r.str("ssn"), "123-45") && r.str("usState") == "CA",
		"US user: ssn must be present and masked, usState CA: %s", r.raw)
	r = h.do("user 200 unverified", req{method: "GET", path: "/v1/user", hdr: withBearer(umar), want: 200})
	checkf(t, r.str("verificationState") == "UNVERIFIED", "umar: %s", r.raw)
	h.do("user 401 US token on EU backend", req{method: "GET", path: "/v1/user", hdr: withBearer(sam), want: 401})
	h.do("user 401 no token", req{method: "GET", path: "/v1/user", hdr: withKey(), want: 401})
	h.do("user 401 bad token", req{method: "GET", path: "/v1/user", hdr: withBearer("sbx_at_nope"), want: 401})
	h.do("user 499", req{method: "GET", path: "/v1/user", hdr: hdrs("Authorization", "Bearer "+alice), want: 499, badRequest: true})
	h.do("user 498", req{method: "GET", path: "/v1/user", hdr: hdrs("x-client-key", "ck_nope", "Authorization", "Bearer "+alice), want: 498})

	// ---------------------------------------------------------------- card status
	for _, c := range []struct{ name, tok, status string }{{"alice", alice, "ACTIVE"}, {"frank", frank, "FROZEN"}, {"bruno", bruno, "BLOCKED"}} {
		r = h.do("card status "+c.name, req{method: "GET", path: "/v1/card/status", hdr: withBearer(c.tok), want: 200})
		checkf(t, r.str("status") == c.status, "%s card status %q, want %s", c.name, r.str("status"), c.status)
		checkf(t, r.str("holderName") == strings.ToUpper(r.str("holderName")), "%s holderName %q is not upper case", c.name, r.str("holderName"))
		for k := range r.obj() {
			lk := strings.ToLower(k)
			checkf(t, !strings.Contains(lk, "cvv") && !strings.Contains(lk, "pin") && lk != "pan" && !strings.Contains(lk, "cardnumber"),
				"%s card answer has field %q: the full number, CVV and PIN are never returned", c.name, k)
		}
	}
	h.do("card status US", req{method: "GET", path: "/v1/card/status", hdr: withBearer(sam, "x-us-env", "true"), want: 200})
	h.do("card status 404 no card", req{method: "GET", path: "/v1/card/status", hdr: withBearer(nora), want: 404})
	h.do("card status 403 unverified", req{method: "GET", path: "/v1/card/status", hdr: withBearer(umar), want: 403})
	h.do("card status 401", req{method: "GET", path: "/v1/card/status", hdr: withKey(), want: 401})
	h.do("card status 499", req{method: "GET", path: "/v1/card/status", hdr: hdrs("Authorization", "Bearer "+alice), want: 499, badRequest: true})
	h.do("card status 498", req{method: "GET", path: "/v1/card/status", hdr: hdrs("x-client-key", "ck_nope", "Authorization", "Bearer "+alice), want: 498})

	// ---------------------------------------------------------------- freeze / unfreeze
	r = h.do("unfreeze 400 active", req{method: "POST", path: "/v1/card/unfreeze", hdr: withBearer(alice), want: 400})
	checkf(t, r.str("message") == "Card is not frozen", "unfreeze ACTIVE message %q", r.str("message"))
	h.do("unfreeze 400 blocked", req{method: "POST", path: "/v1/card/unfreeze", hdr: withBearer(bruno), want: 400})
	h.do("unfreeze 200 frozen", req{method: "POST", path: "/v1/card/unfreeze", hdr: withBearer(frank), want: 200})
	r = h.do("card status after unfreeze", req{method: "GET", path: "/v1/card/status", hdr: withBearer(frank), want: 200})
	checkf(t, r.str("status") == "ACTIVE", "after unfreeze: %q", r.str("status"))
	h.do("freeze 200", req{method: "POST", path: "/v1/card/freeze", hdr: withBearer(frank), want: 200})
	r = h.do("freeze 400 already frozen", req{method: "POST", path: "/v1/card/freeze", hdr: withBearer(frank), want: 400})
	checkf(t, r.str("message") == "Card is already frozen", "freeze FROZEN message %q", r.str("message"))
	h.do("freeze 400 blocked", req{method: "POST", path: "/v1/card/freeze", hdr: withBearer(bruno), want: 400})
	h.do("freeze 404 no card", req{method: "POST", path: "/v1/card/freeze", hdr: withBearer(nora), want: 404})
	h.do("unfreeze 404 no card", req{method: "POST", path: "/v1/card/unfreeze", hdr: withBearer(nora), want: 404})
	h.do("unfreeze 403", req{method: "POST", path: "/v1/card/unfreeze", hdr: withBearer(umar), want: 403})
	h.do("unfreeze 401", req{method: "POST", path: "/v1/card/unfreeze", hdr: withKey(), want: 401})
	h.do("unfreeze 499", req{method: "POST", path: "/v1/card/unfreeze", hdr: hdrs("Authorization", "Bearer "+frank), want: 499, badRequest: true})
	h.do("unfreeze 498", req{method: "POST", path: "/v1/card/unfreeze", hdr: hdrs("x-client-key", "x", "Authorization", "Bearer "+frank), want: 498})

	// ---------------------------------------------------------------- set-PIN token and hosted page
	setPIN := func(name, tok string, body any, want int) res {
		return h.do(name, req{method: "POST", path: "/v1/card/set-pin/token", hdr: withBearer(tok), body: body, want: want})
	}
	plain := setPIN("set-pin 200 no body", alice, nil, 200)
	redirect := setPIN("set-pin 200 redirect", alice, map[string]any{
		"redirectUrl": "https://app.example/pin-done", "isEmbedded": false,
		"customCss": map[string]any{"backgroundColor": "#FFFFFF", "textColor": "#111", "backgroundColorPrimary": "#0A84FF",
			"textColorPrimary": "#FFFFFF", "buttonBorderRadius": 12, "pinBorderRadius": 6, "pinBorderColor": "#333333"},
	}, 200)
	embedded := setPIN("set-pin 200 embedded", alice, map[string]any{"isEmbedded": true}, 200)
	setPIN("set-pin 404 no card", nora, map[string]any{}, 404)
	setPIN("set-pin 403", umar, map[string]any{}, 403)
	setPIN("set-pin 401", "", map[string]any{}, 401)
	// The interface lists no validation error for set-PIN: a text colour
	// equal to its background is not refused (the sandbox uses the defaults).
	setPIN("set-pin 200 colours equal", alice, map[string]any{"customCss": map[string]any{"backgroundColor": "#000000", "textColor": "#000000"}}, 200)
	h.do("set-pin 499", req{method: "POST", path: "/v1/card/set-pin/token", hdr: hdrs("Authorization", "Bearer "+alice), body: map[string]any{}, want: 499, badRequest: true})
	h.do("set-pin 498", req{method: "POST", path: "/v1/card/set-pin/token", hdr: hdrs("x-client-key", "x", "Authorization", "Bearer "+alice), body: map[string]any{}, want: 498})

	pagePath := func(r res, field string) string {
		u, err := url.Parse(r.str(field))
		if err != nil || u.Path == "" {
			t.Fatalf("%s %q is not a URL", field, r.str(field))
		}
		return u.RequestURI()
	}
	openPage := func(name string, r res) string {
		p := h.do(name, req{method: "GET", path: pagePath(r, "hostedPageUrl"), want: 200})
		m := hiddenSession.FindSubmatch(p.raw)
		if m == nil {
			t.Fatalf("%s: no form session in the page", name)
		}
		return string(m[1])
	}
	sess := openPage("pin page 200", plain)
	h.do("pin page 410 second visit", req{method: "GET", path: pagePath(plain, "hostedPageUrl"), want: 410})
	h.do("pin page 404 unknown token", req{method: "GET", path: "/pin-direct/set?token=nope", want: 404})
	h.do("pin page 422 same digits", req{method: "POST", path: "/pin-direct/set",
		body: url.Values{"session": {sess}, "pin": {"1111"}, "confirm": {"1111"}, "action": {"set"}}, want: 422})
	h.do("pin page 422 confirmation differs", req{method: "POST", path: "/pin-direct/set",
		body: url.Values{"session": {sess}, "pin": {"4821"}, "confirm": {"4822"}, "action": {"set"}}, want: 422})
	h.do("pin page 422 not digits", req{method: "POST", path: "/pin-direct/set",
		body: url.Values{"session": {sess}, "pin": {"48a1"}, "confirm": {"48a1"}, "action": {"set"}}, want: 422})
	h.do("pin page 422 five digits", req{method: "POST", path: "/pin-direct/set",
		body: url.Values{"session": {sess}, "pin": {"48213"}, "confirm": {"48213"}, "action": {"set"}}, want: 422})
	h.do("pin page 200 set", req{method: "POST", path: "/pin-direct/set",
		body: url.Values{"session": {sess}, "pin": {"4821"}, "confirm": {"4821"}, "action": {"set"}}, want: 200})
	h.do("pin page 410 session over", req{method: "POST", path: "/pin-direct/set",
		body: url.Values{"session": {sess}, "pin": {"4821"}, "confirm": {"4821"}}, want: 410})
	sess = openPage("pin page 200 redirect mode", redirect)
	r = h.do("pin page 303 redirect", req{method: "POST", path: "/pin-direct/set",
		body: url.Values{"session": {sess}, "action": {"cancel"}}, want: 303})
	checkf(t, strings.HasPrefix(r.header.Get("Location"), "https://app.example/pin-done"), "redirect Location %q", r.header.Get("Location"))
	sess = openPage("pin page 200 embedded mode", embedded)
	r = h.do("pin page 200 embedded abort", req{method: "POST", path: "/pin-direct/set",
		body: url.Values{"session": {sess}, "pin": {"1357"}, "confirm": {"1357"}, "action": {"set"}}, want: 200})
	checkf(t, bytes.Contains(r.raw, []byte(`type:"abort"`)), "embedded page must post a message of type abort")

	// ---------------------------------------------------------------- view-PIN and details images
	pinTok := h.do("pin token 200", req{method: "POST", path: "/v1/card/pin/token", hdr: withBearer(alice),
		body: map[string]any{"customCss": map[string]any{"backgroundColor": "#112233", "textColor": "#FFFFFF"}}, want: 200})
	h.do("pin token 200 no body", req{method: "POST", path: "/v1/card/pin/token", hdr: withBearer(alice), want: 200})
	r = h.do("pin token 422 bad colour", req{method: "POST", path: "/v1/card/pin/token", hdr: withBearer(alice),
		body: map[string]any{"customCss": map[string]any{"backgroundColor": "blue"}}, want: 422, badRequest: true})
	if errs, _ := r.obj()["errors"].([]any); len(errs) > 0 {
		f, _ := errs[0].(map[string]any)
		checkf(t, f["field"] == "customCss.backgroundColor", "422 errors[0].field = %v", f["field"])
	}
	h.do("pin token 422 same colours", req{method: "POST", path: "/v1/card/pin/token", hdr: withBearer(alice),
		body: map[string]any{"customCss": map[string]any{"backgroundColor": "#FFFFFF", "textColor": "#fff"}}, want: 422})
	h.do("pin token 404 no card", req{method: "POST", path: "/v1/card/pin/token", hdr: withBearer(nora), want: 404})
	h.do("pin token 403", req{method: "POST", path: "/v1/card/pin/token", hdr: withBearer(umar), want: 403})
	h.do("pin token 401", req{method: "POST", path: "/v1/card/pin/token", hdr: withBearer("bad"), want: 401})
	h.do("pin token 499", req{method: "POST", path: "/v1/card/pin/token", hdr: hdrs("Authorization", "Bearer "+alice), want: 499, badRequest: true})
	h.do("pin token 498", req{method: "POST", path: "/v1/card/pin/token", hdr: hdrs("x-client-key", "x", "Authorization", "Bearer "+alice), want: 498})
	r = h.do("pin image 200", req{method: "GET", path: pagePath(pinTok, "imageUrl"), want: 200})
	checkf(t, bytes.HasPrefix(r.raw, []byte("\x89PNG")), "PIN image is not a PNG")
	h.do("pin image 410 single use", req{method: "GET", path: pagePath(pinTok, "imageUrl"), want: 410})
	h.do("image 404 unknown token", req{method: "GET", path: "/details-image?token=nope", want: 404})
	det := h.do("details token 200", req{method: "POST", path: "/v1/card/details/token", hdr: withBearer(alice),
		body: map[string]any{"customCss": map[string]any{"cardBackgroundColor": "#1A1F36", "panTextColor": "#EEEEEE"}}, want: 200})
	h.do("details image 200", req{method: "GET", path: pagePath(det, "imageUrl"), want: 200})
	h.do("details token 422", req{method: "POST", path: "/v1/card/details/token", hdr: withBearer(alice),
		body: map[string]any{"customCss": map[string]any{"cardTextColor": "#123456", "cardBackgroundColor": "#123456"}}, want: 422})
	h.do("details token 404", req{method: "POST", path: "/v1/card/details/token", hdr: withBearer(nora), want: 404})

	// ---------------------------------------------------------------- transactions
	r = h.do("transactions 200", req{method: "GET", path: "/v1/card/transactions", hdr: withBearer(alice), want: 200})
	checkf(t, len(r.arr()) > 0, "alice has no transactions")
	h.do("transactions 200 filtered", req{method: "GET", path: "/v1/card/transactions?dateFrom=2026-01-01&dateTo=2026-12-31&mccCategories=GROCERIES,TRAVEL&searchKey=paris&page=1",
		hdr: withBearer(alice), want: 200})
	h.do("transactions 422 dateFrom alone", req{method: "GET", path: "/v1/card/transactions?dateFrom=2026-01-01", hdr: withBearer(alice), want: 422})
	h.do("transactions 422 bad page", req{method: "GET", path: "/v1/card/transactions?page=-1", hdr: withBearer(alice), want: 422, badRequest: true})
	h.do("transactions 404 no card", req{method: "GET", path: "/v1/card/transactions", hdr: withBearer(nora), want: 404})
	h.do("transactions 403", req{method: "GET", path: "/v1/card/transactions", hdr: withBearer(umar), want: 403})

	// ---------------------------------------------------------------- card order (after the no-card cases)
	h.do("card order 400 has a card", req{method: "POST", path: "/v1/card/order", hdr: withBearer(alice), body: map[string]any{"type": "VIRTUAL"}, want: 400})
	h.do("card order 422 bad type", req{method: "POST", path: "/v1/card/order", hdr: withBearer(nora), body: map[string]any{"type": "GOLD"}, want: 422, badRequest: true})
	h.do("card order 200", req{method: "POST", path: "/v1/card/order", hdr: withBearer(nora), body: map[string]any{"type": "VIRTUAL"}, want: 200})
	h.do("card order 200 replaces blocked", req{method: "POST", path: "/v1/card/order", hdr: withBearer(bruno), body: map[string]any{"type": "METAL"}, want: 200})
	r = h.do("card status after order", req{method: "GET", path: "/v1/card/status", hdr: withBearer(nora), want: 200})
	checkf(t, r.str("status") == "ACTIVE" && r.str("type") == "VIRTUAL", "ordered card: %s", r.raw)

	// ---------------------------------------------------------------- wallets
	r = h.do("internal wallets 200", req{method: "GET", path: "/v1/wallet/internal", hdr: withBearer(alice), want: 200})
	addrOf := map[string]string{}
	idOf := map[string]string{}
	for _, w := range r.arr() {
		m, _ := w.(map[string]any)
		cur, _ := m["currency"].(string)
		addrOf[cur], _ = m["addressId"].(string)
		idOf[cur], _ = m["id"].(string)
	}
	if addrOf["eth"] == "" || idOf["usdc"] == "" {
		t.Fatalf("alice's internal wallets lack eth or usdc: %s", r.raw)
	}
	h.do("internal wallets 403", req{method: "GET", path: "/v1/wallet/internal", hdr: withBearer(umar), want: 403})
	h.do("linked wallets 200", req{method: "GET", path: "/v1/wallet/internal/card_linked", hdr: withBearer(alice), want: 200})
	link := func(name, tok string, body any, want int, bad bool) res {
		return h.do(name, req{method: "POST", path: "/v1/wallet/internal/card_linked", hdr: withBearer(tok), body: body, want: want, badRequest: bad})
	}
	link("link 201", alice, map[string]string{"addressId": addrOf["eth"]}, 201, false)
	link("link 400 already linked", alice, map[string]string{"addressId": addrOf["eth"]}, 400, false)
	link("link 404 unknown wallet", alice, map[string]string{"addressId": "nope"}, 404, false)
	link("link 422 no addressId", alice, map[string]string{}, 422, true)
	r = h.do("internal wallets lena", req{method: "GET", path: "/v1/wallet/internal", hdr: withBearer(lena), want: 200})
	lenaBTC := ""
	for _, w := range r.arr() {
		if m, _ := w.(map[string]any); m["currency"] == "btc" {
			lenaBTC, _ = m["addressId"].(string)
		}
	}
	r = link("link 400 sixth wallet", lena, map[string]string{"addressId": lenaBTC}, 400, false)
	checkf(t, strings.Contains(r.str("message"), "maximum of 5"), "sixth link message %q should say a maximum of 5 wallets can be linked", r.str("message"))
	link("link 403", umar, map[string]string{"addressId": "x"}, 403, false)
	link("link 401", "", map[string]string{"addressId": "x"}, 401, false)
	h.do("link 499", req{method: "POST", path: "/v1/wallet/internal/card_linked", hdr: hdrs("Authorization", "Bearer "+alice),
		body: map[string]string{"addressId": "x"}, want: 499, badRequest: true})
	h.do("link 498", req{method: "POST", path: "/v1/wallet/internal/card_linked", hdr: hdrs("x-client-key", "x", "Authorization", "Bearer "+alice),
		body: map[string]string{"addressId": "x"}, want: 498})
	h.do("unlink 200", req{method: "DELETE", path: "/v1/wallet/internal/card_linked", hdr: withBearer(alice), body: map[string]string{"addressId": addrOf["eth"]}, want: 200})
	h.do("unlink 404", req{method: "DELETE", path: "/v1/wallet/internal/card_linked", hdr: withBearer(alice), body: map[string]string{"addressId": addrOf["eth"]}, want: 404})
	h.do("external wallets 200", req{method: "GET", path: "/v1/wallet/external", hdr: withBearer(alice), want: 200})
	r = h.do("credit wallet 200", req{method: "GET", path: "/v1/wallet/credit", hdr: withBearer(alice), want: 200})
	creditID := r.str("id")
	checkf(t, r.obj()["isWithdrawable"] == true, "alice's credit wallet should be withdrawable: %s", r.raw)
	h.do("credit wallet 404", req{method: "GET", path: "/v1/wallet/credit", hdr: withBearer(nora), want: 404})
	h.do("withdraw estimation 200", req{method: "GET", path: "/v1/wallet/credit/withdraw-estimation", hdr: withBearer(alice), want: 200})
	h.do("withdraw estimation 404", req{method: "GET", path: "/v1/wallet/credit/withdraw-estimation", hdr: withBearer(nora), want: 404})
	withdraw := func(name, tok, amount string, want int, bad bool) res {
		return h.do(name, req{method: "POST", path: "/v1/wallet/credit/withdraw?x-us-env=false", hdr: withBearer(tok),
			body: map[string]string{"amount": amount}, want: want, badRequest: bad})
	}
	r = withdraw("withdraw 200", alice, "10.00", 200, false)
	checkf(t, strings.HasPrefix(r.str("txHash"), "0x"), "txHash %q", r.str("txHash"))
	withdraw("withdraw 409 in progress", alice, "5.00", 409, false)
	withdraw("withdraw 422 not an amount", alice, "ten", 422, true)
	h.clock.Advance(10 * time.Second) // the first withdrawal settles
	withdraw("withdraw 422 below the fee", alice, "0.10", 422, false)
	withdraw("withdraw 400 insufficient", alice, "100000.00", 400, false)
	withdraw("withdraw 403 not withdrawable", bruno, "1.00", 403, false)
	withdraw("withdraw 400 no external wallet", frank, "1.00", 400, false)
	withdraw("withdraw 404 no credit wallet", nora, "1.00", 404, false)
	withdraw("withdraw 403 unverified", umar, "1.00", 403, false)
	r = h.do("history 200", req{method: "GET", path: "/v1/wallet/history?walletId=" + idOf["usdc"], hdr: withBearer(alice), want: 200})
	checkf(t, len(r.arr()) == 10, "history page 0 has %d items, want 10", len(r.arr()))
	h.do("history 200 page 2", req{method: "GET", path: "/v1/wallet/history?walletId=" + idOf["usdc"] + "&walletType=internal&walletCurrency=usdc&page=2", hdr: withBearer(alice), want: 200})
	r = h.do("history 200 credit", req{method: "GET", path: "/v1/wallet/history?walletId=" + creditID + "&walletType=credit", hdr: withBearer(alice), want: 200})
	checkf(t, len(r.arr()) >= 2, "credit history should show the withdrawal: %s", r.raw)
	h.do("history 422 no walletId", req{method: "GET", path: "/v1/wallet/history", hdr: withBearer(alice), want: 422, badRequest: true})
	h.do("history 422 bad walletType", req{method: "GET", path: "/v1/wallet/history?walletId=x&walletType=savings", hdr: withBearer(alice), want: 422, badRequest: true})
	h.do("history 404 unknown wallet", req{method: "GET", path: "/v1/wallet/history?walletId=nope", hdr: withBearer(alice), want: 404})

	// ---------------------------------------------------------------- whitelist
	r = h.do("whitelist 200", req{method: "GET", path: "/v1/wallet/whitelist?currency=usdc&x-us-env=false", hdr: withBearer(alice), want: 200})
	checkf(t, len(r.arr()) == 2, "alice has %d usdc whitelist entries, want 2", len(r.arr()))
	r = h.do("whitelist 200 memo currency", req{method: "GET", path: "/v1/wallet/whitelist?currency=xrp", hdr: withBearer(alice), want: 200})
	if len(r.arr()) == 1 {
		m, _ := r.arr()[0].(map[string]any)
		checkf(t, m["walletMemo"] == "123456", "xrp entry memo %v", m["walletMemo"])
	}
	r = h.do("whitelist 422 no currency", req{method: "GET", path: "/v1/wallet/whitelist", hdr: withBearer(alice), want: 422, badRequest: true})
	checkf(t, strings.Contains(strings.ToLower(r.str("message")), "currency"), "422 message %q should say the currency parameter is required", r.str("message"))
	h.do("whitelist 422 unsupported currency", req{method: "GET", path: "/v1/wallet/whitelist?currency=doge", hdr: withBearer(alice), want: 422})
	h.do("whitelist 403", req{method: "GET", path: "/v1/wallet/whitelist?currency=usdc", hdr: withBearer(umar), want: 403})
	h.do("whitelist 401", req{method: "GET", path: "/v1/wallet/whitelist?currency=usdc", hdr: withKey(), want: 401})
	h.do("whitelist 499", req{method: "GET", path: "/v1/wallet/whitelist?currency=usdc", hdr: hdrs("Authorization", "Bearer "+alice), want: 499, badRequest: true})
	h.do("whitelist 498", req{method: "GET", path: "/v1/wallet/whitelist?currency=usdc", hdr: hdrs("x-client-key", "x", "Authorization", "Bearer "+alice), want: 498})
	entry := func(cur, addr string, memo ...string) map[string]string {
		e := map[string]string{"currency": cur, "name": "Test " + cur, "beneficiaryFirstName": "Alice", "beneficiaryLastName": "Martin", "walletAddress": addr}
		if len(memo) > 0 {
			e["walletMemo"] = memo[0]
		}
		return e
	}
	addWL := func(name string, body any, want int, bad bool) res {
		return h.do(name, req{method: "POST", path: "/v1/wallet/whitelist", hdr: withBearer(alice), body: body, want: want, badRequest: bad})
	}
	addWL("whitelist add 201", map[string]any{"wallets": []any{
		entry("usdc", "0x1111111111111111111111111111111111111111"),
		entry("xrp", "rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYf", "42"),
	}}, 201, false)
	r = addWL("whitelist add 422 bad address", map[string]any{"wallets": []any{entry("usdc", "0x123")}}, 422, false)
	checkf(t, strings.Contains(strings.ToLower(r.str("message")), "address"), "422 message %q should name the invalid address", r.str("message"))
	addWL("whitelist add 422 memo missing", map[string]any{"wallets": []any{entry("xrp", "rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYg")}}, 422, false)
	addWL("whitelist add 422 no wallets", map[string]any{}, 422, true)
	addWL("whitelist add 422 empty wallets", map[string]any{"wallets": []any{}}, 422, false)
	h.do("whitelist add 403", req{method: "POST", path: "/v1/wallet/whitelist", hdr: withBearer(umar),
		body: map[string]any{"wallets": []any{entry("usdc", "0x1111111111111111111111111111111111111111")}}, want: 403})
	r = h.do("whitelist 200 after add", req{method: "GET", path: "/v1/wallet/whitelist?currency=usdc", hdr: withBearer(alice), want: 200})
	newID := ""
	for _, e := range r.arr() {
		if m, _ := e.(map[string]any); m["walletAddress"] == "0x1111111111111111111111111111111111111111" {
			newID, _ = m["id"].(string)
		}
	}
	checkf(t, newID != "", "the added entry is not listed: %s", r.raw)
	delWL := func(name string, body any, want int, bad bool) res {
		return h.do(name, req{method: "DELETE", path: "/v1/wallet/whitelist", hdr: withBearer(alice), body: body, want: want, badRequest: bad})
	}
	delWL("whitelist delete 200", map[string]any{"walletIds": []string{newID}}, 200, false)
	r = delWL("whitelist delete 422 unknown id", map[string]any{"walletIds": []string{newID}}, 422, false)
	checkf(t, strings.Contains(strings.ToLower(r.str("message")), "invalid wallet id"), "422 message %q should say invalid wallet id", r.str("message"))
	delWL("whitelist delete 422 no ids", map[string]any{}, 422, true)

	scriptOAuthLogoutAndLimits(t, h, doc, covered, login, setPIN, pagePath, alice)

	// ------------------------------------------------------- later families
	for _, script := range familyScripts {
		script(t, h, login)
	}

	// ---------------------------------------------------------------- coverage
	ops := docOps(doc)
	served := sandboxRoutes(t)
	var unexercised, designLeft, notServed []string
	for _, k := range served {
		if covered[k] {
			continue
		}
		if ops[k] == "interface" {
			unexercised = append(unexercised, k)
		} else {
			designLeft = append(designLeft, k)
		}
	}
	for _, k := range interfaceOps {
		if !slices.Contains(served, k) {
			notServed = append(notServed, k)
		}
	}
	if len(unexercised) > 0 {
		t.Errorf("interface operations the sandbox serves but the contract script never exercises (add calls to TestContractSandbox):\n  %s",
			strings.Join(unexercised, "\n  "))
	}
	if len(designLeft) > 0 {
		t.Logf("design operations served but not exercised:\n  %s", strings.Join(designLeft, "\n  "))
	}
	if len(notServed) > 0 {
		t.Logf("interface operations the sandbox does not serve yet:\n  %s", strings.Join(notServed, "\n  "))
	}

}
