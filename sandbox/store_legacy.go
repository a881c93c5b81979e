package sandbox

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// Store version 1 (earlier releases) kept records without checksums, and
// journals beside the database that were folded into it every 2 s and at
// exit: they remain only where that release was killed, holding changes
// in a format this one does not read.

const legacyJournalPrefix = "sandbox.journal."

// isLegacyJournal reports whether name is a journal's (sandbox.journal.N).
func isLegacyJournal(name string) bool {
	ok, _ := filepath.Match(legacyJournalPrefix+"[0-9]*", name)
	return ok
}

// refuseLegacyJournals is the refusal of a directory holding journals.
func refuseLegacyJournals(dir string, journals []string) error {
	return fmt.Errorf("data directory %s holds %s: changes an older cardterm (store version 1) had not yet moved into %s when it was killed, in a format this cardterm does not read; refusing to use the directory. Start that cardterm once on it and stop it with ctrl+c (it moves them in and removes them), or move them out of the directory to start without those changes",
		dir, strings.Join(journals, ", "), StoreFile)
}

// migrate brings an older store to this version, in the open's one
// transaction: its records are read as the fixture they make and written
// again as this version writes it. Version 1 kept no checksums; version 2
// kept a partner's events and deliveries inside the partner's record.
func migrate(tx *bolt.Tx, from int) error {
	f, state := newFixture(), tx.Bucket(bucketState)
	err := state.ForEach(func(k, v []byte) error {
		data, err := v, error(nil)
		if from >= 2 {
			data, err = unsealRecord(k, v)
		}
		if err == nil {
			err = decodeRecord(f, string(k), bytes.Clone(data))
		}
		if err != nil {
			return storeDamage{tx.DB().Path(), fmt.Sprintf("%s, in record %q: %v", whereIs(tx, v), k, err)}
		}
		return nil
	})
	if err != nil {
		return err
	}
	records, err := fixtureRecords(f)
	if err == nil {
		err = tx.Bucket(bucketMeta).Delete([]byte("checkpoint")) // version 1: the last journal folded in
	}
	if err != nil {
		return err
	}
	return markOurs(tx, records)
}
