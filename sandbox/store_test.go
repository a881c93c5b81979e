package sandbox

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// openTestStore opens a data directory and closes it after the test.
func openTestStore(t *testing.T, dir string) *Store {
	t.Helper()
	st, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// everything is the whole state of s, every lazily seeded part seeded,
// as JSON: two sandboxes in the same state give the same text.
func everything(t *testing.T, s *Server) string {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	f := fixture{Format: fixtureFormat, Version: fixtureVersion}
	for _, k := range slices.SortedFunc(func(yield func(backendKey) bool) {
		for k := range s.backends {
			if !yield(k) {
				return
			}
		}
	}, func(a, b backendKey) int { return strings.Compare(a.String(), b.String()) }) {
		be := s.backends[k]
		for _, u := range be.order {
			walletsOf(u)
			delegationOf(u)
			ordersOf(u)
			f.Users = append(f.Users, userFixture(u, true))
		}
		if k.Region == "eu" {
			f.Webhooks = append(f.Webhooks, partnerFixture(s.webhookPartnerOf(be), true))
		}
		f.Consent = append(f.Consent, consentFixture(be, s.consentOf(be, t0)))
	}
	for _, card := range slices.Sorted(func(yield func(string) bool) {
		for c := range s.pinStore().pins {
			if !yield(c) {
				return
			}
		}
	}) {
		f.PINs = append(f.PINs, fixturePIN{CardID: card, PIN: s.pin.pins[card]})
	}
	b, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// changeEverything makes one change of each kind the sandbox keeps,
// calling restart after each (e may be replaced: a restarted sandbox).
func changeEverything(t *testing.T, e *env, restart func()) signedIn {
	t.Helper()
	alice, refresh := e.login("alice@demo.test")
	nora, _ := e.login("nora@demo.test")
	want(t, e.do("POST", "/v1/card/freeze", bearer(alice), nil), 200, "")
	restart()
	want(t, e.do("POST", "/v1/card/order", bearer(nora), map[string]string{"type": "PHYSICAL"}), 200, "")
	restart()
	want(t, e.do("POST", "/sandbox/kyc", secretHdr(), map[string]string{"user": "pia@demo.test", "verificationState": "VERIFIED"}), 200, "")
	want(t, e.do("POST", "/sandbox/simulate", secretHdr(), map[string]string{"type": "decline", "user": "alice@demo.test", "amount": "3.20"}), 200, "")
	restart()
	want(t, e.do("POST", "/v1/wallet/whitelist", bearer(alice), map[string]any{"wallets": []map[string]any{{
		"currency": "usdc", "name": "Kept", "beneficiaryFirstName": "Ada", "beneficiaryLastName": "L",
		"walletAddress": "0x1111111111111111111111111111111111111111"}}}), 201, "")
	restart()
	list := e.do("GET", "/v1/wallet/whitelist?currency=usdc", bearer(alice), nil)
	var entries []map[string]any
	_ = json.Unmarshal(list.Raw, &entries)
	want(t, e.do("DELETE", "/v1/wallet/whitelist", bearer(alice), map[string]any{"walletIds": []any{entries[0]["id"]}}), 200, "")
	restart()
	want(t, e.do("POST", "/v1/wallet/credit/withdraw", bearer(alice), map[string]any{"amount": "20.00"}), 200, "")
	restart()
	want(t, e.do("POST", "/v1/order", bearer(nora, "X-Client-ID", "acme-sandbox"), map[string]string{
		"productId": "prod_virtual_card", "paymentMethod": "CRYPTO_EXTERNAL_DAIMO"}), 200, "")
	restart()
	tok := e.do("GET", tokenPath(""), bearer(nora), nil)
	want(t, e.do("POST", "/v1/delegation/evm/post-approval", bearer(nora), approval(tok)), 200, "")
	restart()
	created := e.do("POST", "/v1/webhooks", bearer(alice), map[string]any{"name": "Kept hook",
		"url": "https://hooks.example.test/in", "event_types": []string{"card.frozen"}})
	want(t, created, 201, "")
	restart()
	r := e.do("POST", "/v2/consent/onboarding", secretHdr(), map[string]any{"onboardingId": "onb-kept", "policyType": "global",
		"consents": []map[string]any{{"consentType": "termsAndPrivacy", "consentStatus": "granted"}}})
	want(t, r, 201, "")
	restart()
	want(t, e.do("PATCH", "/v2/consent/onboarding/"+r.str("consentSetId"), secretHdr(), map[string]string{"userId": DemoUserID("nora@demo.test")}), 200, "")
	restart()
	frank, _ := e.login("frank@demo.test")
	want(t, e.do("POST", "/v1/card/unfreeze", bearer(frank), nil), 200, "")
	restart()
	lena, _ := e.login("lena@demo.test")
	var internal []map[string]any
	_ = json.Unmarshal(e.do("GET", "/v1/wallet/internal", bearer(lena), nil).Raw, &internal)
	want(t, e.do("DELETE", "/v1/wallet/internal/card_linked", bearer(lena), map[string]string{"addressId": internal[0]["addressId"].(string)}), 200, "")
	restart()
	bruno, _ := e.login("bruno@demo.test")
	order := e.do("POST", "/v1/order", bearer(bruno, "X-Client-ID", "acme-sandbox"), map[string]string{
		"productId": "prod_virtual_card", "paymentMethod": "CRYPTO_EXTERNAL_DAIMO"})
	want(t, order, 200, "")
	e.clock.Advance(7 * time.Second)
	if got := e.do("GET", "/v1/order/"+order.str("orderId"), bearer(bruno, "X-Client-ID", "acme-sandbox"), nil).str("status"); got != "COMPLETED" {
		t.Fatalf("bruno's order: %s", got)
	}
	restart()
	hook := created.JSON["data"].(map[string]any)["id"].(string)
	want(t, e.do("POST", "/sandbox/trigger", secretHdr(), map[string]any{"event_type": "card.frozen"}), 200, "")
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		d := e.do("GET", "/v1/webhooks/"+hook+"/deliveries", bearer(alice), nil)
		if strings.Contains(string(d.Raw), `"state":"failed"`) {
			break // the delivery's last attempt is recorded
		}
		if time.Now().After(deadline) {
			t.Fatalf("the delivery never ended: %s", d.Raw)
		}
	}
	restart()
	// After the delivery's last attempt: nothing else writes the partner's webhooks.
	want(t, e.do("PUT", "/v1/webhooks/"+hook, bearer(alice), map[string]any{"name": "Kept hook, renamed"}), 200, "")
	restart()
	want(t, e.do("POST", "/v1/webhooks/"+hook+"/rotate-key", bearer(alice), nil), 200, "")
	restart()
	seeded := uuidFrom("webhook", backendKey{"acme", "sandbox", "eu"}.String(), "CRM (paused)")
	want(t, e.do("DELETE", "/v1/webhooks/"+seeded, bearer(alice), nil), 200, "")
	restart()
	aliceID := DemoUserID("alice@demo.test")
	set := e.do("GET", "/v2/consent/user/"+aliceID+"?full=true", ck(), nil).JSON["consentSets"].([]any)[0].(map[string]any)
	revoked := false
	for _, k := range consentSet(t, e, set["consentSetId"].(string)) {
		if k["consentType"] == "smsNotifications" && !revoked {
			path := "/v2/consent/consentSet/" + set["consentSetId"].(string) + "/consent/" + k["consentId"].(string)
			want(t, e.do("DELETE", path, secretHdr(), nil), 200, "")
			revoked = true
			restart()
		}
	}
	if !revoked {
		t.Fatal("alice has no sms consent to revoke")
	}
	if _, err := e.s.SeedWhitelist("frank@demo.test", "usdc", 10); err != nil {
		t.Fatal(err)
	}
	restart()
	e.s.mu.Lock()
	e.s.pinStore().pins["card-x"] = "1234"
	e.s.keepPINLocked("card-x", "1234")
	e.s.mu.Unlock()
	e.s.commitLogged()
	restart()
	return signedIn{alice: alice, aliceRefresh: refresh}
}

// signedIn is alice's tokens from changeEverything.
type signedIn struct{ alice, aliceRefresh string }

func TestDataDirectoryKeepsEveryChangeAcrossARestart(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t, Options{Store: openTestStore(t, dir)})
	// After each change: stop, start again on the same directory, and find
	// the whole state as it was; a handler that forgets to keep what it
	// changed fails here.
	restart := func() {
		t.Helper()
		_, _, line, _ := runtime.Caller(1)
		waitForDeliveries(t, e.s)
		before := everything(t, e.s)
		e.s.Close()
		e.s.persist.store.Close()
		*e = *newEnv(t, Options{Store: openTestStore(t, dir)})
		if after := everything(t, e.s); after != before {
			t.Fatalf("restarted after the change before store_test.go:%d, the sandbox differs:\n%s", line, firstDifference(before, after))
		}
	}
	first := changeEverything(t, e, restart)

	// Alice's sign-in of before the restarts still works, and refreshes.
	if got := e.do("GET", "/v1/card/status", bearer(first.alice), nil).str("status"); got != cardFrozen {
		t.Fatalf("alice's card after the restart: %s, want FROZEN", got)
	}
	r := e.do("POST", "/v1/auth/oauth/token", secretHdr(), map[string]string{"grant_type": "refresh_token", "refresh_token": first.aliceRefresh})
	want(t, r, 200, "")
	e.s.persist.store.Close()
	raw, _ := os.ReadFile(filepath.Join(dir, StoreFile))
	if bytes.Contains(raw, []byte(first.alice)) || bytes.Contains(raw, []byte(first.aliceRefresh)) {
		t.Fatal("the data directory holds a token as it is")
	}
}

func TestExportResetImportRoundTrips(t *testing.T) {
	dir := t.TempDir()
	st := openTestStore(t, dir)
	e := newEnv(t, Options{Store: st})
	changeEverything(t, e, func() {})
	changed := everything(t, e.s)
	var exported bytes.Buffer
	if err := st.Export(&exported); err != nil {
		t.Fatal(err)
	}
	if err := st.Reset(); err != nil {
		t.Fatal(err)
	}
	if got, seed := everything(t, New(Options{Clock: NewManualClock(t0), Store: st})), everything(t, New(Options{Clock: NewManualClock(t0)})); got != seed {
		t.Fatalf("after a reset the sandbox is not its seed:\n%s", firstDifference(seed, got))
	}
	if err := st.Import(bytes.NewReader(exported.Bytes()), "fixture.json"); err != nil {
		t.Fatal(err)
	}
	if got := everything(t, New(Options{Clock: NewManualClock(t0), Store: st})); got != changed {
		t.Fatalf("import did not restore the export:\n%s", firstDifference(changed, got))
	}
	var again bytes.Buffer
	if err := st.Export(&again); err != nil {
		t.Fatal(err)
	}
	if again.String() != exported.String() {
		t.Fatal("a second export differs from the first")
	}
}

func TestImportRefusesBadFixturesWithPathAndReason(t *testing.T) {
	st := openTestStore(t, t.TempDir())
	cases := map[string]string{
		`{"format":"other","version":1}`:                                               `format: must be "cardterm-sandbox"`,
		`{"format":"cardterm-sandbox","version":9}`:                                    "version: version 9 is not supported",
		`{"format":"cardterm-sandbox","version":1,"extra":1}`:                          `unknown member "extra"`,
		"{\n\"format\":\"cardterm-sandbox\",\n\"version\":1,,}":                        "line 3: not valid JSON",
		`{"format":"cardterm-sandbox","version":1,"users":[{"id":"nope"}]}`:            `users[0].id: "nope" is not a user of the sandbox's seed`,
		`{"format":"cardterm-sandbox","version":1,"users":[{"id":1}]}`:                 "users[0].id: must be string, not number",
		`{"format":"cardterm-sandbox","version":1,"pins":[{"cardId":"c","pin":"12"}]}`: "pins[0].pin: The PIN must be exactly 4 digits.",
		`{"format":"cardterm-sandbox","version":1,"webhooks":[{"tenant":"acme","environment":"sandbox","created":1,"configurations":[{"id":"h","name":"n","url":"ftp://x","apiKey":"whsec_0123456789abcdef","eventTypes":["card.frozen"],"metadata":{}}]}]}`: "webhooks[0].configurations[0].url: url must use HTTPS",
	}
	alice := DemoUserID("alice@demo.test")
	cases[`{"format":"cardterm-sandbox","version":1,"users":[{"id":"`+alice+`","username":"alice@demo.test","verificationState":"VERIFIED","card":{"id":"c","status":"LOST","type":"VIRTUAL"}}]}`] =
		"users[0].card.status: must be ACTIVE, FROZEN or BLOCKED"
	for in, wantMsg := range cases {
		err := st.Import(strings.NewReader(in), "fixture.json")
		if err == nil || !strings.Contains(err.Error(), wantMsg) || !strings.HasPrefix(err.Error(), "fixture.json: ") {
			t.Errorf("import %s:\n got %v\nwant fixture.json: …%s…", in, err, wantMsg)
		}
	}
}

func TestOpenStoreRefusesForeignAndDamagedFiles(t *testing.T) {
	for name, content := range map[string][]byte{
		"foreign": []byte("SQLite format 3\x00" + strings.Repeat("x", 8192)),
		"damaged": damagedStore(t),
		"short":   []byte("hello"),
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, StoreFile)
		if err := os.WriteFile(path, content, 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := OpenStore(dir)
		if err == nil || !strings.Contains(err.Error(), "refusing to use or overwrite it") {
			t.Errorf("%s: OpenStore = %v, want a refusal", name, err)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, content) {
			t.Errorf("%s: the refused file was changed", name)
		}
		if left, _ := os.ReadDir(dir); len(left) != 1 {
			t.Errorf("%s: a refused directory holds %v; want the refused file only", name, left)
		}
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, StoreFile), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenStore(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory named %s: OpenStore = %v", StoreFile, err)
	}
}

// damagedStore is a real store whose pages past the meta pages are
// overwritten with garbage.
func damagedStore(t *testing.T) []byte {
	dir := t.TempDir()
	st, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := New(Options{Store: st})
	if _, err := s.SeedWhitelist("alice@demo.test", "usdc", 200); err != nil {
		t.Fatal(err)
	}
	st.Close()
	b, err := os.ReadFile(filepath.Join(dir, StoreFile))
	if err != nil {
		t.Fatal(err)
	}
	for i := 2 * 4096; i < len(b); i++ {
		b[i] = byte(i * 7)
	}
	return b
}

func TestOpenStoreRefusesASecondProcess(t *testing.T) {
	dir := t.TempDir()
	openTestStore(t, dir)
	start := time.Now()
	if _, err := OpenStore(dir); err == nil || !strings.Contains(err.Error(), "in use by another cardterm sandbox") {
		t.Fatalf("second OpenStore = %v, want in use", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatal("the second open waited too long")
	}
}

// waitForDeliveries waits until no webhook delivery of s is under way
// (the seeded configurations' are refused at once: not loopback).
func waitForDeliveries(t *testing.T, s *Server) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(2 * time.Millisecond) {
		busy := false
		s.mu.Lock()
		for _, be := range s.backends {
			if be.webhooks == nil {
				continue
			}
			for _, h := range be.webhooks.hooks {
				for _, d := range h.deliveries {
					busy = busy || d.State == webhookPending || d.State == webhookRetrying
				}
			}
		}
		s.mu.Unlock()
		if !busy {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("webhook deliveries still under way")
		}
	}
}

// firstDifference shows where two long texts first differ.
func firstDifference(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return al[i] + "\n  became " + bl[i]
		}
	}
	return "lengths differ"
}

func TestOpenStoreRefusesAnotherProgramsBoltFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, StoreFile)
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("theirs")); return err }); err != nil {
		t.Fatal(err)
	}
	db.Close()
	content, _ := os.ReadFile(path)
	if _, err := OpenStore(dir); err == nil || !strings.Contains(err.Error(), "a bbolt database of another program") {
		t.Fatalf("OpenStore = %v, want a refusal", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, content) {
		t.Fatal("the refused file was changed")
	}
}
