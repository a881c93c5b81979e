package sandbox

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// storedRecords reads the records of dir's closed store whose keys start
// with prefix, as JSON.
func storedRecords(t *testing.T, dir, prefix string) map[string]string {
	t.Helper()
	db, err := bolt.Open(filepath.Join(dir, StoreFile), 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	out := map[string]string{}
	err = db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketState).ForEach(func(k, v []byte) error {
			if strings.HasPrefix(string(k), prefix) {
				data, err := unsealRecord(k, v)
				out[string(k)] = string(data)
				return err
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// historyEnv is a sandbox on dir with a webhook of alice's partner that
// takes card.frozen and card.unfrozen at a local receiver answering 204.
func historyEnv(t *testing.T, dir string) (e *env, alice, hook string) {
	t.Helper()
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	t.Cleanup(receiver.Close)
	e = newEnv(t, Options{Store: openTestStore(t, dir)})
	alice, _ = e.login("alice@demo.test")
	created := e.do("POST", "/v1/webhooks", bearer(alice), map[string]any{"name": "History",
		"url": receiver.URL + "/in", "event_types": []string{"card.frozen", "card.unfrozen"}})
	want(t, created, 201, "")
	return e, alice, created.JSON["data"].(map[string]any)["id"].(string)
}

// freezeAndUnfreeze makes 2n card events for alice's partner.
func freezeAndUnfreeze(t *testing.T, e *env, alice string, n int) {
	t.Helper()
	for range n {
		want(t, e.do("POST", "/v1/card/freeze", bearer(alice), nil), 200, "")
		want(t, e.do("POST", "/v1/card/unfreeze", bearer(alice), nil), 200, "")
	}
	waitForDeliveries(t, e.s)
}

// reopened closes e and starts a sandbox on dir again, failing unless it
// holds the state e had.
func reopened(t *testing.T, e *env, dir string) *env {
	t.Helper()
	before := everything(t, e.s)
	e.s.Close()
	e.s.persist.store.Close()
	again := newEnv(t, Options{Store: openTestStore(t, dir)})
	if after := everything(t, again.s); after != before {
		t.Fatalf("after a restart the sandbox differs:\n%s", firstDifference(before, after))
	}
	return again
}

// A partner's events and deliveries are records of their own: an event
// writes itself, not the partner's whole history (a card frozen wrote
// 166 KB when the history was inside the partner's record), and those
// pushed out of the history are deleted with it.
func TestAPartnersHistoryIsStoredRecordByRecord(t *testing.T) {
	dir := t.TempDir()
	e, alice, hook := historyEnv(t, dir)
	freezeAndUnfreeze(t, e, alice, 130) // 260 events, 260 deliveries
	e = reopened(t, e, dir)
	e.s.persist.store.Close()

	partner := partnerKey(backendKey{"acme", "sandbox", "eu"})
	events, deliveries := storedRecords(t, dir, partner+"/event/"), storedRecords(t, dir, partner+"/delivery/"+hook+"/")
	if len(events) != eventHistorySize || len(deliveries) != webhookHistorySize {
		t.Fatalf("stored %d events and %d deliveries, want the history's %d and %d", len(events), len(deliveries), eventHistorySize, webhookHistorySize)
	}
	if _, oldest := events[eventKey(backendKey{"acme", "sandbox", "eu"}, 11)]; !oldest {
		t.Errorf("the oldest event kept is not the 11th of 260: %v", slices.Sorted(maps.Keys(events))[:2])
	}
	record := storedRecords(t, dir, partner)[partner]
	if len(record) > 2048 || strings.Contains(record, `"events"`) || !strings.Contains(record, `"deliveries":null`) {
		t.Errorf("the partner's record holds its history (%d bytes): %.300s", len(record), record)
	}

	// The numbers go on after a restart: a new event is the newest.
	e = newEnv(t, Options{Store: openTestStore(t, dir)})
	alice, _ = e.login("alice@demo.test")
	want(t, e.do("POST", "/v1/card/freeze", bearer(alice), nil), 200, "")
	waitForDeliveries(t, e.s)
	e = reopened(t, e, dir)
	r := e.do("GET", "/sandbox/events?limit=1", secretHdr(), nil)
	if r.Status != 200 || !strings.Contains(string(r.Raw), `"eventType":"card.frozen"`) || r.JSON["total"] != float64(eventHistorySize) {
		t.Errorf("the newest event after one more, and the total (want %d): %d %.300s", eventHistorySize, r.Status, r.Raw)
	}
}

// asVersion2 rewrites dir's closed store as store version 2 kept a
// partner's history: inside the partner's record.
func asVersion2(t *testing.T, dir string) {
	t.Helper()
	rewriteStore(t, dir, func(tx *bolt.Tx) error {
		f, err := readFixture(tx)
		if err != nil {
			return err
		}
		state := tx.Bucket(bucketState)
		for _, p := range f.Webhooks {
			key := partnerKey(backendKey{p.Tenant, p.Environment, "eu"})
			c := state.Cursor()
			for k, _ := c.Seek([]byte(key + "/")); k != nil && strings.HasPrefix(string(k), key+"/"); k, _ = c.Seek([]byte(key + "/")) {
				if err := state.Delete(k); err != nil {
					return err
				}
			}
			inline, _ := json.Marshal(p)
			if err := state.Put([]byte(key), sealRecord([]byte(key), inline)); err != nil {
				return err
			}
		}
		return tx.Bucket(bucketMeta).Put(versionKey, []byte("2"))
	})
}

// A store version 2 wrote opens with its whole history, and the partner's
// next change stores that history apart.
func TestAVersion2StoreKeepsItsPartnersHistory(t *testing.T) {
	dir := t.TempDir()
	e, alice, hook := historyEnv(t, dir)
	freezeAndUnfreeze(t, e, alice, 3)
	before := everything(t, e.s)
	e.s.Close()
	e.s.persist.store.Close()
	asVersion2(t, dir)
	partner := partnerKey(backendKey{"acme", "sandbox", "eu"})
	if len(storedRecords(t, dir, partner+"/")) != 0 {
		t.Fatal("the version 2 store still has history records")
	}

	e = newEnv(t, Options{Store: openTestStore(t, dir)})
	if after := everything(t, e.s); after != before {
		t.Fatalf("a version 2 store opens as another state:\n%s", firstDifference(before, after))
	}
	alice, _ = e.login("alice@demo.test")
	want(t, e.do("POST", "/v1/card/freeze", bearer(alice), nil), 200, "")
	waitForDeliveries(t, e.s)
	e = reopened(t, e, dir)
	e.s.persist.store.Close()
	if got := storeVersionOf(t, dir); got != "3" {
		t.Errorf("the store's version: %q, want 3", got)
	}
	events, deliveries := storedRecords(t, dir, partner+"/event/"), storedRecords(t, dir, partner+"/delivery/"+hook+"/")
	if len(events) != 7 || len(deliveries) != 7 {
		t.Errorf("stored apart: %d events and %d deliveries, want 7 and 7", len(events), len(deliveries))
	}
	if record := storedRecords(t, dir, partner)[partner]; strings.Contains(record, `"events"`) {
		t.Errorf("the partner's record still holds its events: %.200s", record)
	}
}

// A delivery a stopped sandbox left under way is failed at the next start,
// and stored so, with the partner's next change.
func TestAnInterruptedDeliveryIsStoredAsFailed(t *testing.T) {
	dir := t.TempDir()
	e, alice, hook := historyEnv(t, dir)
	freezeAndUnfreeze(t, e, alice, 1)
	e.s.Close()
	e.s.persist.store.Close()
	key := deliveryKey(backendKey{"acme", "sandbox", "eu"}, hook, 2)
	rewriteStore(t, dir, func(tx *bolt.Tx) error {
		data, err := unsealRecord([]byte(key), tx.Bucket(bucketState).Get([]byte(key)))
		if err != nil {
			return err
		}
		pending := strings.Replace(string(data), `"state":"delivered"`, `"state":"pending"`, 1)
		return tx.Bucket(bucketState).Put([]byte(key), sealRecord([]byte(key), []byte(pending)))
	})

	e = newEnv(t, Options{Store: openTestStore(t, dir)})
	e.clock.Advance(time.Hour)
	alice, _ = e.login("alice@demo.test")
	want(t, e.do("POST", "/v1/card/freeze", bearer(alice), nil), 200, "")
	waitForDeliveries(t, e.s)
	e.s.Close()
	e.s.persist.store.Close()
	stored := storedRecords(t, dir, key)[key]
	if !strings.Contains(stored, `"state":"failed"`) || !strings.Contains(stored, "not sent: the sandbox stopped first") {
		t.Errorf("the interrupted delivery as stored: %s", stored)
	}
}

// A start that fails an interrupted delivery, on a full history, then an
// event: the event pushed out is deleted as ever, and the store opens
// again (it kept 251 events, and refused itself, when the failed delivery
// sent the whole history out again instead).
func TestAnInterruptedDeliveryOnAFullHistoryKeepsItsSize(t *testing.T) {
	dir := t.TempDir()
	e, alice, hook := historyEnv(t, dir)
	freezeAndUnfreeze(t, e, alice, eventHistorySize/2)
	e.s.Close()
	e.s.persist.store.Close()
	home := backendKey{"acme", "sandbox", "eu"}
	key := deliveryKey(home, hook, eventHistorySize)
	rewriteStore(t, dir, func(tx *bolt.Tx) error {
		data, err := unsealRecord([]byte(key), tx.Bucket(bucketState).Get([]byte(key)))
		if err != nil {
			return err
		}
		pending := strings.Replace(string(data), `"state":"delivered"`, `"state":"pending"`, 1)
		return tx.Bucket(bucketState).Put([]byte(key), sealRecord([]byte(key), []byte(pending)))
	})

	e = newEnv(t, Options{Store: openTestStore(t, dir)})
	alice, _ = e.login("alice@demo.test")
	want(t, e.do("POST", "/v1/card/freeze", bearer(alice), nil), 200, "")
	waitForDeliveries(t, e.s)
	e = reopened(t, e, dir)
	e.s.persist.store.Close()
	if events := storedRecords(t, dir, partnerKey(home)+"/event/"); len(events) != eventHistorySize {
		t.Errorf("stored %d events, want %d", len(events), eventHistorySize)
	}
	if stored := storedRecords(t, dir, key)[key]; !strings.Contains(stored, `"state":"failed"`) {
		t.Errorf("the interrupted delivery as stored: %.200s", stored)
	}
}
