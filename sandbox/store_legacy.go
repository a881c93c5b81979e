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

// migrate gives every record of a version 1 store its checksum.
func migrate(tx *bolt.Tx) error {
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
