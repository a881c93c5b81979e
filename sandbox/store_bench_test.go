package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// storeWith100k is a sandbox on a data directory that holds 100,000
// whitelist entries (and alice signed in).
func storeWith100k(b *testing.B) (*Server, string) {
	b.Helper()
	st, err := OpenStore(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	s := New(Options{Store: st})
	if _, err := s.SeedWhitelist("alice@demo.test", "usdc", 100_000); err != nil {
		b.Fatal(err)
	}
	w := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/v1/auth/login", strings.NewReader(`{"username":"alice@demo.test","password":"demo-pass"}`))
	req.Header.Set("x-client-key", DemoClientKey)
	s.ServeHTTP(w, req)
	var login struct{ AccessToken string }
	if err := json.Unmarshal(w.Body.Bytes(), &login); err != nil || login.AccessToken == "" {
		b.Fatalf("login: %d %s", w.Code, w.Body)
	}
	return s, login.AccessToken
}

// reportPercentiles reports the p50 and p99 of the timed changes.
func reportPercentiles(b *testing.B, took []time.Duration) {
	slices.Sort(took)
	at := func(p float64) float64 {
		return float64(took[min(len(took)-1, int(float64(len(took))*p))].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
}

// BenchmarkPersistedChangeAt100kRecords times one change answered over the
// handler (freeze or unfreeze alice's card: her user record re-encoded,
// committed and fsynced) while the store holds 100,000 whitelist entries.
func BenchmarkPersistedChangeAt100kRecords(b *testing.B) {
	s, token := storeWith100k(b)
	paths := []string{"/v1/card/freeze", "/v1/card/unfreeze"}
	took := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		req := httptest.NewRequest("POST", paths[i%2], nil)
		req.Header.Set("x-client-key", DemoClientKey)
		req.Header.Set("Authorization", "Bearer "+token)
		w := httptest.NewRecorder()
		start := time.Now()
		s.ServeHTTP(w, req)
		took = append(took, time.Since(start))
		if w.Code != http.StatusOK {
			b.Fatalf("%s: %d %s", paths[i%2], w.Code, w.Body)
		}
	}
	b.StopTimer()
	reportPercentiles(b, took)
}

// addBenchEntry adds one whitelist entry to u's wallets, keeps it and
// commits, as the handler does without its checks.
func addBenchEntry(s *Server, u *userRecord) error {
	s.mu.Lock()
	ws := walletsOf(u)
	e := &whitelistRecord{Seq: ws.whitelistSeq, ID: uuidFrom("whitelist", u.ID, fmt.Sprint(ws.whitelistSeq)),
		Name: "Bench", First: "B", Last: "B", Address: "0x3333333333333333333333333333333333333333", Currency: "usdc",
		CreatedAt: "2026-01-01T00:00:00Z"}
	ws.whitelistSeq++
	ws.whitelist = append(ws.whitelist, e)
	s.keepWhitelistLocked(u, []*whitelistRecord{e}, nil)
	s.mu.Unlock()
	return s.commit()
}

// BenchmarkPersistedWhitelistEntryAt100kRecords times keeping and
// committing one more whitelist entry (one record written beside 100,000),
// without the handler's own checks.
func BenchmarkPersistedWhitelistEntryAt100kRecords(b *testing.B) {
	s, _ := storeWith100k(b)
	_, alice := s.seededUser(DemoUserID("alice@demo.test"))
	took := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		if err := addBenchEntry(s, alice); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	b.StopTimer()
	reportPercentiles(b, took)
}

// BenchmarkPersistedWhitelistEntriesInParallel keeps and commits one
// whitelist entry per operation from 16 goroutines at once: a commit
// takes every entry kept while the previous one synced, so ns/op is the
// time per change under concurrent writers, not per sync.
func BenchmarkPersistedWhitelistEntriesInParallel(b *testing.B) {
	s, _ := storeWith100k(b)
	_, alice := s.seededUser(DemoUserID("alice@demo.test"))
	b.ReportAllocs()
	b.SetParallelism(8)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := addBenchEntry(s, alice); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkOpenStoreAt100kRecords times opening a data directory of
// 100,000 whitelist entries: bbolt's check of every page, every record's
// checksum and JSON, and the state applied to a seeded sandbox.
func BenchmarkOpenStoreAt100kRecords(b *testing.B) {
	s, _ := storeWith100k(b)
	dir := filepath.Dir(s.persist.store.Path())
	s.persist.store.Close()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		st, err := OpenStore(dir)
		if err != nil {
			b.Fatal(err)
		}
		st.Close()
	}
}

// BenchmarkBoltBatchEntryAt100kRecords is the road not taken: one record
// per db.Batch call, from one goroutine and from 16 (8 per core, as in
// BenchmarkPersistedWhitelistEntriesInParallel), to set beside the store's
// own grouping.
func BenchmarkBoltBatchEntryAt100kRecords(b *testing.B) {
	entry := []byte(`{"seq":1,"id":"bench","name":"Bench","currency":"usdc"}`)
	setUp := func(b *testing.B) func() error {
		s, _ := storeWith100k(b)
		var seq atomic.Int64
		b.ReportAllocs()
		b.ResetTimer()
		return func() error {
			key := []byte(fmt.Sprintf("whitelist/bench/%016x", seq.Add(1)))
			return s.persist.store.db.Batch(func(tx *bolt.Tx) error { return tx.Bucket(bucketState).Put(key, sealRecord(key, entry)) })
		}
	}
	b.Run("alone", func(b *testing.B) {
		put := setUp(b)
		for range b.N {
			if err := put(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("InParallel", func(b *testing.B) {
		put := setUp(b)
		b.SetParallelism(8)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := put(); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}
