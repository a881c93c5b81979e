package sandbox

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
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

// migrate brings an older store to this version. Version 2 kept a
// partner's events and deliveries inside its record: they are read as
// they are and stored apart at the partner's next change, so only the
// number changes, which makes an older cardterm refuse the store by its
// version instead of taking the new records for damage. Version 1's
// records get their checksums.
func migrate(tx *bolt.Tx, from int) error {
	if from == 2 {
		return tx.Bucket(bucketMeta).Put(versionKey, []byte(strconv.Itoa(storeVersion)))
	}
	records := map[string][]byte{}
	err := tx.Bucket(bucketState).ForEach(func(k, v []byte) error { records[string(k)] = bytes.Clone(v); return nil })
	if err == nil {
		err = tx.Bucket(bucketMeta).Delete([]byte("checkpoint")) // the last journal folded in
	}
	if err != nil {
		return err
	}
	return markOurs(tx, records)
}
