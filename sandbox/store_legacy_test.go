package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// rewriteStore changes dir's closed store in one transaction, as another
// cardterm (or damage) would have left it.
func rewriteStore(t *testing.T, dir string, change func(tx *bolt.Tx) error) {
	t.Helper()
	db, err := bolt.Open(filepath.Join(dir, StoreFile), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err = errors.Join(db.Update(change), db.Close()); err != nil {
		t.Fatal(err)
	}
}

// olderStore rewrites a closed store of dir as an earlier cardterm wrote
// it: store version 1, records without checksums, a journal checkpoint.
func olderStore(t *testing.T, dir string) {
	t.Helper()
	rewriteStore(t, dir, func(tx *bolt.Tx) error {
		state, meta := tx.Bucket(bucketState), tx.Bucket(bucketMeta)
		plain := map[string][]byte{}
		_ = state.ForEach(func(k, v []byte) error { plain[string(k)] = append([]byte(nil), v[4:]...); return nil })
		for k, v := range plain {
			_ = state.Put([]byte(k), v)
		}
		_ = meta.Put([]byte("checkpoint"), []byte("7"))
		return meta.Put(versionKey, []byte("1"))
	})
}

// storeVersionOf reads the version of dir's closed store.
func storeVersionOf(t *testing.T, dir string) string {
	t.Helper()
	db, err := bolt.Open(filepath.Join(dir, StoreFile), 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var version string
	_ = db.View(func(tx *bolt.Tx) error { version = string(tx.Bucket(bucketMeta).Get(versionKey)); return nil })
	return version
}

// A store an earlier cardterm wrote (version 1) is migrated at open: the
// same state, every record with its checksum, this version.
func TestAnOlderStoreIsMigratedAtOpen(t *testing.T) {
	dir := storeWithChanges(t)
	olderStore(t, dir)
	if status, entries := aliceAndFrank(t, dir); status != cardFrozen || entries != 200 {
		t.Errorf("after migrating: alice's card %s, frank's entries %d; want FROZEN and 200", status, entries)
	}
	if got := storeVersionOf(t, dir); got != fmt.Sprint(storeVersion) {
		t.Errorf("the store's version after migrating: %q, want %d", got, storeVersion)
	}
	if report, err := Repair(dir, time.Now()); err != nil || report.Folder != "" {
		t.Errorf("a migrated store is not sound: %v\n%s", err, report)
	}
}

// Journals an earlier cardterm left when killed hold changes this one
// does not read: the start and repair refuse the directory, naming them
// and what to do, and change nothing.
func TestJournalsOfAnOlderCardtermAreRefused(t *testing.T) {
	dir := storeWithChanges(t)
	olderStore(t, dir)
	journal := filepath.Join(dir, legacyJournalPrefix+"8")
	if err := os.WriteFile(journal, []byte("CTJ1 frames"), 0o600); err != nil {
		t.Fatal(err)
	}
	says := []string{journal, "store version 1", "stop it with ctrl+c", "move them out of the directory"}
	refusedUnchanged(t, dir, says...)
	_, err := Repair(dir, time.Now())
	for _, want := range says {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("repair: %v; want a refusal saying %q", err, want)
		}
	}
}
